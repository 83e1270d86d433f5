package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.StateStore;
import org.solrscale.runtime.SolrscaleHome;

/**
 * Solr 10.0.0 from Maven on a JDK found new enough (solrscale itself may run on 17). Where the
 * Maven repositories serve all of it, a cluster comes up, indexes and answers; where they do not
 * (this project's CI machine lacks solr-solrj-streaming 10.0.0 and two Lucene 10.3.2 modules, and
 * Solr 10 cannot start without the first: SolrConfig's static initialiser loads it), the refusal
 * must be one line naming what is missing, with nothing started or left behind.
 */
class Solr10IT {
  private static final String NAME = "it-solr10";

  @Test
  void solr10RunsOrSaysExactlyWhatItsRepositoriesLack(@TempDir Path dir) throws Exception {
    Cli.Result up =
        Cli.run("up", "--name", NAME, "--solr-version", "10.0.0", "--collection", "c", "--json");
    try {
      if (up.exitCode() == 3 && up.err().contains("do not serve")) {
        String last = up.err().strip().lines().reduce((a, b) -> b).orElse("");
        assertThat(last)
            .startsWith(
                "solrscale: cannot assemble Solr 10.0.0: your Maven repositories do not serve")
            .contains("org.apache.solr:solr-solrj-streaming:jar:10.0.0")
            .contains("which solr-core 10.0.0 needs");
        assertThat(up.err()).doesNotContain("\tat ").doesNotContain("Exception");
        // the POM was read and found incomplete (SOLR-18003) before Maven was asked for the rest
        assertThat(up.err()).contains("solr-core 10.0.0's POM leaves out versions of");
        // nothing cached as if it were whole, nothing started
        Path runtime = SolrscaleHome.fromEnvironment().runtimes().resolve("10.0.0");
        assertThat(runtime.resolve("runtime.json")).doesNotExist();
        assertThat(runtime.resolve("lib")).doesNotExist();
        assertThat(SolrscaleHome.fromEnvironment().cluster(NAME)).doesNotExist();
        return;
      }
      assertThat(up.exitCode()).as(up.err()).isZero();
      JsonNode status = new ObjectMapper().readTree(up.out());
      assertThat(status.get("solr_version").asText()).isEqualTo("10.0.0");
      Path docs = dir.resolve("docs.jsonl");
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 100; i++) {
        lines
            .append("{\"id\":\"d")
            .append(i)
            .append("\",\"title_t\":\"doc ")
            .append(i)
            .append("\"}\n");
      }
      Files.writeString(docs, lines);
      Cli.Result index =
          Cli.run("index", "--name", NAME, "--collection", "c", docs.toString(), "--commit");
      assertThat(index.exitCode()).as(index.err()).isZero();
      String base =
          new StateStore(SolrscaleHome.fromEnvironment())
              .find(NAME)
              .orElseThrow()
              .solrNodes()
              .get(0)
              .baseUrl();
      String body =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(base + "/c/select?q=*:*&rows=0")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(new ObjectMapper().readTree(body).at("/response/numFound").asLong())
          .isEqualTo(100);
    } finally {
      Cli.run("down", "--name", NAME, "--purge");
    }
  }
}
