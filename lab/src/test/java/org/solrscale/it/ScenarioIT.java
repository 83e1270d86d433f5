package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.NodeState;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Await;

/** `run` of a small sweep against real clusters: results, cluster reuse and rebuild, resume. */
class ScenarioIT {
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aSweepRunsEveryCombinationRecordsItAndResumes(@TempDir Path dir) throws Exception {
    Path scenario = dir.resolve("sweep.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-sweep",
            "cluster:",
            "  nodes: 1",
            "  heap: 384m",
            "  collections: [{name: docs, shards: 1}]",
            "data:",
            "  synth: {docs: 6000}",
            "  derive_queries: {count: 100}",
            "steps:",
            "  - index: {collection: docs}",
            "  - bench: {name: q, collection: docs, threads: 1, warmup: 1s, requests: 100}",
            // one query kind, as data queries tags them
            "  - bench: {name: phrase, collection: docs, templates: phrase, threads: 1,"
                + " warmup: 0s, duration: 3s}",
            "matrix:",
            "  cluster.solr_version: ['9.8.1', '9.10.1']", // two versions, a cluster each
            "  data.synth.docs: [6000, 6500]", // each combination indexes its own corpus
            ""));
    Path out = dir.resolve("run");
    Cli.Result r = Cli.run("run", scenario.toString(), "--out", out.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).contains("combination 4 of 4");
    assertThat(out.resolve("data/c002/corpus.jsonl")).exists(); // the matrix's own data
    assertThat(out.resolve("data/c003")).doesNotExist(); // the scenario's data, in data/
    JsonNode results = JSON.readTree(out.resolve("results.json").toFile());
    assertThat(results.get("combinations")).hasSize(4);
    for (JsonNode c : results.get("combinations")) {
      assertThat(c.get("status").asText()).isEqualTo("done");
      JsonNode index = c.get("steps").get(0).get("summary");
      assertThat(index.get("verified").asBoolean())
          .isTrue(); // collections were made afresh on reuse
      assertThat(index.get("accepted").asLong())
          .isEqualTo(c.get("params").get("data.synth.docs").asLong());
      // an index step counts its CPU as the index command does: this process and the Solr node
      assertThat(index.get("cpu").get("client_s").asDouble()).isPositive();
      assertThat(index.get("cpu").get("solr_s")).hasSize(1);
      JsonNode bench = c.get("steps").get(1).get("summary");
      assertThat(bench.get("count").asLong()).isBetween(100L, 102L);
      Path benchDir = out.resolve(c.get("steps").get(1).get("dir").asText());
      assertThat(Files.isRegularFile(benchDir.resolve("latency.hlog"))).isTrue();
      assertThat(Files.readAllLines(benchDir.resolve("telemetry.csv")).size()).isGreaterThan(2);
      JsonNode solr1 = c.get("steps").get(1).get("telemetry").get("solr1");
      assertThat(solr1.get("heap_used_max_mb").asDouble()).isPositive();
      assertThat(solr1.has("cpu_percent")).isTrue();
      JsonNode zk1 = c.get("steps").get(1).get("telemetry").get("zk1");
      assertThat(zk1.has("zk_avg_latency_ms")).isTrue();
      // a single server: standalone, serving throughout, never a leader
      assertThat(zk1.get("zk_not_serving_s").asDouble()).isZero();
      assertThat(zk1.get("zk_leading_share").asDouble()).isZero();
    }
    assertThat(
            results.get("combinations").get(3).get("params").get("cluster.solr_version").asText())
        .isEqualTo("9.10.1");
    assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(9); // a row per bench step
    JsonNode env = JSON.readTree(out.resolve("environment.json").toFile());
    assertThat(env.get("cores").asInt()).isPositive();
    assertThat(env.get("nodes").size()).isPositive();
    // each repeat says where it ran: this machine's boot (Linux's own id), this revision
    String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
    for (JsonNode c : results.get("combinations")) {
      JsonNode ranOn = c.get("ran_on");
      assertThat(ranOn.get("boot_id").asText()).isEqualTo(boot);
      assertThat(ranOn.get("git_revision").asText()).isEqualTo(env.get("git_revision").asText());
      assertThat(ranOn.get("cpu_score").asDouble()).isPositive();
    }
    for (JsonNode c : results.get("combinations")) {
      // the mixed bench reports each kind apart; the phrase bench sent phrases only
      JsonNode q = c.get("steps").get(1).get("summary").get("templates");
      List<String> kinds = new ArrayList<>();
      q.forEach(t -> kinds.add(t.get("template").asText()));
      assertThat(kinds)
          .hasSizeGreaterThan(2)
          .isSubsetOf("term", "and", "or", "phrase", "filter", "sort", "facet");
      JsonNode phrase = c.get("steps").get(2).get("summary");
      assertThat(phrase.get("templates")).hasSize(1);
      assertThat(phrase.get("templates").get(0).get("template").asText()).isEqualTo("phrase");
      assertThat(phrase.get("templates").get(0).get("count").asLong())
          .isEqualTo(phrase.get("count").asLong())
          .isPositive();
      // the load's progress, for compare: it ends at what the index step accepted
      List<String> progress =
          Files.readAllLines(
              out.resolve(c.get("steps").get(0).get("dir").asText()).resolve("index-progress.csv"));
      assertThat(progress.get(progress.size() - 1))
          .endsWith("," + c.get("steps").get(0).get("summary").get("accepted").asLong());
    }
    // the versions side by side: combinations equal but for the version, 9.8.1 the baseline
    Cli.Result by = Cli.run("compare", out.toString(), "--by", "solr_version", "--json");
    assertThat(by.exitCode()).as(by.err()).isZero();
    JsonNode cmp = JSON.readTree(by.out());
    assertThat(cmp.get("a").asText()).endsWith("solr_version=9.8.1");
    assertThat(cmp.get("b").asText()).endsWith("solr_version=9.10.1");
    assertThat(cmp.get("warnings")).isEmpty(); // all on one boot
    List<String> judged = new ArrayList<>();
    for (JsonNode d : cmp.get("steps")) {
      judged.add(
          d.get("label").asText()
              + " | "
              + d.get("step").asText()
              + " | "
              + d.get("a").asText().replaceAll(".*#", "")
              + "-"
              + d.get("b").asText().replaceAll(".*#", ""));
    }
    // indexing is judged when a load lasted whole seconds (per-second values on both sides)
    assertThat(judged.stream().filter(j -> j.contains("| index |")))
        .allMatch(j -> j.endsWith("c001-c003") || j.endsWith("c002-c004"));
    judged.removeIf(j -> j.contains("| index |"));
    assertThat(judged)
        .containsExactly(
            "docs=6000: solr_version=9.8.1 vs 9.10.1 | q | c001-c003",
            "docs=6000: solr_version=9.8.1 vs 9.10.1 | phrase | c001-c003",
            "docs=6500: solr_version=9.8.1 vs 9.10.1 | q | c002-c004",
            "docs=6500: solr_version=9.8.1 vs 9.10.1 | phrase | c002-c004");
    JsonNode phraseQps = null;
    for (JsonNode d : cmp.get("steps")) {
      if (d.get("step").asText().equals("phrase")) {
        phraseQps = d.get("metrics").get(0);
      }
    }
    assertThat(phraseQps.get("metric").asText()).isEqualTo("achieved QPS");
    assertThat(phraseQps.get("a").asDouble()).isPositive();
    assertThat(phraseQps.get("b").asDouble()).isPositive();
    assertThat(Files.readString(out.resolve("report.html")))
        .contains("Versions side by side")
        .contains("solr_version=9.8.1 vs 9.10.1");
    Cli.Result notSwept = Cli.run("compare", out.toString(), "--by", "heap");
    assertThat(notSwept.exitCode()).isEqualTo(2);
    assertThat(notSwept.err().strip())
        .isEqualTo(
            "solrscale: "
                + out
                + " does not sweep heap; it sweeps cluster.solr_version, data.synth.docs");
    // the cluster is gone at the end
    assertThat(new Cluster(SolrscaleHome.fromEnvironment(), "scn-it-sweep", s -> {}).state())
        .isEmpty();

    // resume: forget the last combination, run again: only it runs
    ArrayNode combos = (ArrayNode) results.get("combinations");
    combos.remove(3);
    JSON.writeValue(out.resolve("results.json").toFile(), results);
    // a comment added since is the same scenario
    Files.writeString(scenario, "# resumed\n" + Files.readString(scenario));
    Cli.Result again = Cli.run("run", scenario.toString(), "--out", out.toString());
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("1 of 4 combination repeats ran now, 3 were already done");
    assertThat(JSON.readTree(out.resolve("results.json").toFile()).get("combinations")).hasSize(4);
  }

  @Test
  void restartAndCollectionStepsChangeTheRealCluster(@TempDir Path dir) throws Exception {
    Path scenario = dir.resolve("ops.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-ops",
            "cluster:",
            "  nodes: 2",
            "  heap: 384m",
            "  collections: [{name: docs, shards: 1}]",
            "data:",
            "  synth: {docs: 1000}",
            "  derive_queries: {count: 50}",
            "steps:",
            "  - index: {collection: docs}",
            "  - restart: {nodes: [solr1]}",
            "  - collection: {name: more, action: add-replica, collection: docs, shard: shard1}",
            "  - collection: {name: split, action: split-shard, collection: docs, shard: shard1}",
            "  - collection: {name: extra, action: create, collection: extra, shards: 2}",
            "  - collection: {name: gone, action: delete, collection: extra}",
            "  - wait: 1s",
            "  - bench: {name: after, collection: docs, threads: 1, warmup: 0s, requests: 50}",
            ""));
    Cli.Result r = Cli.run("run", scenario.toString(), "--out", dir.resolve("run").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode steps =
        JSON.readTree(dir.resolve("run/results.json").toFile())
            .get("combinations")
            .get(0)
            .get("steps");
    assertThat(steps.get(1).get("summary").get("restarted").get(0).asText()).isEqualTo("solr1");
    assertThat(steps.get(2).get("summary").get("replicas").asInt()).isEqualTo(2);
    assertThat(steps.get(3).get("summary").get("active_shards").asInt()).isEqualTo(2);
    assertThat(steps.get(4).get("summary").get("active_shards").asInt()).isEqualTo(2);
    assertThat(steps.get(5).get("summary").has("active_shards")).isFalse(); // deleted
    JsonNode bench = steps.get(7).get("summary");
    assertThat(bench.get("count").asLong()).isEqualTo(50);
    assertThat(bench.get("errors").get("total").asLong())
        .isZero(); // the split collection still answers
    assertThat(new Cluster(SolrscaleHome.fromEnvironment(), "scn-it-ops", s -> {}).state())
        .isEmpty();
  }

  /**
   * A node frozen beyond its ZooKeeper session timeout loses its session. The step's telemetry
   * counts the expiry from both logs; ZooKeeper's own data is the independent count: the sessions
   * that owned each node's live_nodes entry while the run went on, polled here.
   */
  @Test
  void expiredZooKeeperSessionsAreCountedFromBothSidesAsZooKeeperSawThem(@TempDir Path dir)
      throws Exception {
    Path scenario = dir.resolve("sessions.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-sessions",
            "cluster:",
            "  nodes: 2",
            "  heap: 384m",
            // the least ZooKeeper allows at its tickTime of 2 s
            "  jvm_args: ['-DzkClientTimeout=4000']",
            "  collections: [{name: c, shards: 1, replicas: 2}]",
            "data:",
            "  synth: {docs: 500}",
            "  derive_queries: {count: 20}",
            "steps:",
            "  - index: {collection: c}",
            "  - fault: {name: freeze, fault: pause, target: solr2, at: 3s, duration: 12s}",
            "  - bench: {name: during, collection: c, rate: 5, warmup: 0s, duration: 25s}",
            ""));
    Cluster cluster = new Cluster(SolrscaleHome.fromEnvironment(), "scn-it-sessions", s -> {});
    Map<String, Set<Long>> owners = new ConcurrentHashMap<>();
    AtomicBoolean running = new AtomicBoolean(true);
    Thread watcher = new Thread(() -> watchLiveNodes(cluster, owners, running));
    watcher.start();
    Path out = dir.resolve("run");
    Cli.Result r;
    try {
      r = Cli.run("run", scenario.toString(), "--out", out.toString());
    } finally {
      running.set(false);
      watcher.join();
    }
    JsonNode steps =
        JSON.readTree(out.resolve("results.json").toFile()).get("combinations").get(0).get("steps");
    JsonNode telemetry = steps.get(1).get("telemetry");
    // ZooKeeper's word: solr2's live node changed owner once (its session expired), solr1's never
    assertThat(owners.get("solr1")).as(owners.toString()).hasSize(1);
    assertThat(owners.get("solr2")).as(owners.toString()).hasSize(2);
    assertThat(telemetry.get("solr2").get("zk_session_expired").asInt())
        .as(telemetry.toString())
        .isEqualTo(1);
    assertThat(telemetry.get("solr1").get("zk_session_expired").asInt()).isZero();
    assertThat(telemetry.get("zk1").get("zk_sessions_expired").asInt()).isEqualTo(1);
    // and the session ZooKeeper expired is the one that owned solr2's entry first
    long first = owners.get("solr2").iterator().next();
    assertThat(Files.readString(out.resolve("logs/cluster-1/zk1/zookeeper.log")))
        .contains("Expiring session 0x" + Long.toHexString(first) + ",");
    // the index step, before the freeze, counted none
    assertThat(steps.get(0).get("telemetry").get("solr2").get("zk_session_expired").asInt())
        .isZero();
    assertThat(r.exitCode()).as(r.err()).isIn(0, 1); // requests to the frozen node may fail
  }

  /**
   * Every 250 ms while the run goes on: the session that owns each Solr node's live_nodes entry (in
   * the order first seen), read from the cluster's ZooKeeper.
   */
  private static void watchLiveNodes(
      Cluster cluster, Map<String, Set<Long>> owners, AtomicBoolean running) {
    ZooKeeper zk = null;
    try {
      while (running.get()) {
        Optional<ClusterState> state = cluster.state();
        if (state.isPresent() && zk == null) {
          zk = new ZooKeeper(state.get().zkHost(), 30_000, e -> {});
        }
        if (zk != null) {
          for (NodeState n : state.get().solrNodes()) {
            try {
              Stat stat = zk.exists("/live_nodes/" + n.solrNodeName(), false);
              if (stat != null) {
                owners
                    .computeIfAbsent(n.id(), k -> new LinkedHashSet<>())
                    .add(stat.getEphemeralOwner());
              }
            } catch (KeeperException e) {
              // not connected yet, or between sessions: the next poll sees it
            }
          }
        }
        // a sampling rate, not a wait: every owner an entry has during the run must be seen, and
        // the run's own end (not an event here) ends the sampling
        Thread.sleep(250);
      }
    } catch (InterruptedException | IOException e) {
      throw new IllegalStateException(e);
    } finally {
      if (zk != null) {
        try {
          zk.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @Test
  void faultStepsRunAlongsideBenchAndChaosStepsAndTheReportShowsThem(@TempDir Path dir)
      throws Exception {
    Path scenario = dir.resolve("faults.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-faults",
            "cluster:",
            "  nodes: 2",
            "  heap: 384m",
            "  collections: [{name: c, shards: 1, replicas: 2}]",
            "data:",
            "  synth: {docs: 1000}",
            "  derive_queries: {count: 50}",
            "steps:",
            "  - index: {collection: c}",
            "  - fault: {name: freeze, fault: pause, target: solr2, at: 2s, duration: 2s}",
            "  - bench: {name: during, collection: c, rate: 20, warmup: 0s, duration: 8s,"
                + " profile: true}",
            "  - fault: {name: graceful, fault: stop, target: 'leader-of:shard1', at: 2s, duration: 4s}",
            // with one of two nodes down, no node may be taken down: the safety rules refuse it
            "  - fault: {name: refused, fault: kill, target: random, at: 4s, duration: 2s}",
            "  - chaos: {collection: c, duration: 10s, after: 2s, write_rate: 50, query_rate: 10,"
                + " profile: true}",
            ""));
    Path out = dir.resolve("run");
    Cli.Result r = Cli.run("run", scenario.toString(), "--out", out.toString());
    // the refused fault made the chaos step no test: the step and its repeat failed, exit 1
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    JsonNode combination =
        JSON.readTree(out.resolve("results.json").toFile()).get("combinations").get(0);
    assertThat(combination.get("status").asText()).isEqualTo("failed");
    JsonNode steps = combination.get("steps");
    assertThat(steps)
        .extracting(s -> s.get("kind").asText())
        .containsExactly("index", "bench", "chaos");
    JsonNode benchFaults =
        JSON.readTree(
            out.resolve(steps.get(1).get("dir").asText()).resolve("faults.json").toFile());
    assertThat(benchFaults.get(0).get("nodes").get(0).asText()).isEqualTo("solr2");
    assertThat(benchFaults.get(0).get("start_s").asDouble()).isBetween(1.9, 3.5);
    assertThat(
            benchFaults.get(0).get("heal_s").asDouble()
                - benchFaults.get(0).get("start_s").asDouble())
        .isBetween(1.9, 3.5);
    JsonNode v = steps.get(2).get("summary");
    assertThat(v.get("ok").asBoolean()).as(v.toString()).isFalse();
    assertThat(v.get("verdict").asText()).as(v.toString()).isEqualTo("not tested");
    assertThat(v.get("not_tested")).hasSize(1);
    assertThat(v.get("not_tested").get(0).asText())
        .startsWith("fault 'refused' (kill random) was not injected: refused by a safety rule:")
        .endsWith("or set unsafe: true");
    assertThat(steps.get(2).get("status").asText()).isEqualTo("failed");
    assertThat(v.get("lost").asLong()).isZero();
    assertThat(v.get("acknowledged").asLong()).isPositive();
    JsonNode faults = v.get("faults");
    assertThat(faults).hasSize(2);
    assertThat(faults.get(0).get("fault").get("fault").asText()).isEqualTo("stop");
    assertThat(faults.get(0).get("fault").get("recovery_seconds").asDouble()).isPositive();
    assertThat(faults.get(1).get("fault").get("note").asText())
        .contains("can be taken down safely");
    assertThat(faults.get(1).get("fault").has("start_s")).isFalse();
    // profiled: both nodes through the bench; through chaos only the node that was not stopped
    Path benchDir = out.resolve(steps.get(1).get("dir").asText());
    assertThat(benchDir.resolve("profile/solr1.jfr")).isRegularFile();
    assertThat(benchDir.resolve("profile/solr2.jfr")).isRegularFile();
    JsonNode chaosDiagnosis =
        JSON.readTree(
            out.resolve(steps.get(2).get("dir").asText())
                .resolve("profile/diagnosis.json")
                .toFile());
    assertThat(chaosDiagnosis.get("nodes")).hasSize(1);
    assertThat(chaosDiagnosis.get("findings").toString())
        .contains("stopped or restarted during the step: its recording was lost");
    assertThat(out.resolve("doctor.json")).isRegularFile();
    Cli.Result report = Cli.run("report", out.toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    // the report shows the verdict and why; the failed repeat's profiles stay out of its findings
    // (as every figure of a failed repeat does), their files are there
    assertThat(Files.readString(out.resolve("report.html")))
        .contains("Faults and verdicts", "not injected", "not tested: fault &#39;refused&#39;")
        .contains("<h3>Doctor</h3>", "(SOLR-5939)");
    assertThat(benchDir.resolve("profile/diagnosis.json")).isRegularFile();
    assertThat(new Cluster(SolrscaleHome.fromEnvironment(), "scn-it-faults", s -> {}).state())
        .isEmpty();
  }

  @Test
  void aBadScenarioIsOneLineWithItsPlace(@TempDir Path dir) throws Exception {
    Path scenario = dir.resolve("bad.yaml");
    Files.writeString(
        scenario, "name: x\ncluster: {nodes: 1}\nsteps:\n  - bench: {threads: 1, rate: 5}\n");
    Cli.Result r = Cli.run("run", scenario.toString(), "--out", dir.resolve("o").toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("needs exactly one of threads, rate or replay");
  }

  /** A small valid scenario; the tests below plant mistakes in it, or interrupt it. */
  static String scenario(String name, String bench) {
    return String.join(
        "\n",
        "name: " + name,
        "cluster:",
        "  nodes: 1",
        "  heap: 384m",
        "  collections: [{name: items, shards: 1}]",
        "data:",
        "  synth: {docs: 2000}",
        "  derive_queries: {count: 100}",
        "steps:",
        "  - index: {collection: items}",
        "  - bench: {" + bench + "}",
        "");
  }

  @Test
  void aPlantedMistakeStopsTheRunBeforeAnythingStarts(@TempDir Path dir) throws Exception {
    String ok = "name: q, collection: items, threads: 2, warmup: 1s, duration: 5s";
    String[][] planted = {
      {
        scenario("planted", ok).replace("{count: 100}", "{count: 100, cout: 5}"),
        "s.yaml:8:32: unknown key 'cout'"
      },
      {
        scenario("planted", ok.replace("duration: 5s", "duration: ten")),
        "s.yaml:11:65: bench step 'q': 'ten' is not a duration"
      },
      {
        scenario("planted", ok) + "matrix:\n  bench.thread: [1, 2]\n",
        "s.yaml:13:3: matrix key 'bench.thread' leads to no setting"
      },
      {
        scenario("planted", ok.replace("items, threads", "itemz, threads")),
        "s.yaml:11:22: bench step 'q': there is no collection 'itemz'"
      },
      {
        scenario("planted", ok).replace("  collections:", " collections:"),
        "s.yaml:5:2: YAML syntax: expected"
      },
      {
        scenario("planted", ok).replace("{count: 100}", "{count: 100, facet_fields: [colour_s]}"),
        "facet field 'colour_s' is in none of the documents of the synthetic corpus (data.synth)"
      },
    };
    Path clusterDir = SolrscaleHome.fromEnvironment().cluster("scn-planted");
    for (String[] p : planted) {
      Path file = dir.resolve("s.yaml");
      Files.writeString(file, p[0]);
      Path out = dir.resolve("out");
      String cwd = System.getProperty("user.dir");
      Cli.Result r = Cli.run("run", file.toString(), "--out", out.toString());
      assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
      assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
      assertThat(r.err().replace(file.toString(), "s.yaml")).as(cwd).contains(p[1]);
      assertThat(out).doesNotExist();
      assertThat(clusterDir).doesNotExist();
    }
  }

  @Test
  void ctrlCInTheMiddleOfABenchStepRecordsItInterruptedLeavesNoProcessAndAResumeMeasuresItWhole(
      @TempDir Path dir) throws Exception {
    String name = "it-interrupt";
    Path file = dir.resolve("s.yaml");
    Files.writeString(
        file, scenario(name, "name: q, collection: items, threads: 2, warmup: 1s, duration: 8s"));
    Path out = dir.resolve("out");
    Path err = dir.resolve("err.txt");
    // as from a terminal: SIGINT reaches the JVM even when this test runs where it is ignored
    Process p =
        new ProcessBuilder(
                "perl",
                "-e",
                "$SIG{INT} = 'DEFAULT'; exec @ARGV",
                "java",
                "-Dsolrscale.home=" + SolrscaleHome.fromEnvironment().dir(),
                "-jar",
                Path.of("target/solrscale.jar").toAbsolutePath().toString(),
                "run",
                file.toString(),
                "--out",
                out.toString())
            .redirectErrorStream(false)
            .redirectOutput(dir.resolve("out.txt").toFile())
            .redirectError(err.toFile())
            .start();
    List<Long> pids = new ArrayList<>();
    try {
      Await.until(
          "the run reaches its bench step",
          Duration.ofSeconds(240),
          () -> Files.readString(err).contains("step 2 of 2: bench q") || !p.isAlive());
      assertThat(Files.readString(err)).contains("step 2 of 2: bench q");
      JsonNode state =
          JSON.readTree(
              SolrscaleHome.fromEnvironment()
                  .cluster("scn-" + name)
                  .resolve("cluster.json")
                  .toFile());
      state.get("nodes").forEach(n -> pids.add(n.get("pid").asLong()));
      assertThat(pids).hasSize(2).allMatch(x -> x > 0);
      // in the middle of the measured time: a few of its 1 s intervals are in the step's log
      Await.until(
          "3 measured seconds in the bench step's latency.hlog",
          Duration.ofSeconds(60),
          () -> measuredIntervals(out) >= 3 || !p.isAlive());
      assertThat(new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor())
          .isZero();
      assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    String log = Files.readString(err);
    assertThat(p.exitValue()).as(log).isEqualTo(130);
    assertThat(log).doesNotContain("\tat ").doesNotContain("Exception");
    assertThat(log.lines().filter(l -> l.contains("stopped solr1")).count())
        .as(log)
        .isEqualTo(1); // one teardown
    for (long pid : pids) { // the cluster's processes are gone, by the pids it recorded
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("pid " + pid)
          .isFalse();
    }
    assertThat(SolrscaleHome.fromEnvironment().cluster("scn-" + name)).doesNotExist();
    JsonNode c = JSON.readTree(out.resolve("results.json").toFile()).get("combinations").get(0);
    assertThat(c.get("status").asText()).isEqualTo("interrupted");
    assertThat(c.get("reason").asText()).matches("[0-9.]+ s into step 2 \\(bench q\\)");
    assertThat(c.get("steps").get(1).get("status").asText()).isEqualTo("interrupted");
    assertThat(c.get("steps").get(1).has("summary"))
        .isFalse(); // the truncated measurement is no result

    Cli.Result again = Cli.run("run", file.toString(), "--out", out.toString());
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out())
        .contains("1 of 1 combination repeats ran now, 0 were already done", "report:");
    JsonNode done = JSON.readTree(out.resolve("results.json").toFile()).get("combinations");
    assertThat(done).hasSize(1);
    assertThat(done.get(0).get("status").asText()).isEqualTo("done");
    assertThat(done.get(0).get("steps").get(1).get("summary").get("seconds").asDouble())
        .isBetween(7.99, 8.5);
    assertThat(new Cluster(SolrscaleHome.fromEnvironment(), "scn-" + name, s -> {}).state())
        .isEmpty();
  }

  /** How many measured (not warm-up) intervals the latency.hlog files under {@code dir} hold. */
  static long measuredIntervals(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      long n = 0;
      for (Path f : files.filter(f -> f.endsWith("latency.hlog")).toList()) {
        n += Files.readAllLines(f).stream().filter(l -> l.startsWith("Tag=latency,")).count();
      }
      return n;
    }
  }
}
