package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadTest {
  @TempDir Path dir;

  Path file(String name, String text) throws IOException {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  @Test
  void readsParamLinesHandlerPathsAndJsonObjects() throws IOException {
    Path f =
        file(
            "q.txt",
            String.join(
                "\n",
                "# a comment",
                "",
                "q=body_t%3Afoo&rows=10",
                "/browse?q=bar&fq=a%3A1",
                "{\"q\":\"x y\",\"fq\":[\"a:1\",\"b:2\"],\"rows\":0,\"_template\":\"facets\"}"));
    List<QueryRequest> rs = QueryFile.read(f);
    assertThat(rs).hasSize(3);
    assertThat(rs.get(0).handler()).isEqualTo("/select");
    assertThat(rs.get(0).template()).isEqualTo("/select q,rows");
    assertThat(rs.get(0).source()).isEqualTo(f + ":3");
    assertThat(rs.get(1).handler()).isEqualTo("/browse");
    assertThat(rs.get(2).params()).isEqualTo("q=x+y&fq=a%3A1&fq=b%3A2&rows=0");
    assertThat(rs.get(2).template()).isEqualTo("facets");
  }

  @Test
  void badLinesAreNamedByFileAndLine() throws IOException {
    assertThatThrownBy(() -> QueryFile.read(file("a.txt", "q=ok\nnot params\n")))
        .hasMessageContaining("a.txt:2")
        .hasMessageContaining("not name=value");
    // a % that starts no escape is a percent sign, as a person typing it means
    assertThat(QueryFile.read(file("b.txt", "q=%zz 100%\n")).get(0).params())
        .isEqualTo("q=%25zz%20100%25");
    assertThatThrownBy(() -> QueryFile.read(file("c.txt", "{\"q\": broken\n")))
        .hasMessageContaining("c.txt:1")
        .hasMessageContaining("malformed JSON");
    assertThatThrownBy(() -> QueryFile.read(file("d.txt", "# nothing\n\n")))
        .hasMessageContaining("has no requests");
    assertThatThrownBy(() -> QueryFile.read(file("e.txt", "fq=a%3A1\n")))
        .hasMessageContaining("e.txt:1")
        .hasMessageContaining("no q");
    assertThatThrownBy(() -> QueryFile.read(dir.resolve("missing.txt")))
        .hasMessageContaining("does not exist");
  }

  @Test
  void weightedMixKeepsItsSharesAndIsSeeded() throws IOException {
    file("s.txt", "q=search1\nq=search2\n");
    file("f.txt", "q=facet1\n");
    String mix = dir.resolve("s.txt") + ":80," + dir.resolve("f.txt") + ":20";
    Workload w = new Workload(Workload.parseMix(mix), false, 0, 5);
    Map<String, Integer> seen = new HashMap<>();
    Workload.Source src = w.source(0);
    for (int i = 0; i < 10_000; i++) {
      seen.merge(src.next().params(), 1, Integer::sum);
    }
    assertThat(seen.get("q=facet1")).isBetween(1800, 2200);
    Workload.Source again = new Workload(Workload.parseMix(mix), false, 0, 5).source(0);
    Workload.Source same = w.source(0);
    for (int i = 0; i < 100; i++) {
      assertThat(again.next()).isEqualTo(same.next());
    }
  }

  @Test
  void sequentialOrderWalksEachFileFromTheTop() throws IOException {
    file("s.txt", "q=1\nq=2\nq=3\n");
    Workload w = new Workload(Workload.parseMix(dir.resolve("s.txt").toString()), true, 0, 1);
    Workload.Source src = w.source(0);
    assertThat(
            List.of(
                src.next().params(), src.next().params(), src.next().params(), src.next().params()))
        .containsExactly("q=1", "q=2", "q=3", "q=1");
  }

  @Test
  void zipfRepeatsTheTopRanksMost() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      sb.append("q=t").append(i).append('\n');
    }
    file("z.txt", sb.toString());
    Workload w = new Workload(Workload.parseMix(dir.resolve("z.txt").toString()), false, 1.2, 3);
    Map<String, Integer> seen = new HashMap<>();
    Workload.Source src = w.source(0);
    for (int i = 0; i < 20_000; i++) {
      seen.merge(src.next().params(), 1, Integer::sum);
    }
    assertThat(seen.get("q=t0")).isGreaterThan(10 * seen.getOrDefault("q=t500", 1));
  }

  @Test
  void numFoundAndSolrMessagesAreReadFromResponses() {
    assertThat(
            HttpSender.numFound(
                "{\"responseHeader\":{},\"response\":{\"numFound\":1234,\"start\":0"))
        .isEqualTo(1234);
    assertThat(HttpSender.numFound("{\"response\":{\"numFound\": 7}")).isEqualTo(7);
    assertThat(HttpSender.numFound("<xml/>")).isEqualTo(-1);
    assertThat(
            HttpSender.solrMessage("{\"error\":{\"msg\":\"undefined field nope\",\"code\":400}}"))
        .isEqualTo("undefined field nope");
  }

  @Test
  void aTemplateParameterNamesTheKindIsNotSentAndPicksRequests() throws IOException {
    Path f =
        file(
            "kinds.txt",
            String.join(
                "\n",
                "q=body_t%3Afoo&rows=10&_template=term",
                "q=body_t%3A%22foo+bar%22&rows=10&_template=phrase",
                "q=body_t%3Abar&rows=10"));
    List<QueryRequest> rs = QueryFile.read(f);
    assertThat(rs)
        .extracting(QueryRequest::template)
        .containsExactly("term", "phrase", "/select q,rows");
    assertThat(rs.get(1).params()).isEqualTo("q=body_t%3A%22foo+bar%22&rows=10");
    List<Workload.Part> parts = List.of(new Workload.Part(f, 1, rs));
    assertThat(Workload.only(parts, null)).isSameAs(parts);
    List<Workload.Part> phrases = Workload.only(parts, List.of("phrase"));
    assertThat(phrases).hasSize(1);
    assertThat(phrases.get(0).requests())
        .extracting(QueryRequest::template)
        .containsExactly("phrase");
    assertThatThrownBy(() -> Workload.only(parts, List.of("phrase", "facet")))
        .hasMessage(
            "--templates facet: no request of that template in "
                + f
                + "; its templates: /select q,rows, phrase, term");
  }
}
