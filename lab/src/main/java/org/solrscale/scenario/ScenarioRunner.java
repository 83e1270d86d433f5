package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ExternalCluster;
import org.solrscale.cluster.Target;
import org.solrscale.diagnose.Doctor;
import org.solrscale.diagnose.Profiler;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.RanOn;
import org.solrscale.results.RunProgress;
import org.solrscale.results.StepResult;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.Durations;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.ScenarioSpec;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepContext;
import org.solrscale.spec.StepKinds;
import org.solrscale.spec.StepSpec;
import org.solrscale.telemetry.SessionExpiries;
import org.solrscale.telemetry.Telemetry;

/**
 * Runs a scenario: every combination of its matrix, each {@code repeat} times, steps in order. A
 * cluster is kept between combinations of the same topology (its collections made afresh) and
 * rebuilt when the topology changes. Each finished repeat is recorded at once, so a run that was
 * interrupted goes on where it stopped when started again with the same --out.
 */
public final class ScenarioRunner {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final SolrscaleHome home;
  private final Path out;
  private final Consumer<String> progress;
  private final String version;

  /**
   * The SolrCloud solrscale did not start that the steps run against, or null: it deploys its own.
   */
  private ExternalCluster external;

  private RunProgress live;

  public ScenarioRunner(SolrscaleHome home, Path out, Consumer<String> progress, String version) {
    this.home = home;
    this.out = out;
    this.progress = progress;
    this.version = version;
  }

  /**
   * What a run did: how many repeats ran now, how many were already done, how many of those that
   * ran failed (each with why), and where the results are.
   */
  public record Outcome(int ran, int skipped, int total, List<String> failures, Path results) {}

  /**
   * Runs the steps against {@code cluster}, a SolrCloud solrscale did not start, instead of
   * deploying the scenario's cluster: its collections must exist, nothing is created, deleted or
   * taken down (the scenario must have been loaded as external, which refuses steps that need a
   * cluster of solrscale's).
   */
  public ScenarioRunner against(ExternalCluster cluster) {
    this.external = cluster;
    return this;
  }

  /** Whether every step that loads the cluster is profiled (run --profile). */
  private boolean profileAll;

  /** Profiles every index, bench and chaos step, as if each said {@code profile: true}. */
  public ScenarioRunner profiling(boolean all) {
    this.profileAll = all;
    return this;
  }

  private boolean profiled(StepSpec step) {
    return StepKinds.of(step).scrapesTelemetry()
        && (profileAll || Boolean.TRUE.equals(step.profile()));
  }

  public Outcome run(ScenarioLoader.Loaded loaded, Path scenarioFile) throws InterruptedException {
    ScenarioSpec base = loaded.base();
    String name = base.name() != null ? base.name() : "scenario";
    Path scenarioDir = scenarioFile == null ? null : scenarioFile.toAbsolutePath().getParent();
    Preflight.check(loaded, scenarioDir);
    if (external != null
        && loaded.combinations().stream()
            .flatMap(c -> c.spec().steps().stream())
            .anyMatch(this::profiled)) {
      throw SolrscaleException.usage(
          "profiling records the Solr JVMs of a cluster solrscale started; with --zk or --url"
              + " leave out --profile and the steps' profile: true");
    }
    if (external != null) { // before anything is made: the steps' collections must be there
      Target t = Target.of(external);
      for (ScenarioLoader.Combination c : loaded.combinations()) {
        List<CollectionSpec> cols = c.spec().cluster().collections();
        StepContext context =
            new StepContext(0, 0, null, cols.isEmpty() ? null : cols.get(0).name());
        for (StepSpec step : c.spec().steps()) {
          String collection = step.collectionIn(context);
          if (collection != null) {
            t.requireCollection(collection);
          }
        }
      }
    }
    boolean created = !Files.exists(out);
    RunRecord record;
    // each combination's data: the scenario's in data/, one the matrix changed in data/cNNN/
    Map<ScenarioSpec.DataSpec, DataPrep.Data> data = new HashMap<>();
    try {
      record = prepareDir(loaded.text(), name);
      for (ScenarioLoader.Combination c : loaded.combinations()) {
        ScenarioSpec.DataSpec d = c.spec().data();
        if (!data.containsKey(d)) {
          boolean own = !d.equals(base.data());
          if (own) {
            progress.accept("generating the data of " + c.id() + " (" + c.label() + ")");
          }
          Path dir = own ? out.resolve("data").resolve(c.id()) : out.resolve("data");
          data.put(d, DataPrep.prepare(d, dir, scenarioDir, loaded.places()));
        }
      }
    } catch (RuntimeException e) {
      if (created) { // nothing ran: leave nothing behind that a corrected run would trip over
        FileTrees.delete(out);
      }
      throw e;
    }
    String clusterName = ("scn-" + name).replaceAll("[^A-Za-z0-9_-]", "-");
    String revision = Environment.gitRevision();
    Cluster cluster = new Cluster(home, clusterName, progress);
    Target target = external == null ? Target.of(cluster) : Target.of(external);
    List<ScenarioLoader.Combination> combos = loaded.combinations();
    List<Turn> turns = turns(combos, base);
    int total = turns.size();
    int done = 0;
    int ran = 0;
    List<String> failures = new ArrayList<>();
    long t0 = System.nanoTime();
    ScenarioSpec running = null;
    live = new RunProgress(out, "run");
    double planned = 0;
    for (Turn turn : turns) {
      planned += plannedSeconds(turn.combination().spec());
    }
    live.set("name", name, "turns", total, "repeats", base.repeat(), "planned_s", planned);
    double plannedLeft = planned;
    String stopped = "interrupted";
    try {
      for (Turn turn : turns) {
        ScenarioLoader.Combination c = turn.combination();
        int r = turn.repeat();
        done++;
        if (record.done(c.id(), r)) {
          continue;
        }
        long remaining = total - done + 1;
        String eta =
            ran == 0
                ? ""
                : String.format(
                    ", ETA %.0f min", (System.nanoTime() - t0) / 1e9 / ran * remaining / 60);
        live.set(
            "turn",
            done,
            "combination",
            c.id(),
            "label",
            c.label(),
            "repeat",
            r,
            "eta_s",
            ran == 0 ? plannedLeft : (System.nanoTime() - t0) / 1e9 / ran * remaining);
        plannedLeft -= plannedSeconds(c.spec());
        progress.accept(
            String.format(
                "combination %d of %d%s: %s (repeat %d of %d)",
                done,
                total,
                eta,
                c.label().isEmpty() ? "(no matrix)" : c.label(),
                r,
                base.repeat()));
        Attempt attempt = new Attempt(c, r, record, Environment.ranOn(revision));
        if (external == null) {
          ScenarioSpec before = running;
          running =
              attempt.guard(
                  "while bringing up the cluster",
                  () -> ensureCluster(cluster, clusterName, c.spec(), before));
        }
        if (ran == 0) {
          writeEnvironment(
              cluster,
              clusterName,
              external == null
                  ? c.spec().cluster().solrVersion()
                  : "unknown (" + external.where() + ")");
          writeDoctor(target);
        }
        CombinationRun result = runOne(target, attempt, data.get(c.spec().data()), scenarioDir);
        record.add(result);
        ran++;
        if (!result.done()) {
          failures.add(
              c.id()
                  + " r"
                  + r
                  + " ("
                  + (c.label().isEmpty() ? "no matrix" : c.label())
                  + "): "
                  + result.why());
          progress.accept(c.id() + " r" + r + " " + result.why());
        }
      }
      stopped = failures.isEmpty() ? "done" : "done with failures";
    } catch (RuntimeException e) {
      stopped = "failed: " + message(e);
      throw e;
    } finally {
      live.set("finished", true, "outcome", stopped, "eta_s", 0, "step_dir", null);
      if (external == null) {
        Interruption.cleanUp(
            () ->
                cluster
                    .state()
                    .ifPresent(
                        s -> {
                          keepLogs(cluster);
                          cluster.down(true);
                        }));
      }
    }
    return new Outcome(ran, total - ran, total, failures, out.resolve("results.json"));
  }

  /**
   * What a combination's steps plan to take, in seconds, where they say: a bench's warm-up and
   * duration (or its staircase), a wait; other steps (indexing, faults) count nothing.
   */
  static double plannedSeconds(ScenarioSpec spec) {
    double s = 0;
    for (StepSpec step : spec.steps()) {
      if (step instanceof StepSpec.Bench b) {
        s += seconds(b.warmup());
        if (b.duration() != null) {
          s += seconds(b.duration());
        } else if (b.stepDuration() != null && b.rate() != null) {
          s += seconds(b.stepDuration()) * b.rate().split(",").length;
        }
      } else if (step instanceof StepSpec.Wait w) {
        s += seconds(w.duration());
      }
    }
    return s;
  }

  private static double seconds(String duration) {
    return duration == null ? 0 : Durations.parse(duration).toMillis() / 1000.0;
  }

  /** One repeat of one combination, in the order a run takes them. */
  record Turn(ScenarioLoader.Combination combination, int repeat) {}

  /**
   * The order of the repeats: each combination's back to back, or ({@code order: rounds}) every
   * combination once per round.
   */
  static List<Turn> turns(List<ScenarioLoader.Combination> combos, ScenarioSpec base) {
    List<Turn> out = new ArrayList<>();
    if (ScenarioSpec.BY_ROUND.equals(base.order())) {
      for (int r = 1; r <= base.repeat(); r++) {
        for (ScenarioLoader.Combination c : combos) {
          out.add(new Turn(c, r));
        }
      }
    } else {
      for (ScenarioLoader.Combination c : combos) {
        for (int r = 1; r <= base.repeat(); r++) {
          out.add(new Turn(c, r));
        }
      }
    }
    return out;
  }

  /**
   * One repeat of one combination while it runs: anything that stops it (a failure, Ctrl-C) is
   * recorded at once as failed or interrupted, with where, and passed on.
   */
  private final class Attempt {
    final ScenarioLoader.Combination combination;
    final int repeat;
    final RunRecord record;
    final long start = System.nanoTime();
    final List<StepResult> steps = new ArrayList<>();
    final RanOn ranOn;

    Attempt(ScenarioLoader.Combination combination, int repeat, RunRecord record, RanOn ranOn) {
      this.combination = combination;
      this.repeat = repeat;
      this.record = record;
      this.ranOn = ranOn;
    }

    String dir() {
      return combination.id() + "/r" + repeat;
    }

    /** Runs work that is part of this repeat but no step of it (bringing up its cluster). */
    <T> T guard(String where, Supplier<T> work) throws InterruptedException {
      try {
        return work.get();
      } catch (RuntimeException e) {
        throw stopped(where, null, e);
      }
    }

    /**
     * Records the repeat as interrupted or failed at {@code where} and throws: InterruptedException
     * when it was interrupted, else {@code e}. (Declared to return what it throws, for callers'
     * {@code throw}.)
     */
    RuntimeException stopped(String where, StepResult step, Exception e)
        throws InterruptedException {
      boolean interrupted = e instanceof InterruptedException || Interruption.signalled();
      if (step != null) {
        steps.add(step);
      }
      String reason = interrupted ? where : where + ": " + message(e);
      record.add(
          new CombinationRun(
              combination.id(),
              combination.params(),
              repeat,
              dir(),
              interrupted ? CombinationRun.INTERRUPTED : CombinationRun.FAILED,
              reason,
              seconds(start),
              steps,
              ranOn));
      progress.accept(
          combination.id()
              + " r"
              + repeat
              + " recorded as "
              + (interrupted
                  ? "interrupted " + where + "; run again with the same --out to run it again"
                  : "failed " + reason));
      if (interrupted) {
        throw e instanceof InterruptedException ie ? ie : new InterruptedException(where);
      }
      if (e instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e);
    }
  }

  private static String message(Throwable e) {
    return e.getMessage() == null
        ? e.toString()
        : e.getMessage().lines().findFirst().orElse("").strip();
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  /**
   * The run directory, with its record. A directory that holds another scenario's run (one that
   * says something else: comments and layout do not count) is refused when any of its repeats
   * finished (results must not mix); with none finished (a run that failed or was stopped early) it
   * is started afresh, keeping generated data whose settings are unchanged.
   */
  private RunRecord prepareDir(String text, String name) {
    try {
      Files.createDirectories(out.resolve("data"));
      Path saved = out.resolve("scenario.yaml");
      RunRecord record = new RunRecord(out, name);
      if (Files.isRegularFile(saved)
          && !ScenarioLoader.sameContent(Files.readString(saved), text)) {
        if (record.anyDone()) {
          throw SolrscaleException.usage(
              out
                  + " holds finished results of a different scenario; give "
                  + "another --out (or remove "
                  + out
                  + ")");
        }
        progress.accept(
            out
                + " holds an earlier version of this scenario that finished nothing: starting afresh");
        try (var entries = Files.list(out)) {
          for (Path p : entries.toList()) {
            if (!p.getFileName().toString().equals("data")) {
              FileTrees.delete(p);
            }
          }
        }
        record = new RunRecord(out, name);
      }
      Files.writeString(saved, text);
      return record;
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write to " + out + ": " + e.getMessage());
    }
  }

  /**
   * The cluster for {@code spec}: the running one when its nodes are the same (every collection it
   * has deleted and the combination's made anew: a sweep of shards or replicas keeps its nodes),
   * else a new one.
   */
  private ScenarioSpec ensureCluster(
      Cluster cluster, String clusterName, ScenarioSpec spec, ScenarioSpec running) {
    ClusterSpec wanted = spec.cluster().withName(clusterName);
    if (running != null
        && ScenarioLoader.sameTopology(running, spec)
        && cluster.state().isPresent()) {
      for (CollectionSpec c : cluster.requireState().spec().collections()) {
        cluster.collections().delete(c.name());
      }
      for (CollectionSpec c : wanted.collections()) {
        cluster.collections().create(c, TIMEOUT);
      }
      return spec;
    }
    if (cluster.state().isPresent()) {
      keepLogs(cluster);
      cluster.down(true);
    }
    cluster.up(wanted, TIMEOUT);
    clusters++;
    return spec;
  }

  /**
   * Runs the steps of one repeat. A bench step that measured nothing worth keeping (most requests
   * failed) makes the step and the repeat failed, and the other steps still run; anything that
   * stops a step (an error, Ctrl-C) is recorded at once and passed on.
   */
  private CombinationRun runOne(Target target, Attempt a, DataPrep.Data data, Path scenarioDir)
      throws InterruptedException {
    ScenarioLoader.Combination c = a.combination;
    List<CollectionSpec> collections = c.spec().cluster().collections();
    StepRunner steps =
        new StepRunner(
            target,
            data,
            collections.isEmpty() ? null : collections.get(0).name(),
            scenarioDir,
            progress);
    try {
      return runSteps(target, a, c, steps);
    } finally {
      steps.undo(); // what limits steps changed on the hosts, put back before anything else
    }
  }

  private CombinationRun runSteps(
      Target target, Attempt a, ScenarioLoader.Combination c, StepRunner steps)
      throws InterruptedException {
    List<StepSpec.Fault> faults = new ArrayList<>();
    String failed = null;
    int i = 0;
    for (StepSpec step : c.spec().steps()) {
      i++;
      if (StepKinds.of(step).runsAlongside()) {
        faults.add((StepSpec.Fault) step); // runs alongside the next step
        continue;
      }
      String stepDir =
          a.dir()
              + "/s"
              + i
              + "-"
              + step.kind()
              + "-"
              + step.name().replaceAll("[^A-Za-z0-9_-]", "-");
      Path path = out.resolve(stepDir);
      try {
        Files.createDirectories(path);
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot write to " + path + ": " + e.getMessage());
      }
      progress.accept(
          "  step "
              + i
              + " of "
              + c.spec().steps().size()
              + ": "
              + step.kind()
              + " "
              + step.name());
      live.set(
          "step",
          i,
          "steps",
          c.spec().steps().size(),
          "step_kind",
          step.kind(),
          "step_name",
          step.name(),
          "step_dir",
          stepDir,
          "step_started_ms",
          System.currentTimeMillis());
      boolean scrape = StepKinds.of(step).scrapesTelemetry();
      JsonNode summary;
      Map<String, Map<String, Double>> telemetry = null;
      Telemetry t = scrape ? telemetry(target, path) : null;
      Profiler profiler = null;
      long stepStart = System.nanoTime();
      Instant stepBegan = Instant.now();
      RunProgress.stepStarted(path, step.kind(), step.name(), stepBegan.toEpochMilli());
      try {
        profiler =
            profiled(step) ? Profiler.start(target.cluster().orElseThrow(), path, progress) : null;
        summary = steps.run(step, path, List.copyOf(faults));
        if (profiler != null) {
          profiler.stop();
        }
        faults.clear();
        if (Interruption
            .signalled()) { // a step that returned early on Ctrl-C did not run its length
          throw new InterruptedException();
        }
      } catch (InterruptedException | RuntimeException e) {
        telemetry = t == null ? null : Interruption.cleanUpAndGet(t::stop);
        t = null;
        String where =
            String.format(
                Locale.ROOT,
                "%.1f s into step %d (%s %s)",
                seconds(stepStart),
                i,
                step.kind(),
                step.name());
        boolean interrupted = e instanceof InterruptedException || Interruption.signalled();
        throw a.stopped(
            where,
            new StepResult(
                i,
                step.kind(),
                step.name(),
                stepDir,
                interrupted ? CombinationRun.INTERRUPTED : CombinationRun.FAILED,
                interrupted ? null : message(e),
                null,
                telemetry),
            e);
      } finally {
        if (profiler != null) {
          profiler.close(); // a step that failed: its recordings stopped, not read
        }
        if (t != null) {
          telemetry = t.stop();
        }
      }
      if (telemetry != null && target.cluster().isPresent()) {
        SessionExpiries.add(telemetry, target.cluster().get(), stepBegan, Instant.now());
      }
      String why = summary == null ? null : summary.path("failed").asText(null);
      if (why != null && failed == null) {
        failed =
            "step " + i + " (" + step.kind() + " " + step.name() + ") measured nothing: " + why;
      }
      a.steps.add(
          new StepResult(
              i,
              step.kind(),
              step.name(),
              stepDir,
              why == null ? CombinationRun.DONE : CombinationRun.FAILED,
              why,
              summary,
              telemetry));
    }
    return new CombinationRun(
        c.id(),
        c.params(),
        a.repeat,
        a.dir(),
        failed == null ? CombinationRun.DONE : CombinationRun.FAILED,
        failed,
        seconds(a.start),
        a.steps,
        a.ranOn);
  }

  private static Telemetry telemetry(Target target, Path dir) {
    try {
      return new Telemetry(target.nodes(), target.access(), dir, Duration.ofSeconds(2));
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write telemetry to " + dir + ": " + e.getMessage());
    }
  }

  /**
   * Keeps the logs of a cluster about to be taken down in logs/cluster-K/NODE/ of the run (K counts
   * the clusters the run brought up); a failure to copy them is said, not fatal.
   */
  private void keepLogs(Cluster cluster) {
    try {
      cluster.nodes().copyLogs(out.resolve("logs").resolve("cluster-" + Math.max(1, clusters)));
    } catch (RuntimeException e) {
      progress.accept("warning: logs not kept: " + e.getMessage());
    }
  }

  private int clusters;

  /**
   * The doctor's findings on the cluster as the run starts (doctor.json; the report's environment
   * section shows them); a doctor that cannot read the cluster is said, not fatal.
   */
  private void writeDoctor(Target target) {
    try {
      new Doctor(
              target.describe(),
              target.solrUrls(),
              null,
              target.access(),
              target.cluster().orElse(null),
              Doctor.WINDOW)
          .examine()
          .write(out);
    } catch (RuntimeException e) {
      progress.accept("warning: the doctor could not examine the cluster: " + e.getMessage());
    }
  }

  private void writeEnvironment(Cluster cluster, String clusterName, String solrVersion) {
    try {
      JSON.writeValue(
          out.resolve("environment.json").toFile(),
          Environment.of(cluster, home.cluster(clusterName), solrVersion, version));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write environment.json: " + e.getMessage());
    }
  }
}
