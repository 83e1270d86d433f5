package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ChaosSchemaTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void dynamicFieldsTakeTheWorkloadsDocuments() throws Exception {
    var schema =
        JSON.readTree(
            "{\"uniqueKey\":\"id\",\"fields\":[{\"name\":\"id\",\"required\":true}],"
                + "\"dynamicFields\":[{\"name\":\"*_l\"},{\"name\":\"*_s\"}]}");
    assertThat(ChaosSchema.problems(schema, DocTemplate.DEFAULT.fields())).isEmpty();
  }

  @Test
  void aStrictSchemaIsToldWhatItLacks() throws Exception {
    var schema =
        JSON.readTree(
            "{\"uniqueKey\":\"id\",\"fields\":[{\"name\":\"id\",\"required\":true},"
                + "{\"name\":\"chaos_run_s\"},{\"name\":\"title\",\"required\":true},"
                + "{\"name\":\"kind\",\"required\":true,\"default\":\"x\"}],"
                + "\"dynamicFields\":[{\"name\":\"attr_*\"}]}");
    assertThat(ChaosSchema.problems(schema, DocTemplate.DEFAULT.fields()))
        .containsExactly(
            "no field or dynamic field for chaos_seq_l", "required without a default: title");
    var otherKey =
        JSON.readTree("{\"uniqueKey\":\"docid\",\"dynamicFields\":[{\"name\":\"chaos_*\"}]}");
    assertThat(ChaosSchema.problems(otherKey, DocTemplate.DEFAULT.fields()))
        .containsExactly("its uniqueKey is 'docid', the workload's ids go in 'id'");
  }

  @Test
  void aTemplateIsCheckedByItsOwnFields() throws Exception {
    var schema =
        JSON.readTree(
            "{\"uniqueKey\":\"id\",\"fields\":[{\"name\":\"id\",\"required\":true},"
                + "{\"name\":\"title\",\"required\":true},{\"name\":\"n\"}]}");
    DocTemplate ok =
        DocTemplate.parse("{\"id\":\"{{id}}\",\"title\":\"t {{run}}\",\"n\":\"{{seq}}\"}", "");
    assertThat(ChaosSchema.problems(schema, ok.fields())).isEmpty();
    assertThat(ok.render("r-7", 7, "r-")).isEqualTo("{\"id\":\"r-7\",\"title\":\"t r-\",\"n\":7}");
    DocTemplate lacking = DocTemplate.parse("{\"id\":\"{{id}}\",\"extra_x\":1}", "");
    assertThat(ChaosSchema.problems(schema, lacking.fields()))
        .containsExactly(
            "no field or dynamic field for extra_x", "required without a default: title");
  }

  @Test
  void aTemplateWithoutItsIdOrNotAnObjectIsOneLine() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> DocTemplate.parse("{\"id\":\"x\"}", "--doc-template t.json: "))
        .hasMessage(
            "--doc-template t.json: its \"id\" must be \"{{id}}\": the checks find every written"
                + " document by it");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> DocTemplate.parse("[1]", "t: "))
        .hasMessageStartingWith("t: give one document as a JSON object");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> DocTemplate.parse("{\"id\": \"{{id}}\",\n \"x\": }", "t: "))
        .hasMessageMatching("(?s)t:2:[0-9]+: not JSON.*");
  }
}
