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
    assertThat(ChaosSchema.problems(schema)).isEmpty();
  }

  @Test
  void aStrictSchemaIsToldWhatItLacks() throws Exception {
    var schema =
        JSON.readTree(
            "{\"uniqueKey\":\"id\",\"fields\":[{\"name\":\"id\",\"required\":true},"
                + "{\"name\":\"chaos_run_s\"},{\"name\":\"title\",\"required\":true},"
                + "{\"name\":\"kind\",\"required\":true,\"default\":\"x\"}],"
                + "\"dynamicFields\":[{\"name\":\"attr_*\"}]}");
    assertThat(ChaosSchema.problems(schema))
        .containsExactly(
            "no field or dynamic field for chaos_seq_l", "required without a default: title");
    var otherKey =
        JSON.readTree("{\"uniqueKey\":\"docid\",\"dynamicFields\":[{\"name\":\"chaos_*\"}]}");
    assertThat(ChaosSchema.problems(otherKey))
        .containsExactly("its uniqueKey is 'docid', the workload's ids go in 'id'");
  }
}
