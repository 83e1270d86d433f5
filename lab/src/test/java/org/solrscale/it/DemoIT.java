package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.runtime.SolrscaleHome;

/**
 * The README's main command beside another cluster: the quick scenario, its report, nothing left.
 */
class DemoIT {
  static final ObjectMapper JSON = new ObjectMapper();

  @AfterAll
  static void cleanUp() {
    for (String name : new String[] {"scn-quick", "it-side"}) {
      Cluster c = new Cluster(SolrscaleHome.fromEnvironment(), name, System.err::println);
      if (c.state().isPresent()) {
        c.down(true);
      }
    }
  }

  @Test
  void demoRunsTheQuickScenarioWritesTheReportAndCleansUp(@TempDir Path dir) throws Exception {
    Cli.Result side =
        Cli.run("up", "--name", "it-side", "--nodes", "1", "--heap", "256m", "--json");
    assertThat(side.exitCode()).as(side.err()).isZero();

    Path out = dir.resolve("demo");
    Cli.Result demo = Cli.run("demo", "--out", out.toString());
    assertThat(demo.exitCode()).as(demo.err()).isZero();
    assertThat(demo.out()).contains("report:  " + out.resolve("report.html").toAbsolutePath());
    JsonNode c = JSON.readTree(out.resolve("results.json").toFile()).get("combinations").get(0);
    assertThat(c.get("status").asText()).isEqualTo("done");
    JsonNode index = c.get("steps").get(0).get("summary");
    assertThat(index.get("accepted").asLong()).isEqualTo(20_000);
    assertThat(index.get("verified").asBoolean()).isTrue();
    for (int s = 1; s <= 2; s++) {
      JsonNode bench = c.get("steps").get(s).get("summary");
      assertThat(bench.get("count").asLong()).isPositive();
      assertThat(bench.get("errors").get("total").asLong()).isZero();
    }
    assertThat(Files.readString(out.resolve("report.html"))).contains("<svg");

    // the demo's cluster is gone, the other one untouched
    assertThat(new Cluster(SolrscaleHome.fromEnvironment(), "scn-quick", s -> {}).state())
        .isEmpty();
    JsonNode sideNow = JSON.readTree(Cli.run("status", "--name", "it-side", "--json").out());
    assertThat(sideNow.get("healthy").asBoolean()).isTrue();
    assertThat(Cli.run("down", "--name", "it-side", "--purge").exitCode()).isZero();
  }
}
