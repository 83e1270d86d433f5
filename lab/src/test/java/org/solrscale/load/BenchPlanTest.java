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
  void queryFileParamsBecomeAUriQuery() {
    String q = BenchPlan.uriSafe("q={!nosuchparser}x y&fq=\"a b\"&q.op=AND&t=é😀");
    assertThat(q)
        .isEqualTo("q=%7B!nosuchparser%7Dx%20y&fq=%22a%20b%22&q.op=AND&t=%C3%A9%F0%9F%98%80");
    assertThat(URI.create("http://h/solr/c/select?" + q).getQuery())
        .isEqualTo("q={!nosuchparser}x y&fq=\"a b\"&q.op=AND&t=é😀");
    // what is already encoded stays so
    assertThat(BenchPlan.uriSafe("q=%E2%82%AC+x")).isEqualTo("q=%E2%82%AC+x");
  }

  @Test
  void aQueryTheCollectionRefusesIsNamedByFileAndLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("q.txt");
    Files.writeString(file, "# derived for another collection\n\nq=body_tx:solr\n");
    HttpServer solr = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    solr.createContext(
        "/solr/docs/select",
        ex -> {
          byte[] body =
              "{\"error\":{\"msg\":\"undefined field body_tx\",\"code\":400}}"
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
      assertThatThrownBy(() -> BenchPlan.probe(url, "docs", w, "", Access.NONE))
          .hasMessage(
              file
                  + ":3: collection docs refuses this query (HTTP 400: undefined field body_tx):"
                  + " derive queries for its fields, e.g. solrscale data queries CORPUS --field"
                  + " FIELD");
    } finally {
      solr.stop(0);
    }
  }
}
