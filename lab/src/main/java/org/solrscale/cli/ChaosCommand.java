package org.solrscale.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.solrscale.chaos.ChaosRun;
import org.solrscale.chaos.DocTemplate;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.Target;
import org.solrscale.diagnose.Profiler;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.Diagnosis;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.LossVerdict;
import org.solrscale.results.RunResults;
import org.solrscale.spec.FaultKind;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * `solrscale chaos`: one fault during a write and query workload, then the checkers. Exit code 1
 * when an acknowledged write was lost, replicas diverge or the cluster did not recover.
 */
@Command(
    name = "chaos",
    description =
        "Inject a fault while writing and querying, then prove nothing "
            + "acknowledged was lost and the replicas agree.")
final class ChaosCommand implements Callable<Integer> {
  @Mixin SolrTarget cloud;

  @Option(
      names = "--collection",
      required = true,
      description = "Collection to write to and query.")
  String collection;

  @Option(
      names = "--fault",
      required = true,
      completionCandidates = FaultKind.Names.class,
      description =
          "${COMPLETION-CANDIDATES}, or none (the workload and the checks alone; the only "
              + "one for a SolrCloud solrscale did not start, given by --zk or --url: faults stop and start "
              + "nodes by the pids solrscale recorded). What each does: solrscale chaos --help-faults.")
  String fault;

  @Option(
      names = "--help-faults",
      help = true,
      description = "What each fault kind does, then exit.")
  boolean helpFaults;

  @Option(
      names = "--target",
      description =
          "A node id (solr2, zk1), leader-of:shardN, replicas-of:shardN, overseer or random"
              + " (default: random); for partition, bandwidth, link-down, latency and loss a host"
              + " (lab-h2), host-of:NODE or a label (dc=east); for latency and loss also a link"
              + " between two groups (dc=east<->dc=west).")
  String target;

  @Option(
      names = "--duration",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "How long the fault lasts before it is healed (default: ${DEFAULT-VALUE}); the monkey's window.")
  Duration duration;

  @Option(
      names = "--at",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description = "When the fault starts, after the workload did (default: ${DEFAULT-VALUE}).")
  Duration at;

  @Option(
      names = "--after",
      defaultValue = "15s",
      converter = DurationConverter.class,
      description =
          "How long the workload goes on after the fault's duration (default: ${DEFAULT-VALUE}).")
  Duration after;

  @Option(
      names = "--write-rate",
      defaultValue = "200",
      description = "Documents per second, above 0 (default: ${DEFAULT-VALUE}).")
  double writeRate;

  @Option(
      names = "--batch",
      defaultValue = "10",
      description = "Documents per update request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--min-rf",
      paramLabel = "N",
      description =
          "Send min_rf=N with every update and, as a client honouring it does, take an answer"
              + " whose rf is below N as not acknowledged (counted apart, never as lost).")
  Integer minRf;

  @Option(
      names = "--query-rate",
      defaultValue = "10",
      description =
          "Queries per second, half of them with shards.tolerant=true (default: ${DEFAULT-VALUE}).")
  double queryRate;

  @Option(
      names = "--request-timeout",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "Per-request timeout; a write that times out counts as unknown, not acknowledged (default: ${DEFAULT-VALUE}).")
  Duration requestTimeout;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Seed for random targets and the monkey (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--unsafe",
      description =
          "Allow taking down the last live replica of a shard or a ZooKeeper majority. Without"
              + " it kill, stop and pause need the shards they hit to have 2 live replicas on"
              + " different nodes (a collection of --replicas 2 or more), and zk-kill an ensemble"
              + " of 3 or more; a fault the rules refuse is refused before the workload starts.")
  boolean unsafe;

  @Option(
      names = "--faults",
      split = ",",
      description = "The monkey's fault kinds (default: kill,pause).")
  List<String> faults;

  @Option(
      names = "--interval",
      defaultValue = "20s",
      description = "The monkey's mean gap between faults (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--fault-duration",
      defaultValue = "10s",
      description = "How long each of the monkey's faults lasts (default: ${DEFAULT-VALUE}).")
  String faultDuration;

  @Option(
      names = "--rate",
      paramLabel = "RATE",
      description = "The link rate of a bandwidth fault, e.g. 1mbit, 512kbit.")
  String rate;

  @Option(
      names = "--delay",
      paramLabel = "DELAY",
      description =
          "A latency fault's delay, one way (a round trip takes twice it longer), e.g. 50ms.")
  String delay;

  @Option(
      names = "--jitter",
      paramLabel = "JITTER",
      description = "A latency fault's jitter around its delay, e.g. 5ms (see --distribution).")
  String jitter;

  @Option(
      names = "--distribution",
      paramLabel = "NAME",
      description =
          "Where the jitter is drawn from: normal (jitter = standard deviation, the default),"
              + " uniform (±jitter) or pareto (rare long stalls, mean jitter).")
  String distribution;

  @Option(
      names = "--loss",
      paramLabel = "SHARE",
      description = "The share of packets a loss (or latency) fault drops each way, e.g. 1%%.")
  String loss;

  @Option(
      names = "--direction",
      paramLabel = "WAY",
      description =
          "Which way a latency or loss fault slows: both (the default), out (what the target"
              + " hosts send) or in (what they receive).")
  String direction;

  @Option(
      names = "--reorder",
      description =
          "Let jittered packets overtake each other (each drawn on its own, as netem does);"
              + " by default they keep their order.")
  boolean reorder;

  @Option(
      names = "--out",
      description =
          "Directory for history.jsonl, faults.json, timeline.csv, verdict.json and results.json, a run that report and compare read (default: runs/chaos-TIMESTAMP).")
  Path out;

  @Option(
      names = "--into",
      paramLabel = "COLLECTION",
      description =
          "Write the workload's documents into this collection (its schema must take them)"
              + " instead of a scratch collection shaped like --collection.")
  String into;

  @Option(
      names = "--doc-template",
      paramLabel = "FILE",
      description =
          "The workload's document as JSON, for --into a collection with a strict schema: string"
              + " values may hold {{id}} (required as \"id\"), {{seq}} and {{run}}.")
  Path docTemplate;

  @Option(
      names = "--keep",
      description = "Keep the scratch collection afterwards (default: it is deleted).")
  boolean keep;

  private DocTemplate template() {
    if (docTemplate == null) {
      return null;
    }
    if (into == null) {
      throw SolrscaleException.usage(
          "--doc-template is for --into: the scratch collection takes the default documents");
    }
    return DocTemplate.read(docTemplate);
  }

  @Option(names = "--json", description = "Print the verdict as JSON.")
  boolean json;

  @Option(
      names = "--profile",
      description =
          "Record every Solr node with Java Flight Recorder while the workload and faults run:"
              + " allocation, GC, lock waits, hot methods and flame graphs in the run's profile/"
              + " (a cluster solrscale started).")
  boolean profile;

  @Mixin LiveOption liveView;

  @Override
  public Integer call() throws Exception {
    if (helpFaults) {
      for (FaultKind k : FaultKind.values()) {
        System.out.printf(
            "%-16s %s%s%n",
            k.id(), k.help(), k.monkeyMayDraw() ? "" : " (not drawn by the monkey)");
      }
      return 0;
    }
    if (minRf != null && minRf < 1) {
      throw SolrscaleException.usage("--min-rf " + minRf + " must be at least 1");
    }
    if (writeRate <= 0) {
      throw SolrscaleException.usage(
          "--write-rate must be above 0: chaos proves that acknowledged writes survive the fault"
              + " (bench measures queries alone)");
    }
    if (queryRate < 0 || batch < 1) {
      throw SolrscaleException.usage("--query-rate must be 0 or more, --batch at least 1");
    }
    boolean none = fault.equals("none");
    List<StepSpec.Fault> injected =
        none
            ? List.of()
            : List.of(
                new StepSpec.Fault(
                    fault,
                    fault,
                    target,
                    at.toMillis() + "ms",
                    duration.toMillis() + "ms",
                    seed,
                    unsafe,
                    faults,
                    interval,
                    faultDuration,
                    rate,
                    delay,
                    jitter,
                    distribution,
                    loss,
                    direction,
                    reorder ? Boolean.TRUE : null));
    for (StepSpec.Fault f : injected) {
      String problem = f.problem();
      if (problem != null) {
        throw SolrscaleException.usage(problem + " (see: solrscale chaos --help-faults)");
      }
    }
    if (cloud.external() && !none) {
      throw SolrscaleException.usage(
          "--fault "
              + fault
              + " stops and starts nodes by the pids solrscale "
              + "recorded, which only a cluster solrscale started has (--name); against "
              + cloud.describe()
              + " give --fault none (the workload and the checks alone)");
    }
    Path dir =
        (out != null
                ? out
                : Path.of(
                    "runs",
                    "chaos-"
                        + LocalDateTime.now()
                            .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
            .toAbsolutePath()
            .normalize();
    Duration total = at.plus(duration).plus(after);
    ChaosRun.Options options =
        new ChaosRun.Options(
            collection,
            total,
            after,
            writeRate,
            batch,
            queryRate,
            requestTimeout,
            dir,
            into,
            keep,
            template(),
            minRf,
            true);
    return liveView.around(
        dir, "chaos", total.toMillis() / 1000.0, () -> chaos(dir, total, options, injected));
  }

  private int chaos(
      Path dir, Duration total, ChaosRun.Options options, List<StepSpec.Fault> injected)
      throws InterruptedException {
    ChaosVerdict v;
    Diagnosis diagnosis = null;
    if (cloud.external()) {
      Profiling.start(profile, cloud, dir); // refuses: nothing to record

      v =
          cloud
              .connect()
              .withExternal(
                  c -> ChaosRun.run(Target.of(c), options, injected, Terminal.progress()));
    } else {
      Cluster cluster = new Cluster(Terminal.home(), cloud.name, Terminal.progress());
      cluster.requireState();
      try (Profiler profiler = Profiling.start(profile, cloud, dir)) {
        v =
            ChaosRun.run(
                Target.of(cluster, cloud.access()), options, injected, Terminal.progress());
        diagnosis = profiler == null ? null : profiler.stop();
      }
    }
    RunResults.writeOneStep(dir, "chaos", v, total.toMillis() / 1000.0); // `report DIR` reads it
    if (json) {
      Terminal.printJson(v);
    } else {
      print(v, dir);
      if (diagnosis != null) {
        Profiling.print(diagnosis, dir);
      }
    }
    return v.ok() ? 0 : 1;
  }

  static void print(ChaosVerdict v, Path dir) {
    if (v.loss().lost() == null) {
      System.out.printf("acknowledged %,d; loss NOT CHECKED%n", v.loss().acknowledged());
    } else {
      System.out.printf(
          "acknowledged %,d, found %,d, lost %,d%s%n",
          v.loss().acknowledged(),
          v.loss().found(),
          v.loss().lost(),
          v.loss().lost() == 0
              ? ""
              : " (first: "
                  + String.join(
                      ", ", v.loss().lostIds().subList(0, Math.min(5, v.loss().lostIds().size())))
                  + "; by the rf of their acknowledgement: "
                  + v.loss().lostByRf()
                  + ")");
      if (v.loss().knownDefect() != null) {
        System.out.println(v.loss().knownDefect());
      }
    }
    LossVerdict.Unsettled u = v.loss().unsettled();
    if (u != null && u.notFound() > 0) {
      System.out.printf(
          "%,d more acknowledged not found on %s, which had no leader: lost, or uncommitted in a"
              + " transaction log (not told apart; read again once it has a leader)%n",
          u.notFound(), String.join(", ", u.shards()));
    }
    if (v.loss().partlyReplicated() != null && v.loss().partlyReplicated() > 0) {
      System.out.printf(
          "%,d acknowledged id(s) are on some replicas of their shard but not all%n",
          v.loss().partlyReplicated());
    }
    long unread = v.shards().stream().filter(s -> s.agree() == null).count();
    System.out.printf(
        "replicas: %d shard(s) checked, %d divergent%s%n",
        v.shards().size() - unread,
        v.divergentShards(),
        unread == 0 ? "" : ", " + unread + " NOT CHECKED");
    System.out.printf(
        "availability %.1f %% overall%s; recovery %s%n",
        v.availability() * 100,
        v.availabilityDuringFaults() == null
            ? ""
            : String.format(", %.1f %% during faults", v.availabilityDuringFaults() * 100),
        v.recoverySeconds() == null
            ? (v.recovered() ? "-" : "NOT recovered")
            : String.format("%.1f s", v.recoverySeconds()));
    v.latencyMs()
        .forEach(
            (phase, p) ->
                System.out.printf(
                    "query latency %-6s p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d)%n",
                    phase, p.p50(), p.p99(), p.max(), p.count()));
    for (ChaosVerdict.FaultVerdict fv : v.faults()) {
      FaultRecord f = fv.fault();
      if (!f.injected()) {
        System.out.println("fault " + f.name() + ": " + f.note());
        continue;
      }
      System.out.printf(
          "fault %s %s at %.1f s, healed %.1f s, recovered %s; availability %.1f %%%s%n",
          f.fault(),
          String.join(",", f.nodes()),
          f.startS(),
          f.healS(),
          f.recoverySeconds() == null
              ? "never"
              : String.format("after %.1f s", f.recoverySeconds()),
          fv.availability() * 100,
          f.note() == null ? "" : " (" + f.note() + ")");
      for (ChaosVerdict.Behaviour b : fv.behaviours()) {
        System.out.println(
            "  "
                + (b.pass() == null ? "n/a   " : b.pass() ? "ok    " : "FAILED")
                + " "
                + b.expected()
                + ": "
                + b.observed());
      }
    }
    for (Map.Entry<String, Long> e : v.errors().entrySet()) {
      System.out.println("  error " + e.getKey() + ": " + e.getValue());
    }
    if (v.notTested() != null) {
      v.notTested().forEach(n -> System.out.println("  not tested: " + n));
    }
    if (v.notChecked() != null) {
      v.notChecked().forEach(n -> System.out.println("  not checked: " + n));
    }
    System.out.println(headline(v) + ": details in " + dir.resolve("verdict.json"));
  }

  /** The verdict in one word, and what a verdict that is none means. */
  static String headline(ChaosVerdict v) {
    return switch (v.verdict()) {
      case ChaosVerdict.PASS ->
          v.faults().isEmpty() ? "PASS (no fault: the workload and the checks alone)" : "PASS";
      case ChaosVerdict.NOT_TESTED -> "NOT TESTED (no verdict: the fault did not make a test)";
      case ChaosVerdict.NOT_CHECKED -> "NOT CHECKED (no verdict: a checker could not run)";
      default -> "FAIL";
    };
  }
}
