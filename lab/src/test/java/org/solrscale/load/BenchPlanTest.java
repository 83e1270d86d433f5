package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Access;

class BenchPlanTest {
  @Test
  void routingAndLimitsAreAppendedToEveryRequest() {
    assertThat(BenchPlan.extraParams(null, false, null)).isEmpty();
    assertThat(
            BenchPlan.extraParams(
                "replica.location:local", true, java.time.Duration.ofMillis(1500)))
        .isEqualTo(
            "&shards.preference=replica.location%3Alocal&shards.tolerant=true&timeAllowed=1500");
  }

  @Test
  void anAnswerSolrMarkedPartialIsKnownByItsHeader() {
    // shards.tolerant with a shard missing, and a query limit (Solr 9.8 on: "omitted" when
    // allowPartialResults=false dropped the results)
    assertThat(
            HttpSender.partial(
                "{\"responseHeader\":{\"zkConnected\":true,\"partialResults\":true,\"status\":0}}"))
        .isTrue();
    assertThat(HttpSender.partial("{\"responseHeader\":{\"partialResults\": \"omitted\"}}"))
        .isTrue();
    assertThat(HttpSender.partial("{\"responseHeader\":{\"partialResults\":false}}")).isFalse();
    // the echoed request parameter is not the answer's mark
    assertThat(
            HttpSender.partial(
                "{\"responseHeader\":{\"params\":{\"allowPartialResults\":\"true\"}}}"))
        .isFalse();
    assertThat(HttpSender.partial("{\"response\":{\"numFound\":3}}")).isFalse();
  }

  @Test
  void queryFileParamsBecomeAUriQuery() {
    String q = QueryFile.urlSafe("q={!nosuchparser}x y&fq=\"a b\"&q.op=AND&t=é😀");
    assertThat(q)
        .isEqualTo("q=%7B!nosuchparser%7Dx%20y&fq=%22a%20b%22&q.op=AND&t=%C3%A9%F0%9F%98%80");
    assertThat(URI.create("http://h/solr/c/select?" + q).getQuery())
        .isEqualTo("q={!nosuchparser}x y&fq=\"a b\"&q.op=AND&t=é😀");
    // what is already encoded stays so
    assertThat(QueryFile.urlSafe("q=%E2%82%AC+x")).isEqualTo("q=%E2%82%AC+x");
    // as people type them: spaces, quotes, #, a % that is no escape, non-ASCII
    assertThat(QueryFile.urlSafe("q=presentation AND symbols"))
        .isEqualTo("q=presentation%20AND%20symbols");
    assertThat(QueryFile.urlSafe("q=\"C# in 100%\" caf\u00e9&fq=a:%zz"))
        .isEqualTo("q=%22C%23%20in%20100%25%22%20caf%C3%A9&fq=a:%25zz");
    String typed = "q=\"C# in 100%\" caf\u00e9 +x%2By";
    assertThat(
            java.net.URLDecoder.decode(
                QueryFile.urlSafe(typed).substring(2), StandardCharsets.UTF_8))
        .isEqualTo("\"C# in 100%\" caf\u00e9  x+y");
  }

  @Test
  void aQueryTheCollectionRefusesIsNamedByFileAndLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("q.txt");
    Files.writeString(file, "# derived for another collection\n\nq=body_tx:solr\n");
    String[] message = {"undefined field body_tx"};
    HttpServer solr = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    solr.createContext(
        "/solr/docs/select",
        ex -> {
          byte[] body =
              ("{\"error\":{\"msg\":\"" + message[0] + "\",\"code\":400}}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(400, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    solr.start();
    try {
      Workload w =
          new Workload(List.of(new Workload.Part(file, 1, QueryFile.read(file))), true, 0, 1);
      String url = "http://127.0.0.1:" + solr.getAddress().getPort() + "/solr";
      assertThatThrownBy(() -> BenchPlan.probe(url, "docs", BenchPlan.firsts(w), "", Access.NONE))
          .hasMessage(
              file
                  + ":3: collection docs refuses this request (HTTP 400: undefined field body_tx):"
                  + " derive queries for its fields, e.g. solrscale data queries CORPUS --field"
                  + " FIELD");
      // any other 4xx stops the load too, with Solr's message and the line
      Files.writeString(file, "q=ok\n");
      Workload other =
          new Workload(List.of(new Workload.Part(file, 1, QueryFile.read(file))), true, 0, 1);
      message[0] = "org.apache.solr.search.SyntaxError: Cannot parse 'a:('";
      assertThatThrownBy(
              () -> BenchPlan.probe(url, "docs", BenchPlan.firsts(other), "", Access.NONE))
          .hasMessage(
              file
                  + ":1: collection docs refuses this request (HTTP 400:"
                  + " org.apache.solr.search.SyntaxError: Cannot parse 'a:('): mend the line, or"
                  + " leave it out");
    } finally {
      solr.stop(0);
    }
  }
}
