package org.solrscale.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.CollectionChecks;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.Target;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.LossVerdict;
import org.solrscale.results.RunProgress;
import org.solrscale.results.TimelineRow;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * One chaos run: the write and query workload, the faults alongside it, then (after every fault
 * healed) the checkers. Writes history.jsonl, faults.json, timeline.csv and verdict.json to its
 * directory and returns the verdict.
 */
public final class ChaosRun {
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** The workload's shape; rates in documents and queries per second. */
  /**
   * The workload's shape: it runs for {@code duration}, and when faults outlast that, until they
   * healed and then {@code after} more (so "after" latency is always measured).
   */
  public record Options(
      String collection,
      Duration duration,
      Duration after,
      double writeRate,
      int batch,
      double queryRate,
      Duration timeout,
      Path dir,
      String into,
      boolean keep,
      DocTemplate template,
      Integer minRf,
      boolean commandLine) {
    public Options {
      template = template == null ? DocTemplate.DEFAULT : template;
    }
  }

  /** How long creating the scratch collection may take. */
  static final Duration SCRATCH_TIMEOUT = Duration.ofMinutes(3);

  private ChaosRun() {}

  /**
   * Runs the workload with {@code faults} alongside against {@code target}; faults need a cluster
   * solrscale started (they stop and start its processes), the workload and the checks do not.
   */
  public static ChaosVerdict run(
      Target target, Options o, List<StepSpec.Fault> faults, Consumer<String> progress)
      throws InterruptedException {
    faults.forEach(FaultRunner::validate);
    Cluster cluster = target.cluster().orElse(null);
    if (cluster == null && !faults.isEmpty()) {
      throw SolrscaleException.usage(
          "faults stop and start nodes by the pids solrscale recorded, which only a "
              + "cluster solrscale started has (--name); against "
              + target.describe()
              + " run the workload and "
              + "the checks alone (--fault none)");
    }
    List<String> urls =
        cluster != null
            ? cluster.requireState().solrNodes().stream().map(n -> n.baseUrl()).toList()
            : target.solrUrls();
    target.requireCollection(
        o.collection()); // before anything is written: a mistake leaves no run directory
    if (o.into() != null) {
      target.requireCollection(o.into());
      ChaosSchema.require(urls.get(0), o.into(), target.access(), o.template());
    }
    CollectionChecks.requireWrite(
        urls.get(0), o.into() != null ? o.into() : o.collection(), target.access(), "chaos");
    if (o.writeRate() <= 0) {
      // no write, nothing that could be lost: such a run could never be a test
      throw SolrscaleException.usage(
          (o.commandLine() ? "--write-rate" : "write_rate")
              + " must be above 0: chaos proves that acknowledged writes survive the faults");
    }
    if (cluster != null && !faults.isEmpty()) {
      // the topology read first: a fault the rules refuse now is refused before any load starts
      runner(cluster, o, null, progress).preflight(faults);
    }
    try {
      Files.createDirectories(o.dir());
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write to " + o.dir() + ": " + e.getMessage());
    }
    String writeTo =
        o.into() != null
            ? o.into()
            : ScratchCollection.create(
                target,
                target.collections().stream()
                    .filter(c -> c.name().equals(o.collection()))
                    .findFirst()
                    .orElseThrow(),
                SCRATCH_TIMEOUT,
                progress);
    try {
      return run(target, o, writeTo, faults, progress, cluster, urls);
    } finally {
      if (o.into() == null && !o.keep()) {
        Interruption.cleanUp(() -> ScratchCollection.delete(target, writeTo, progress));
      }
    }
  }

  private static ChaosVerdict run(
      Target target,
      Options o,
      String writeTo,
      List<StepSpec.Fault> faults,
      Consumer<String> progress,
      Cluster cluster,
      List<String> urls)
      throws InterruptedException {
    Path historyFile = o.dir().resolve("history.jsonl");
    String prefix = "chaos-" + Long.toString(System.currentTimeMillis(), 36) + "-";
    List<FaultRecord> records;
    Topology before;
    boolean recovered;
    double finalRecovery;
    try (History history = new History(historyFile)) {
      FaultRunner runner = cluster == null ? null : runner(cluster, o, history, progress);
      if (runner != null) {
        runner.recordEventsTo(o.dir().resolve("faults.jsonl"));
        runner.alsoAwait(writeTo); // recovered means the collection written into as well
      }
      before = runner == null ? null : runner.topology();
      long t0 = System.nanoTime();
      RunProgress.historyStarted(o.dir(), System.currentTimeMillis()); // the history's t_ms from it
      ChaosWorkload load =
          new ChaosWorkload(
              urls,
              target.access(),
              o.template(),
              writeTo,
              prefix,
              o.writeRate(),
              o.batch(),
              o.queryRate(),
              o.timeout(),
              o.minRf(),
              history,
              t0);
      load.start();
      if (runner != null) {
        runner.start(faults, t0);
      }
      List<FaultRecord> healed = new ArrayList<>();
      boolean[] stopped = {false};
      try {
        Thread.sleep(o.duration().toMillis());
        if (runner != null && !runner.awaitDone(0)) {
          progress.accept(
              "the workload goes on until the faults have healed, then "
                  + o.after().toSeconds()
                  + " s more");
          runner.awaitDone(FaultRunner.HEAL_TIMEOUT.toMillis());
          Thread.sleep(o.after().toMillis());
        }
      } catch (InterruptedException e) {
        // Ctrl-C: stop the load and heal every fault, but judge nothing: the run is short
        Interruption.cleanUp(
            () -> {
              if (runner != null) {
                healed.addAll(
                    runner.finish()); // first: requests to a frozen node would hold the load's stop
              }
              load.stop();
              stopped[0] = true;
              write(o.dir().resolve("faults.json"), healed);
            });
        progress.accept(
            "interrupted: the workload stopped and every fault was healed; no verdict "
                + "(faults.json and history.jsonl in "
                + o.dir()
                + " hold what happened)");
        throw e;
      } finally {
        if (!stopped[0]) {
          Interruption.cleanUp(
              () -> {
                String missing = load.stop();
                if (missing != null) {
                  progress.accept(missing);
                }
                if (runner != null) {
                  healed.addAll(runner.finish());
                }
              });
        }
      }
      records = healed;
      progress.accept("workload stopped; checking");
      if (runner == null) { // nothing was broken: nothing to recover from
        recovered = true;
        finalRecovery = 0;
      } else {
        double healedAt = runner.now();
        recovered = runner.awaitRecovered();
        finalRecovery = runner.now() - healedAt;
      }
    }
    write(o.dir().resolve("faults.json"), records);
    return check(
        target,
        o,
        writeTo,
        urls,
        prefix,
        historyFile,
        faults,
        records,
        before,
        recovered,
        finalRecovery);
  }

  private static FaultRunner runner(
      Cluster cluster, Options o, History history, Consumer<String> progress) {
    FaultRunner r = new FaultRunner(cluster, o.collection(), history, progress);
    return o.commandLine() ? r.onCommandLine() : r;
  }

  private static ChaosVerdict check(
      Target target,
      Options o,
      String writeTo,
      List<String> urls,
      String prefix,
      Path historyFile,
      List<StepSpec.Fault> faults,
      List<FaultRecord> records,
      Topology before,
      boolean recovered,
      double finalRecovery) {
    ClusterChecks checks = new ClusterChecks(urls, writeTo, target.access());
    List<String> notChecked = new ArrayList<>();
    LossChecker.Verdict loss = null;
    CollectionStatus c =
        target.collections().stream()
            .filter(x -> x.name().equals(writeTo))
            .findFirst()
            .orElse(null);
    // a shard without a leader takes no commit: what it holds is read as it is, not as lost
    LossChecker.Leaderless leaderless = c == null ? null : LeaderlessShards.of(c).orElse(null);
    try {
      checks.commit(c, leaderless == null ? List.of() : leaderless.shards());
    } catch (SolrscaleException e) { // the commit failed: what is searchable cannot be told
      loss = LossChecker.Verdict.notChecked(0, e.getMessage());
    }

    // every replica read alone first: an id on any replica is not lost, whichever one a
    // distributed query would read (under divergence that choice alone decided)
    List<ChaosVerdict.ShardAgreement> shards = c == null ? List.of() : checks.agreement(c, prefix);
    if (loss == null) {
      loss =
          LossChecker.check(
              historyFile, checks::presentAnywhere, checks.partlyReplicated(), leaderless);
    }
    if (c == null) {
      notChecked.add("replica agreement: collection '" + writeTo + "' is gone");
    }
    for (ChaosVerdict.ShardAgreement s : shards) {
      if (s.agree() == null) {
        notChecked.add(
            "replica agreement of "
                + s.shard()
                + ": "
                + s.replicas().stream()
                    .filter(r -> r.error() != null)
                    .map(r -> r.replica() + " on " + r.node() + ": " + r.error())
                    .findFirst()
                    .orElse("a replica could not be read"));
      }
    }
    HistoryStats stats =
        HistoryStats.read(
            historyFile,
            target
                .cluster()
                .map(ChaosRun::sessionTimeoutSeconds)
                .orElse(HistoryStats.DEFAULT_SESSION_TIMEOUT_S));
    ChaosVerdict.Counts writes = stats.writes(e -> true);
    if (o.writeRate() > 0 && loss.findings().acknowledged() == 0 && loss.notChecked() == null) {
      // nothing acknowledged, nothing to lose: a vacuous pass would hide writes Solr refused
      loss =
          LossChecker.Verdict.notChecked(
              0,
              "no write was acknowledged ("
                  + writes.failed()
                  + " failed, "
                  + writes.unknown()
                  + " unanswered"
                  + firstCause(stats.errors(HistoryEvent::isAdd)).map(k -> "; e.g. " + k).orElse("")
                  + "), so none could be lost");
    }
    if (loss.notChecked() != null) {
      notChecked.add(0, "loss: " + loss.notChecked());
    }
    unsettled(loss.findings()).ifPresent(u -> notChecked.add(0, u));
    List<ChaosVerdict.FaultVerdict> fv = new ArrayList<>();
    for (FaultRecord f : records) {
      fv.add(stats.judge(f, before));
    }
    boolean anyFault = records.stream().anyMatch(FaultRecord::injected);
    Double recovery =
        records.stream()
            .filter(FaultRecord::injected)
            .map(FaultRecord::recoverySeconds)
            .filter(x -> x != null)
            .max(Double::compare)
            .orElse(null);
    if (recovery == null && anyFault) {
      recovery = recovered ? finalRecovery : null;
    }
    boolean allRecovered =
        recovered
            && records.stream()
                .filter(FaultRecord::injected)
                .allMatch(f -> f.recoverySeconds() != null);
    int divergent = (int) shards.stream().filter(s -> Boolean.FALSE.equals(s.agree())).count();
    boolean failed =
        loss.findings().lost() != null && loss.findings().lost() > 0
            || divergent > 0
            || !allRecovered;
    List<String> notTested =
        FaultCoverage.untested(faults, records, stats.writes(HistoryStats.during(records)));
    String verdict = verdict(failed, notTested, notChecked);
    ChaosVerdict v =
        new ChaosVerdict(
            verdict.equals(ChaosVerdict.PASS),
            verdict,
            notChecked.isEmpty() ? null : notChecked,
            notTested.isEmpty() ? null : notTested,
            loss.findings(),
            divergent,
            recovery,
            allRecovered,
            stats.availability(e -> true),
            anyFault ? stats.availability(HistoryStats.during(records)) : null,
            writes,
            stats.queries(e -> true),
            stats.errors(e -> true),
            stats.phases(records),
            shards,
            fv);
    write(o.dir().resolve("verdict.json"), v);
    TimelineRow.TABLE.write(o.dir().resolve("timeline.csv"), stats.timeline());
    return v;
  }

  /**
   * The verdict: fail when a property was checked and failed (a lost write is a fact whether or not
   * the faults ran as planned), else not tested when the faults did not make the run a test, else
   * not checked when a checker could not run, else pass.
   */
  static String verdict(boolean failed, List<String> notTested, List<String> notChecked) {
    if (failed) {
      return ChaosVerdict.FAIL;
    }
    if (!notTested.isEmpty()) {
      return ChaosVerdict.NOT_TESTED;
    }
    return notChecked.isEmpty() ? ChaosVerdict.PASS : ChaosVerdict.NOT_CHECKED;
  }

  /**
   * The error most worth showing: Solr's own reason over a forwarding node's "Async exception"
   * wrapper, then the most frequent.
   */
  static Optional<String> firstCause(Map<String, Long> errors) {
    return errors.entrySet().stream()
        .sorted(
            Comparator.<Map.Entry<String, Long>, Boolean>comparing(
                    e -> e.getKey().contains("Async exception"))
                .thenComparing(e -> -e.getValue()))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /**
   * The nodes' ZooKeeper session timeout: -DzkClientTimeout from the spec's JVM arguments, else 30
   * s.
   */
  static double sessionTimeoutSeconds(Cluster cluster) {
    for (String a : cluster.requireState().spec().jvmArgs()) {
      if (a.startsWith("-DzkClientTimeout=")) {
        try {
          return Long.parseLong(a.substring(18)) / 1000.0;
        } catch (NumberFormatException e) {
          break;
        }
      }
    }
    return HistoryStats.DEFAULT_SESSION_TIMEOUT_S;
  }

  /**
   * Why the loss of some acknowledged ids could not be decided: they were not found on shards that
   * had no leader when read.
   */
  static Optional<String> unsettled(LossVerdict loss) {
    LossVerdict.Unsettled u = loss.unsettled();
    if (u == null || u.notFound() == 0) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "loss of %,d acknowledged document(s) not found on %s, which had no leader when read"
                + " (first: %s): lost, or in a transaction log no leader has replayed yet; read"
                + " again once the shard has a leader to tell",
            u.notFound(),
            String.join(", ", u.shards()),
            String.join(", ", u.ids().subList(0, Math.min(3, u.ids().size())))));
  }

  /**
   * Checks a history again against the collection as it is now (ids deleted since are lost; ids not
   * found on a shard without a leader are unsettled).
   */
  public static LossChecker.Verdict checkLoss(Cluster cluster, String collection, Path history) {
    ClusterChecks checks = new ClusterChecks(cluster.solrUrls(), collection, cluster.access());
    CollectionStatus c =
        cluster.status(false).collections().stream()
            .filter(x -> x.name().equals(collection))
            .findFirst()
            .orElseThrow();
    LossChecker.Leaderless leaderless = LeaderlessShards.of(c).orElse(null);
    checks.commit(c, leaderless == null ? List.of() : leaderless.shards());
    return LossChecker.check(history, checks::present, null, leaderless);
  }

  static void write(Path file, Object value) {
    try {
      JSON.writeValue(file.toFile(), value);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }
}
