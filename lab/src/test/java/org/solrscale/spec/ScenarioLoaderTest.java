package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioLoaderTest {
  static final String SCENARIO = String.join("\n",
      "name: sweep",
      "cluster:",
      "  nodes: 1",
      "  collections:",
      "    - name: docs",
      "      shards: 1",
      "data:",
      "  synth: {docs: 1000}",
      "steps:",
      "  - index: {collection: docs}",
      "  - wait: 2s",
      "  - bench: {name: warm, collection: docs, threads: 1, duration: 5s}",
      "  - restart: {nodes: [all]}",
      "  - bench: {name: cold, collection: docs, threads: 2, requests: 100}",
      "matrix:",
      "  cluster.nodes: [1, 2]",
      "  collection.shards: [1, 2]",
      "  bench.cold.threads: [2, 4, 8]",
      "repeat: 2",
      "");

  @Test
  void theMatrixIsTheCartesianProductLastKeyFastest() {
    ScenarioLoader.Loaded l = ScenarioLoader.parse(SCENARIO, "s.yaml");
    List<ScenarioLoader.Combination> cs = l.combinations();
    assertThat(cs).hasSize(12);
    assertThat(cs.get(0).id()).isEqualTo("c001");
    assertThat(cs.get(0).label()).isEqualTo("cluster.nodes=1,collection.shards=1,bench.cold.threads=2");
    assertThat(cs.get(1).label()).isEqualTo("cluster.nodes=1,collection.shards=1,bench.cold.threads=4");
    assertThat(cs.get(11).label()).isEqualTo("cluster.nodes=2,collection.shards=2,bench.cold.threads=8");
    ScenarioSpec last = cs.get(11).spec();
    assertThat(last.cluster().nodes().get(0).count()).isEqualTo(2);
    assertThat(last.cluster().collections().get(0).shards()).isEqualTo(2);
    StepSpec.Bench warm = (StepSpec.Bench) last.steps().get(2);
    StepSpec.Bench cold = (StepSpec.Bench) last.steps().get(4);
    assertThat(warm.threads()).isEqualTo(1); // only the step named cold was swept
    assertThat(cold.threads()).isEqualTo(8);
    assertThat(((StepSpec.Wait) last.steps().get(1)).duration()).isEqualTo("2s");
    assertThat(last.repeat()).isEqualTo(2);
    assertThat(ScenarioLoader.sameTopology(cs.get(0).spec(), cs.get(1).spec())).isTrue();
    assertThat(ScenarioLoader.sameTopology(cs.get(0).spec(), cs.get(3).spec())).isFalse();
  }

  @Test
  void errorsNameTheFileLineOrTheCombination() {
    assertThatThrownBy(() -> ScenarioLoader.parse(SCENARIO.replace("repeat: 2", "repaet: 2"), "s.yaml"))
        .hasMessageContaining("s.yaml:19").hasMessageContaining("unknown key 'repaet'");
    assertThatThrownBy(() -> ScenarioLoader.parse(SCENARIO.replace("cluster.nodes: [1, 2]", "cluster.nodes: [1, 0]"), "s.yaml"))
        .hasMessageContaining("matrix combination {cluster.nodes=0");
    assertThatThrownBy(() -> ScenarioLoader.parse(SCENARIO.replace("bench.cold.threads", "bench.hot.threads"), "s.yaml"))
        .hasMessageContaining("matches no bench step named hot");
    assertThatThrownBy(() -> ScenarioLoader.parse(SCENARIO.replace("threads: 1, duration", "duration"), "s.yaml"))
        .hasMessageContaining("needs exactly one of threads or rate");
  }

  @Test
  void faultStepsAreCheckedAndNeedAStepToRunAlongside() {
    String base = "cluster: {nodes: 2, collections: [{name: c, shards: 2, replicas: 2}]}\nsteps:\n";
    ScenarioSpec ok = ScenarioLoader.parse(base + "  - fault: {fault: kill, target: 'leader-of:shard1', at: 5s}\n"
        + "  - chaos: {duration: 20s}\n", "c.yaml").base();
    assertThat(ok.steps().get(0)).isInstanceOfSatisfying(StepSpec.Fault.class,
        f -> assertThat(f.duration()).isEqualTo("10s"));
    assertThatThrownBy(() -> ScenarioLoader.parse(base + "  - chaos: {}\n  - fault: {fault: kill}\n", "c.yaml"))
        .hasMessageContaining("runs alongside the step after it, and there is none");
    assertThatThrownBy(() -> ScenarioLoader.parse(base + "  - fault: {fault: explode}\n  - chaos: {}\n", "c.yaml"))
        .hasMessageContaining("unknown fault 'explode'");
    assertThatThrownBy(() -> ScenarioLoader.parse(base + "  - fault: {fault: monkey, faults: [rolling-restart]}\n"
        + "  - chaos: {}\n", "c.yaml")).hasMessageContaining("the monkey cannot use 'rolling-restart'");
    assertThatThrownBy(() -> ScenarioLoader.parse(base + "  - fault: {fault: kill, at: soon}\n  - chaos: {}\n", "c.yaml"))
        .hasMessageContaining("fault step 'kill'");
  }

  @Test
  void theShippedScenariosLoad() throws Exception {
    try (var files = java.nio.file.Files.list(java.nio.file.Path.of("../scenarios"))) {
      List<java.nio.file.Path> yamls = files.filter(f -> f.toString().endsWith(".yaml")).toList();
      assertThat(yamls).extracting(f -> f.getFileName().toString())
          .contains("quick.yaml", "scaling-solr.yaml", "facet-drop.yaml", "chaos.yaml");
      for (java.nio.file.Path f : yamls) {
        assertThat(ScenarioLoader.load(f).combinations()).as(f.toString()).isNotEmpty();
      }
    }
  }

  @Test
  void cacheSizesAreSweptThroughTheNodesJvmArguments() {
    String text = SCENARIO.replace("  cluster.nodes: [1, 2]\n  collection.shards: [1, 2]\n  bench.cold.threads: [2, 4, 8]",
        "  cluster.jvm_args: [[-Dsolr.filterCache.size=128], [-Dsolr.filterCache.size=4096]]");
    List<ScenarioLoader.Combination> cs = ScenarioLoader.parse(text, "s.yaml").combinations();
    assertThat(cs).hasSize(2);
    assertThat(cs.get(1).spec().cluster().jvmArgs()).containsExactly("-Dsolr.filterCache.size=4096");
    assertThat(ScenarioLoader.sameTopology(cs.get(0).spec(), cs.get(1).spec())).isFalse();
  }
}
