package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ScenarioLoaderTest {
  static final String SCENARIO =
      String.join(
          "\n",
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

  static final String SWEEPS =
      SCENARIO.substring(0, SCENARIO.indexOf("matrix:"))
          + String.join(
              "\n",
              "matrix:", // 15
              "  - {bench.cold.threads: [1, 2, 4]}", // 16
              "  - {cluster.nodes: [1, 2], collection.shards: [1, 2]}", // 17
              "  - {cluster.nodes: [1], bench.cold.threads: [2]}", // 18: made already
              "");

  @Test
  void aScenarioIsTheSameWhateverItsCommentsLayoutAndKeyOrder() {
    String a = "# a study\nname: s\nrepeat: 2\ncluster: {nodes: 2, zookeeper: 1}\nsteps: []\n";
    String b =
        "name: 's'   # renamed comment\n\ncluster:\n  zookeeper: 1\n  nodes: 2\nrepeat: 2\n"
            + "steps: []\n";
    assertThat(ScenarioLoader.sameContent(a, b)).isTrue();
    assertThat(ScenarioLoader.sameContent(a, a.replace("repeat: 2", "repeat: 3"))).isFalse();
    assertThat(ScenarioLoader.sameContent(a, a.replace("nodes: 2", "nodes: '2'"))).isFalse();
    assertThat(ScenarioLoader.sameContent(a, "name: [unclosed")).isFalse();
  }

  @Test
  void aListOfSweepsRunsEachOnceWithTheScenariosOwnValuesForTheOtherKeys() {
    ScenarioLoader.Loaded l = ScenarioLoader.parse(SWEEPS, "s.yaml");
    List<String> labels = l.combinations().stream().map(ScenarioLoader.Combination::label).toList();
    assertThat(labels)
        .containsExactly(
            "bench.cold.threads=1,cluster.nodes=1,collection.shards=1",
            "bench.cold.threads=2,cluster.nodes=1,collection.shards=1",
            "bench.cold.threads=4,cluster.nodes=1,collection.shards=1",
            // nodes=1, shards=1, threads=2 is the second already: run once
            "bench.cold.threads=2,cluster.nodes=1,collection.shards=2",
            "bench.cold.threads=2,cluster.nodes=2,collection.shards=1",
            "bench.cold.threads=2,cluster.nodes=2,collection.shards=2");
    assertThat(l.combinations().stream().map(ScenarioLoader.Combination::id))
        .containsExactly("c001", "c002", "c003", "c004", "c005", "c006");
    ScenarioSpec last = l.combinations().get(5).spec();
    assertThat(last.cluster().nodes().get(0).count()).isEqualTo(2);
    assertThat(((StepSpec.Bench) last.steps().get(4)).threads()).isEqualTo(2);
    assertThat(l.base().matrix().get("bench.cold.threads")).containsExactly(1, 2, 4);
    assertThat(l.base().matrix().get("cluster.nodes")).containsExactly(1, 2);
  }

  @Test
  void aSweepsMistakeIsPlacedInItsOwnElement() {
    String head = SCENARIO.substring(0, SCENARIO.indexOf("matrix:"));
    assertThat(error(head + "matrix:\n  - {bench.cold.threads: [1]}\n  - {cluster.nodes: [0]}\n"))
        .startsWith("s.yaml:17:22: matrix cluster.nodes=0: a node group has count 0");
    assertThat(error(head + "matrix:\n  - {bench.cold.threads: [1]}\n  - {bench.thread: [2]}\n"))
        .startsWith("s.yaml:17:6: matrix key 'bench.thread' leads to no setting");
    assertThat(error(head + "matrix:\n  - {bench.cold.threads: 4}\n"))
        .isEqualTo("s.yaml:16:6: matrix key 'bench.cold.threads' needs a list of values");
    assertThat(error(head + "matrix:\n  - [1, 2]\n"))
        .startsWith("s.yaml:16:5: each element of a matrix list is a sweep");
    assertThat(error(head + "matrix: []\n")).startsWith("s.yaml:15:1: the matrix is an empty list");
    // a key another sweep sets, with no value of the scenario's own for this one
    assertThat(error(head + "matrix:\n  - {bench.cold.threads: [1]}\n  - {cluster.heap: [512m]}\n"))
        .startsWith("s.yaml:16:5: this sweep does not set matrix key 'cluster.heap'");
  }

  @Test
  void theMatrixIsTheCartesianProductLastKeyFastest() {
    ScenarioLoader.Loaded l = ScenarioLoader.parse(SCENARIO, "s.yaml");
    List<ScenarioLoader.Combination> cs = l.combinations();
    assertThat(cs).hasSize(12);
    assertThat(cs.get(0).id()).isEqualTo("c001");
    assertThat(cs.get(0).label())
        .isEqualTo("cluster.nodes=1,collection.shards=1,bench.cold.threads=2");
    assertThat(cs.get(1).label())
        .isEqualTo("cluster.nodes=1,collection.shards=1,bench.cold.threads=4");
    assertThat(cs.get(11).label())
        .isEqualTo("cluster.nodes=2,collection.shards=2,bench.cold.threads=8");
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
    // other shards, the same nodes: the run keeps the nodes and makes the collection again
    assertThat(ScenarioLoader.sameTopology(cs.get(0).spec(), cs.get(3).spec())).isTrue();
    assertThat(ScenarioLoader.sameTopology(cs.get(0).spec(), cs.get(6).spec())).isFalse();
  }

  @Test
  void errorsNameTheFileLineOrTheCombination() {
    assertThatThrownBy(
            () -> ScenarioLoader.parse(SCENARIO.replace("repeat: 2", "repaet: 2"), "s.yaml"))
        .hasMessageContaining("s.yaml:19")
        .hasMessageContaining("unknown key 'repaet'");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    SCENARIO.replace("cluster.nodes: [1, 2]", "cluster.nodes: [1, 0]"), "s.yaml"))
        .hasMessageContaining("s.yaml:16:22: matrix cluster.nodes=0: a node group has count 0");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    SCENARIO.replace("bench.cold.threads", "bench.hot.threads"), "s.yaml"))
        .hasMessageContaining("matches no bench step named hot");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    SCENARIO.replace("threads: 1, duration", "duration"), "s.yaml"))
        .hasMessageContaining("needs exactly one of threads, rate or replay");
  }

  @Test
  void replayStepsAreCheckedAndSweepable() {
    String base = "cluster: {nodes: 1, collections: [{name: c}]}\nsteps:\n";
    ScenarioLoader.Loaded ok =
        ScenarioLoader.parse(
            base
                + "  - bench: {name: r, replay: requests.jsonl, max_gap: 5s, warmup: 0s}\n"
                + "matrix:\n  bench.r.speed: [1, 4]\n",
            "r.yaml");
    assertThat(ok.combinations()).hasSize(2);
    assertThat(ok.combinations().get(1).spec().steps().get(0))
        .isInstanceOfSatisfying(
            StepSpec.Bench.class,
            b -> {
              assertThat(b.speed()).isEqualTo(4.0);
              assertThat(b.replay()).isEqualTo("requests.jsonl");
              assertThat(b.loop()).isFalse();
            });
    assertThatThrownBy(
            () -> ScenarioLoader.parse(base + "  - bench: {replay: r.jsonl, rate: 5}\n", "r.yaml"))
        .hasMessageContaining("needs exactly one of threads, rate or replay");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(base + "  - bench: {replay: r.jsonl, loop: true}\n", "r.yaml"))
        .hasMessageContaining("loop replays the log again and again; give duration");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(base + "  - bench: {threads: 2, speed: 2}\n", "r.yaml"))
        .hasMessageContaining("speed, max_gap and loop are for a replay");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(base + "  - bench: {replay: r.jsonl, speed: 0}\n", "r.yaml"))
        .hasMessageContaining("speed 0.0 must be above 0");
    ScenarioSpec capacity =
        ScenarioLoader.parse(
                base + "  - capacity: {slo: 'p99<1s', replay: r.jsonl, max_gap: 2s}\n", "r.yaml")
            .base();
    assertThat(capacity.steps().get(0))
        .isInstanceOfSatisfying(
            StepSpec.Capacity.class, k -> assertThat(k.replay()).isEqualTo("r.jsonl"));
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    base + "  - capacity: {slo: 'p99<1s', replay: r.jsonl, queries: q.txt}\n",
                    "r.yaml"))
        .hasMessageContaining("replay sends the logged requests; leave out queries");
  }

  @Test
  void faultStepsAreCheckedAndNeedAStepToRunAlongside() {
    String base = "cluster: {nodes: 2, collections: [{name: c, shards: 2, replicas: 2}]}\nsteps:\n";
    ScenarioSpec ok =
        ScenarioLoader.parse(
                base
                    + "  - fault: {fault: kill, target: 'leader-of:shard1', at: 5s}\n"
                    + "  - chaos: {duration: 20s}\n",
                "c.yaml")
            .base();
    assertThat(ok.steps().get(0))
        .isInstanceOfSatisfying(
            StepSpec.Fault.class, f -> assertThat(f.duration()).isEqualTo("10s"));
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(base + "  - chaos: {}\n  - fault: {fault: kill}\n", "c.yaml"))
        .hasMessageContaining("runs alongside the step after it, and there is none");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    base + "  - fault: {fault: explode}\n  - chaos: {}\n", "c.yaml"))
        .hasMessageContaining("unknown fault 'explode'");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    base
                        + "  - fault: {fault: monkey, faults: [rolling-restart]}\n"
                        + "  - chaos: {}\n",
                    "c.yaml"))
        .hasMessageContaining("the monkey cannot use 'rolling-restart'");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    base + "  - fault: {fault: kill, at: soon}\n  - chaos: {}\n", "c.yaml"))
        .hasMessageContaining("fault step 'kill'");
  }

  @Test
  void latencyAndLossStepsSayHowSlowAndOnHostsOnly() {
    String hosts =
        "cluster: {hosts: [{ssh: a, labels: {dc: east}}, {ssh: b, labels: {dc: west}}],"
            + " collections: [{name: c}]}\nsteps:\n";
    StepSpec.Fault f =
        (StepSpec.Fault)
            ScenarioLoader.parse(
                    hosts
                        + "  - fault: {fault: latency, target: 'dc=east<->dc=west', delay: 40ms,"
                        + " jitter: 5ms, distribution: uniform, loss: 1%}\n"
                        + "  - chaos: {}\n",
                    "s.yaml")
                .base()
                .steps()
                .get(0);
    assertThat(f.slowness().describe())
        .isEqualTo("40 ms each way ±5 ms (uniform), round trip +80 ms; 1% lost each way");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts + "  - fault: {fault: latency}\n  - chaos: {}\n", "s.yaml"))
        .hasMessageContaining("latency needs delay, the one-way delay such as 50ms");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts + "  - fault: {fault: loss, delay: 5ms}\n  - chaos: {}\n", "s.yaml"))
        .hasMessageContaining("loss needs loss");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts + "  - fault: {fault: kill, delay: 5ms}\n  - chaos: {}\n", "s.yaml"))
        .hasMessageContaining("are for latency and loss faults, not kill");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts + "  - fault: {fault: latency, delay: soon}\n  - chaos: {}\n", "s.yaml"))
        .hasMessageContaining("'soon' is not a delay like 50ms");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts
                        + "  - fault: {fault: latency, delay: 5ms, target: 'dc=east<->dc=north'}\n"
                        + "  - chaos: {}\n",
                    "s.yaml"))
        .hasMessageContaining("target 'dc=north': no host has that label");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts + "  - fault: {fault: partition, target: 'a<->b'}\n  - chaos: {}\n",
                    "s.yaml"))
        .hasMessageContaining("a link target (A<->B) is for latency and loss");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts + "  - fault: {fault: monkey, faults: [kill, latency]}\n  - chaos: {}\n",
                    "s.yaml"))
        .hasMessageContaining("a monkey that draws latency needs delay");
    String local = "cluster: {collections: [{name: c}]}\nsteps:\n";
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    local + "  - fault: {fault: latency, delay: 5ms, target: x}\n  - chaos: {}\n",
                    "s.yaml"))
        .hasMessageContaining("latency needs a cluster on hosts");
  }

  @Test
  void limitsStepsChangeOnlyWhatTheHostsHaveAndSayHow() {
    String hosts =
        "cluster: {hosts: [{ssh: a, memory: 2g}, {ssh: b}], collections: [{name: c}]}\nsteps:\n";
    StepSpec.Limits l =
        (StepSpec.Limits)
            ScenarioLoader.parse(
                    hosts + "  - limits: {hosts: a, page_cache: 100m, thp: never, swap: 64m}\n",
                    "s.yaml")
                .base()
                .steps()
                .get(0);
    assertThat(l.hosts()).containsExactly("a");
    assertThat(
            ScenarioLoader.parse(hosts + "  - limits: {read_iops: 0}\n", "s.yaml").base().steps())
        .hasSize(1); // 0: no throttle, which every host can have
    assertThat(l.swapBytes()).isEqualTo(64L << 20);
    assertThat(
            ScenarioLoader.parse(hosts + "  - limits: {thp: always, swap: off}\n", "s.yaml")
                .base()
                .steps())
        .singleElement()
        .satisfies(s -> assertThat(((StepSpec.Limits) s).swapBytes()).isZero());
    assertThatThrownBy(() -> ScenarioLoader.parse(hosts + "  - limits: {}\n", "s.yaml"))
        .hasMessageContaining("changes memory, page_cache, thp, swap or read_iops");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(hosts + "  - limits: {read_iops: 100}\n", "s.yaml"))
        .hasMessageContaining("host b runs the cluster's nodes in no cgroup of their own");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(hosts + "  - limits: {hosts: a, read_iops: -1}\n", "s.yaml"))
        .hasMessageContaining("read_iops");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(hosts + "  - limits: {page_cache: 100m}\n", "s.yaml"))
        .hasMessageContaining("host b gives the cluster's nodes no memory limit to change")
        .hasMessageContaining("{ssh: b, memory: 8g}");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    hosts + "  - limits: {hosts: a, memory: 1g, page_cache: 1g}\n", "s.yaml"))
        .hasMessageContaining("not both");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(hosts + "  - limits: {hosts: a, memory: lots}\n", "s.yaml"))
        .hasMessageContaining("memory 'lots' is not a size like 100m or 2g");
    assertThatThrownBy(() -> ScenarioLoader.parse(hosts + "  - limits: {thp: big}\n", "s.yaml"))
        .hasMessageContaining("thp 'big' is not always or madvise or never");
    assertThatThrownBy(() -> ScenarioLoader.parse(hosts + "  - limits: {swap: 4k}\n", "s.yaml"))
        .hasMessageContaining("swap '4k' is not off or a size of at least 1m");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(hosts + "  - limits: {hosts: z, thp: never}\n", "s.yaml"))
        .hasMessageContaining("'z' is no host of this cluster; give some of a, b");
    String local = "cluster: {collections: [{name: c}]}\nsteps:\n";
    assertThatThrownBy(() -> ScenarioLoader.parse(local + "  - limits: {thp: never}\n", "s.yaml"))
        .hasMessageContaining("this cluster runs on this machine");
    assertThatThrownBy(() -> ScenarioLoader.parse(local + "  - cached: {}\n", "s.yaml"))
        .hasMessageContaining("a cached step reads the page cache of the cluster's hosts");
    assertThatThrownBy(
            () -> ScenarioLoader.parse(hosts + "  - cached: {collection: x}\n", "s.yaml"))
        .hasMessageContaining("x");
    assertThat(
            ScenarioLoader.parse(
                    hosts
                        + "  - limits: {name: m, hosts: a, page_cache: 100m}\n"
                        + "matrix:\n  limits.m.page_cache: [4g, 100m]\n",
                    "s.yaml")
                .combinations())
        .hasSize(2);
  }

  @Test
  void theShippedScenariosLoad() throws Exception {
    try (var files = Files.list(Path.of("../scenarios"))) {
      List<Path> yamls = files.filter(f -> f.toString().endsWith(".yaml")).toList();
      assertThat(yamls)
          .extracting(f -> f.getFileName().toString())
          .contains(
              "quick.yaml",
              "scaling-solr.yaml",
              "facet-drop.yaml",
              "chaos.yaml",
              "ram-cliff.yaml",
              "cross-dc.yaml",
              "lost-writes.yaml",
              "upgrade.yaml");
      for (Path f : yamls) {
        assertThat(ScenarioLoader.load(f).combinations()).as(f.toString()).isNotEmpty();
      }
      // the lost-write study: 4 versions x 2 replica types x 3 batch sizes x 2 min_rf, version
      // slowest (Solr 10.0.0 last)
      List<ScenarioLoader.Combination> lw =
          ScenarioLoader.load(Path.of("../scenarios/lost-writes.yaml")).combinations();
      assertThat(lw).hasSize(48);
      assertThat(lw.get(47).spec().cluster().solrVersion()).isEqualTo("10.0.0");
      assertThat(lw.get(0).spec().cluster().solrVersion()).isEqualTo("9.8.1");
      // the upgrade: the versions side by side, everything else alike, each bench one kind
      List<ScenarioLoader.Combination> up =
          ScenarioLoader.load(Path.of("../scenarios/upgrade.yaml")).combinations();
      assertThat(up)
          .extracting(c -> c.spec().cluster().solrVersion())
          .containsExactly("9.10.1", "10.0.0");
      assertThat(up.get(0).spec().repeat()).isEqualTo(4);
      assertThat(up.get(0).spec().order()).isEqualTo(ScenarioSpec.BY_ROUND);
      assertThat(
              up.get(0).spec().steps().stream()
                  .filter(s -> s instanceof StepSpec.Bench b && b.templates() != null)
                  .map(s -> ((StepSpec.Bench) s).templates().get(0)))
          .containsExactly("term", "phrase", "facet", "sort");
    }
  }

  @Test
  void cacheSizesAreSweptThroughTheNodesJvmArguments() {
    String text =
        SCENARIO.replace(
            "  cluster.nodes: [1, 2]\n  collection.shards: [1, 2]\n  bench.cold.threads: [2, 4, 8]",
            "  cluster.jvm_args: [[-Dsolr.filterCache.size=128], [-Dsolr.filterCache.size=4096]]");
    List<ScenarioLoader.Combination> cs = ScenarioLoader.parse(text, "s.yaml").combinations();
    assertThat(cs).hasSize(2);
    assertThat(cs.get(1).spec().cluster().jvmArgs())
        .containsExactly("-Dsolr.filterCache.size=4096");
    assertThat(ScenarioLoader.sameTopology(cs.get(0).spec(), cs.get(1).spec())).isFalse();
  }

  @Test
  void aCapacityStepIsCheckedBeforeAnythingRuns() {
    String ok = "  - capacity: {name: cap, collection: items, slo: 'p99<100ms', target: 'rate=50'}";
    String text =
        BASE.replace("  - bench: {name: q, collection: items, threads: 2, duration: 10s}", ok)
            .replace("  bench.threads: [1, 2]", "  capacity.cap.start_rate: [10, 20]");
    assertThat(ScenarioLoader.parse(text, "s.yaml").combinations()).hasSize(2);
    assertThat(error(text.replace("slo: 'p99<100ms', ", "")))
        .contains("capacity step 'cap' needs an slo, e.g. slo: 'p99<200ms,errors<0.1%'");
    assertThat(error(text.replace("p99<100ms", "p98<100ms")))
        .startsWith("s.yaml:10:")
        .contains("slo 'p98<100ms': 'p98<100ms' is not a bound");
    // the step's slo goes through the same checks as --slo: empty and repeated terms are refused
    assertThat(error(text.replace("p99<100ms", "p99<100ms,,")))
        .startsWith("s.yaml:10:")
        .contains("slo 'p99<100ms,,' has an empty term");
    assertThat(error(text.replace("p99<100ms", "p99<100ms,p99<80ms")))
        .contains("slo 'p99<100ms,p99<80ms' bounds p99 twice");
    assertThat(error(text.replace("rate=50", "fifty")))
        .contains("target 'fifty' names no rate; give e.g. 'rate=500,p99<200ms'");
    assertThat(error(text.replace("[10, 20]", "[10, 0]")))
        .contains("start_rate must be above 0, e.g. 10");
  }

  /** A small valid scenario; each test plants one mistake in it. */
  static final String BASE =
      String.join(
          "\n",
          "name: planted", // 1
          "cluster:", // 2
          "  nodes: 2", // 3
          "  collections: [{name: items, shards: 2}]", // 4
          "data:", // 5
          "  synth: {docs: 500}", // 6
          "  derive_queries: {count: 20}", // 7
          "steps:", // 8
          "  - index: {collection: items}", // 9
          "  - bench: {name: q, collection: items, threads: 2, duration: 10s}", // 10
          "matrix:", // 11
          "  bench.threads: [1, 2]", // 12
          "");

  static String error(String text) {
    try {
      ScenarioLoader.parse(text, "s.yaml");
    } catch (SolrscaleException e) {
      assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
      assertThat(e.getMessage())
          .doesNotContain("\n")
          .doesNotContain("org.solrscale")
          .doesNotContain("class ");
      return e.getMessage();
    }
    throw new AssertionError("no error for:\n" + text);
  }

  @Test
  void aMatrixSweepsTheDriversOfABenchStep() {
    List<ScenarioLoader.Combination> combos =
        ScenarioLoader.parse(
                BASE.replace("bench.threads: [1, 2]", "bench.drivers: [[h3], [h3, h4]]"), "s.yaml")
            .combinations();
    assertThat(combos)
        .extracting(c -> ((StepSpec.Bench) c.spec().steps().get(1)).drivers())
        .containsExactly(List.of("h3"), List.of("h3", "h4"));
  }

  @Test
  void theValidScenarioLoads() {
    assertThat(ScenarioLoader.parse(BASE, "s.yaml").combinations()).hasSize(2);
  }

  @Test
  void anUnknownKeyAtAnyDepthIsPlacedWithTheKnownKeys() {
    assertThat(error(BASE.replace("{count: 20}", "{count: 20, facets_fields: [a_s]}")))
        .startsWith("s.yaml:7:31: unknown key 'facets_fields'")
        .contains("facet_fields", "facet_limit");
    assertThat(error(BASE.replace("{docs: 500}", "{docs: 500, vocab: 10}")))
        .startsWith("s.yaml:6:22: unknown key 'vocab' at data.synth")
        .contains("vocabulary");
    assertThat(error(BASE.replace("threads: 2, duration", "thread: 2, duration")))
        .startsWith("s.yaml:10:41: unknown key 'thread'")
        .contains("threads");
    assertThat(error(BASE.replace("  - index:", "  - indexx:")))
        .isEqualTo(
            "s.yaml:9:5: 'indexx' is not a kind of step at steps[0]; use one of bench, cached, capacity, chaos, collection, "
                + "distribute, fault, index, limits, restart, wait");
  }

  @Test
  void aBadValueIsPlacedAtItsKeyBeforeAnythingStarts() {
    assertThat(error(BASE.replace("duration: 10s", "duration: ten")))
        .isEqualTo("s.yaml:10:53: bench step 'q': 'ten' is not a duration like 90s, 5m or 500ms");
    String noMatrix = BASE.substring(0, BASE.indexOf("matrix:"));
    assertThat(error(noMatrix.replace("threads: 2, duration: 10s", "rate: fast, duration: 10s")))
        .startsWith("s.yaml:10:41: bench step 'q': rate 'fast' is not a number");
    assertThat(error(BASE.replace("duration: 10s", "duration: 10s, max_error_rate: lots")))
        .startsWith("s.yaml:10:68: bench step 'q': max error rate 'lots'");
    assertThat(error(BASE.replace("duration: 10s", "duration: 10s, routing: 'node:solr5'")))
        .contains("routing 'node:solr5' names no Solr node of this cluster; it has solr1, solr2");
    assertThat(
            error(BASE.replace("  - index: {collection: items}", "  - restart: {nodes: [solr3]}")))
        .startsWith("s.yaml:9:15: restart step 'restart': 'solr3' is no Solr node");
    assertThat(error(BASE.replace("  - index: {collection: items}", "  - wait: soon")))
        .startsWith("s.yaml:9:5: wait step 'wait': 'soon' is not a duration");
    assertThat(error(BASE.replace("duration: 10s", "requests: 100, drivers: [h1, h2]")))
        .contains("bench step 'q': drivers run for a time; give duration and warmup, not requests");
    assertThat(error(BASE.replace("threads: 2, duration: 10s", "threads: 1, drivers: [h1, h2]")))
        .contains("bench step 'q': threads 1 are fewer than its 2 drivers");
    assertThat(error(BASE.replace("duration: 10s", "duration: 10s, drivers: [h1, h1]")))
        .contains("bench step 'q': a host is listed twice in drivers");
  }

  @Test
  void aMatrixValueThatBreaksARuleIsPlacedAtThatValue() {
    assertThat(error(BASE.replace("bench.threads: [1, 2]", "bench.duration: [10s, ten]")))
        .isEqualTo(
            "s.yaml:12:25: matrix bench.duration=ten: bench step 'q': 'ten' is not a duration like 90s, 5m or 500ms");
    assertThat(error(BASE.replace("bench.threads: [1, 2]", "bench.threads: [1, two]")))
        .startsWith("s.yaml:12:22: matrix key 'bench.threads', value two: not a valid value there");
  }

  @Test
  void aMatrixKeyThatLeadsNowhereIsNamedWithTheKeysThereAre() {
    assertThat(error(BASE.replace("bench.threads", "bench.thread")))
        .startsWith(
            "s.yaml:12:3: matrix key 'bench.thread' leads to no setting: 'thread' is not a key there")
        .contains("threads", "rate");
    assertThat(error(BASE.replace("bench.threads", "cluster.zookeper.servers")))
        .startsWith(
            "s.yaml:12:3: matrix key 'cluster.zookeper.servers' leads to no setting: 'zookeper'");
    assertThat(error(BASE.replace("bench.threads", "chaos.write_rate")))
        .isEqualTo("s.yaml:12:3: matrix key 'chaos.write_rate' matches no chaos step");
    // fault and chaos steps take the KIND.KEY shorthand as docs/scenarios.md says
    String faults =
        BASE.replace(
                "  - bench:",
                "  - fault: {fault: kill, at: 2s}\n  - chaos: {duration: 10s}\n  - bench:")
            .replace("bench.threads: [1, 2]", "fault.at: [1s, 3s]\n  chaos.write_rate: [50, 100]");
    assertThat(ScenarioLoader.parse(faults, "s.yaml").combinations()).hasSize(4);
  }

  @Test
  void aStepOnACollectionThatWillNotExistIsRefused() {
    assertThat(error(BASE.replace("collection: items, threads", "collection: itemz, threads")))
        .startsWith(
            "s.yaml:10:22: bench step 'q': there is no collection 'itemz' when it runs; there are items");
    // one a collection step creates, and one it deleted
    String made =
        BASE.replace(
            "  - index: {collection: items}",
            "  - collection: {action: create, collection: more, shards: 1}\n  - index: {collection: more}");
    assertThat(ScenarioLoader.parse(made, "s.yaml").combinations()).hasSize(2);
    String gone =
        BASE.replace(
            "  - index: {collection: items}",
            "  - index: {collection: items}\n  - collection: {action: delete, collection: items}");
    assertThat(error(gone)).contains("bench step 'q': there is no collection 'items' when it runs");
    assertThat(
            error(
                BASE.replace(
                    "  - index: {collection: items}",
                    "  - fault: {fault: kill, target: 'leader-of:shard3'}")))
        .contains("target 'leader-of:shard3' names no shard");
  }

  @Test
  void aSyntaxErrorSaysWhatWasExpectedAndWhatWasFound() {
    String bad =
        BASE.replace(
            "  collections: [{name: items, shards: 2}]",
            " collections: [{name: items, shards: 2}]");
    assertThat(error(bad))
        .startsWith(
            "s.yaml:4:2: YAML syntax: expected the end of the indented block, but found "
                + "a key indented differently from the keys before it")
        .contains("line 1, column 1", "indentation");
    assertThat(error(BASE.replace("name: planted", "name: a: b")))
        .startsWith("s.yaml:1:8: YAML syntax: a second ':'");
    assertThat(error(BASE.replace("  nodes: 2", "\tnodes: 2")))
        .contains("YAML syntax: a tab character");
  }

  @Test
  void againstACloudOfSomeoneElsesStepsAndKeysThatNeedOursAreRefused() {
    Function<String, String> external =
        text -> {
          try {
            ScenarioLoader.parse(text, "s.yaml", true);
          } catch (SolrscaleException e) {
            return e.getMessage();
          }
          return "";
        };
    String noMatrix = BASE.substring(0, BASE.indexOf("matrix:"));
    assertThat(external.apply(noMatrix)).isEmpty();
    assertThat(
            external.apply(
                noMatrix.replace("  - index: {collection: items}", "  - restart: {nodes: [all]}")))
        .startsWith("s.yaml:9:5: restart step 'restart' needs a cluster solrscale started");
    assertThat(
            external.apply(
                noMatrix.replace(
                    "  - index: {collection: items}",
                    "  - collection: {action: delete, collection: items}")))
        .contains("does not create or delete collections");
    assertThat(external.apply(BASE.replace("bench.threads", "cluster.nodes")))
        .startsWith("s.yaml:12:3: matrix key 'cluster.nodes' changes what solrscale deploys");
    assertThat(external.apply(BASE)).isEmpty(); // a step setting may be swept
    // the collections are only known at run time: no step is refused for one
    assertThat(
            external.apply(
                noMatrix.replace("collection: items, threads", "collection: theirs, threads")))
        .isEmpty();
    assertThat(
            external.apply(
                noMatrix.replace("duration: 10s", "duration: 10s, routing: 'node:solr1'")))
        .contains("a node is named by its URL, node:http://HOST:PORT/solr");
  }
}
