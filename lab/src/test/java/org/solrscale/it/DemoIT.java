package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.solrscale.cluster.Cluster;
import org.solrscale.runtime.SolrscaleHome;

/** The README's main command, and two clusters side by side on free ports. */
class DemoIT {
  static final ObjectMapper JSON = new ObjectMapper();

  @AfterAll
  static void cleanUp() {
    for (String name : new String[] {"it-demo", "it-side"}) {
      Cluster c = new Cluster(SolrscaleHome.fromEnvironment(), name, System.err::println);
      if (c.state().isPresent()) {
        c.down(true);
      }
    }
  }

  @Test
  void demoRunsEndToEndBesideAnotherClusterAndCleansUp() throws Exception {
    Cli.Result side = Cli.run("up", "--name", "it-side", "--nodes", "1", "--heap", "256m", "--json");
    assertThat(side.exitCode()).as(side.err()).isZero();
    JsonNode sideStatus = JSON.readTree(side.out());
    Set<Integer> sidePorts = new HashSet<>();
    sideStatus.get("nodes").forEach(n -> sidePorts.add(n.get("port").asInt()));

    Cli.Result demo = Cli.run("demo", "--name", "it-demo", "--docs", "3000", "--json");
    assertThat(demo.exitCode()).as(demo.err()).isZero();
    JsonNode r = JSON.readTree(demo.out());
    assertThat(r.get("documents").asInt()).isEqualTo(3000);
    assertThat(r.get("queries").get(0).get("numFound").asLong()).isEqualTo(3000);
    assertThat(r.get("queries")).allSatisfy(q -> assertThat(q.get("numFound").asLong()).isPositive());
    JsonNode status = r.get("status");
    assertThat(status.get("healthy").asBoolean()).isTrue();
    long docs = 0;
    for (JsonNode shard : status.get("collections").get(0).get("shards")) {
      docs += shard.get("docs").asLong();
    }
    assertThat(docs).isEqualTo(3000);
    for (JsonNode n : status.get("nodes")) {
      assertThat(sidePorts).doesNotContain(n.get("port").asInt());
    }
    // the other cluster was untouched
    assertThat(JSON.readTree(Cli.run("status", "--name", "it-side", "--json").out())
        .get("healthy").asBoolean()).isTrue();

    // without --keep the demo took its cluster down and deleted it
    for (JsonNode n : status.get("nodes")) {
      assertThat(ClusterIT.gone(n.get("pid").asLong())).isTrue();
    }
    assertThat(new Cluster(SolrscaleHome.fromEnvironment(), "it-demo", s -> { }).state()).isEmpty();
    assertThat(Cli.run("down", "--name", "it-side", "--purge").exitCode()).isZero();
  }
}
