package org.solrscale.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.SolrscaleException;

class TurnsTest {
  private static final String SCENARIO =
      String.join(
          "\n",
          "name: ab",
          "cluster:",
          "  nodes: 1",
          "  collections: [{name: docs, shards: 1}]",
          "data: {synth: {docs: 1000}}",
          "steps:",
          "  - bench: {collection: docs, threads: 1, duration: 5s}",
          "matrix:",
          "  cluster.solr_version: [9.8.1, 9.10.1]",
          "repeat: 3",
          "");

  private static List<String> order(String text) {
    ScenarioLoader.Loaded l = ScenarioLoader.parse(text, "ab.yaml");
    return ScenarioRunner.turns(l.combinations(), l.base()).stream()
        .map(t -> t.combination().id() + "/r" + t.repeat())
        .toList();
  }

  @Test
  void byDefaultEachCombinationsRepeatsRunBackToBack() {
    assertThat(order(SCENARIO))
        .containsExactly("c001/r1", "c001/r2", "c001/r3", "c002/r1", "c002/r2", "c002/r3");
  }

  @Test
  void inRoundsEveryCombinationRunsOnceARound() {
    assertThat(order(SCENARIO + "order: rounds\n"))
        .containsExactly("c001/r1", "c002/r1", "c001/r2", "c002/r2", "c001/r3", "c002/r3");
  }

  @Test
  void anUnknownOrderIsRefusedNamingBoth() {
    assertThatThrownBy(() -> order(SCENARIO + "order: interleaved\n"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining(
            "order is combinations (each combination's repeats back to back) or rounds (every"
                + " combination once a round), not 'interleaved'");
  }
}
