package org.solrscale.capacity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.solrscale.cluster.Access;
import org.solrscale.load.Bench;
import org.solrscale.load.BenchPlan;
import org.solrscale.load.Clock;
import org.solrscale.load.HttpSender;
import org.solrscale.load.LoadModel;
import org.solrscale.load.ReplaySchedule;
import org.solrscale.load.Workload;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.CapacityResult;
import org.solrscale.results.JsonLines;
import org.solrscale.spec.Routing;
import org.solrscale.spec.Slo;
import org.solrscale.spec.SolrscaleException;

/**
 * Probes with the load driver: an open-loop bench at the rate, its own warm-up, then long enough
 * for the objective's percentile (max(minDuration, required / rate + 1 s)); each probe's files in
 * {@code out/probe-NN} when out is given.
 */
public final class BenchProber implements CapacitySearch.Prober {
  private final Workload workload;
  private final Replay replay;
  private final HttpSender sender;
  private final long required;
  private final Duration warmup;
  private final Duration minDuration;
  private final String arrivals;
  private final long seed;
  private final Duration timeout;
  private final Path out;
  private final SearchProgress progress;
  private final Slo slo;
  private final boolean early;
  private int probes;

  public BenchProber(
      Workload workload,
      Replay replay,
      HttpSender sender,
      Slo slo,
      Duration warmup,
      Duration minDuration,
      String arrivals,
      long seed,
      Duration timeout,
      Path out,
      SearchProgress progress,
      boolean early) {
    this.workload = workload;
    this.slo = slo;
    this.early = early;
    this.replay = replay;
    this.sender = sender;
    this.required = slo.requiredRequests();
    this.warmup = warmup;
    this.minDuration = minDuration;
    this.arrivals = arrivals;
    this.seed = seed;
    this.timeout = timeout;
    this.out = out;
    this.progress = progress;
  }

  /**
   * Where and how a search probes: the queries, the nodes (in turn, as SolrJ does) and their
   * collection, who to be, connections per node, each probe's warm-up and shortest measured time,
   * the arrivals, seed and request timeout, where each probe's files go (null: nowhere), and
   * whether a probe may end as soon as its verdict is clear ({@link EarlyVerdict}; false: every
   * probe runs its full count).
   */
  public record Setup(
      Workload workload,
      Replay replay,
      List<String> urls,
      String collection,
      Access access,
      int connections,
      Duration warmup,
      Duration minDuration,
      String arrivals,
      long seed,
      Duration timeout,
      Path out,
      boolean early) {}

  /**
   * A search over a replayed log instead of a workload: its file, each request to {@code
   * collection} (null: to its logged one), idle gaps cut to {@code maxGapNanos} (0: not cut); a
   * probe at a rate replays it at rate / the log's own rate, looping for the probe's time.
   */
  public record Replay(Path file, String collection, long maxGapNanos, double logRate) {
    /** The replay of {@code file}, its own rate read from it. */
    public static Replay of(Path file, String collection, long maxGapNanos) {
      ReplaySchedule s = ReplaySchedule.read(file, collection, 1, maxGapNanos, 0, 1);
      return new Replay(
          file, collection, maxGapNanos, s.entries().size() / (s.periodNanos() / 1e9));
    }

    LoadModel model(double rate) {
      double speed = rate / logRate;
      return new LoadModel.Replay(
          ReplaySchedule.read(file, collection, speed, maxGapNanos, 0, 1),
          true,
          speed,
          maxGapNanos,
          file.toString(),
          3);
    }
  }

  /**
   * The search against a SolrCloud: one query tried first (a wrong collection or field is one line,
   * not a search of failures), then the plan and the probes over one sender, told to {@code
   * progress}.
   */
  public static CapacityResult search(
      Slo slo, CapacitySearch.Options options, Setup s, SearchProgress progress)
      throws InterruptedException {
    BenchPlan.probe(
        s.urls().get(0),
        s.collection(),
        s.replay() != null
            ? BenchPlan.firsts(null, s.replay().model(s.replay().logRate()))
            : BenchPlan.firsts(s.workload()),
        "",
        s.access());
    try (HttpSender sender =
        BenchPlan.sender(
            Routing.CLOUD,
            s.urls(),
            s.collection(),
            "",
            null,
            s.timeout().toMillis(),
            s.connections(),
            s.access())) {
      CapacityResult.Ramp ramp = null;
      if (options.start() == null) {
        ramp = ramp(s, sender, options.max());
        progress.ramped(ramp);
        // above the start, the saturation itself: the open loop will most likely fail there, so
        // the bisection begins between the two instead of between the start and twice it
        options =
            options.startingAt(
                ramp.start(),
                ramp.threads() > 0 && ramp.achieved() > ramp.start()
                    ? round(ramp.achieved())
                    : null);
      }
      progress.planned(ProbePlan.of(slo, options, s.warmup(), s.minDuration()));
      CapacityResult r =
          CapacitySearch.search(
              slo,
              options,
              new BenchProber(
                  s.workload(),
                  s.replay(),
                  sender,
                  slo,
                  s.warmup(),
                  s.minDuration(),
                  s.arrivals(),
                  s.seed(),
                  s.timeout(),
                  s.out(),
                  progress,
                  s.early()));
      r = r.withRamp(ramp);
      return s.replay() == null ? r : r.withReplayRate(s.replay().logRate());
    }
  }

  /** The share of the closed loop's saturation the search starts at. */
  static final double RAMP_SHARE = 0.75;

  static final Duration RAMP_WARMUP = Duration.ofSeconds(1);
  static final Duration RAMP_MEASURED = Duration.ofSeconds(3);

  /**
   * Where to start: a closed loop (8 threads a node, 16 to 64, no more than the connections) for a
   * second's warm-up and 3 s, as fast as the server answers. Its rate is near the open-loop
   * capacity (0.85 of it for one Solr node, docs/benchmarks.md; 0.75 to 1.4 of it for two nodes and
   * the calibration server, docs/bench/capacity-speed.md): a heuristic, not a bound. The search
   * starts at {@link #RAMP_SHARE} of it instead of doubling up from far below, where each probe
   * takes longest, and tries the rate itself next. A replay starts at its log's own rate.
   */
  static CapacityResult.Ramp ramp(Setup s, HttpSender sender, Double max)
      throws InterruptedException {
    if (s.replay() != null) {
      double start = round(s.replay().logRate());
      return new CapacityResult.Ramp(0, 0, 0, null, max == null ? start : Math.min(start, max));
    }
    int nodes = s.urls().size();
    int threads =
        Math.max(1, Math.min(s.connections() * nodes, Math.min(64, Math.max(16, 8 * nodes))));
    Bench.Options o =
        new Bench.Options(
            s.workload(),
            new LoadModel.Closed(threads),
            BenchPlan.bounds(RAMP_WARMUP.toNanos(), null, RAMP_MEASURED.toNanos(), null),
            s.seed(),
            s.timeout().toNanos(),
            null,
            1.0);
    BenchSummary r = Bench.run(o, sender, Clock.SYSTEM, i -> {});
    double achieved = r.throughput() == null ? 0 : r.throughput().achieved();
    long errors = r.errors() == null ? 0 : r.errors().total();
    if (r.count() == 0 || achieved <= 0 || errors * 2 > r.count()) {
      throw SolrscaleException.failed(
          String.format(
              Locale.ROOT,
              "the closed loop that finds where to start answered %,d requests (%,d failed) in %s"
                  + " s; give --start-rate",
              r.count(),
              errors,
              Slo.fmt(r.seconds())));
    }
    double start = round(RAMP_SHARE * achieved);
    return new CapacityResult.Ramp(
        threads,
        r.seconds(),
        Math.round(achieved * 10) / 10.0,
        r.latencyMs() == null ? null : r.latencyMs().get("p99"),
        max == null ? start : Math.min(start, max));
  }

  /** Two significant digits (1,234 -> 1,200; 0.456 -> 0.46): a rate a person reads and types. */
  public static double round(double v) {
    if (!(v > 0)) {
      return v;
    }
    double scale = Math.pow(10, Math.floor(Math.log10(v)) - 1);
    return Math.round(v / scale) * scale;
  }

  @Override
  public CapacityResult.Measured probe(double rate) throws InterruptedException {
    probes++;
    if (probes == 1 && out != null) {
      try {
        Files.deleteIfExists(out.resolve(PROBES_FILE)); // an earlier search's, in the same --out
      } catch (IOException e) {
        // judged() says nothing either: the file is for watching only
      }
    }
    long seconds = ProbePlan.measuredSeconds(required, rate, minDuration);
    long nanos = seconds * 1_000_000_000L;
    LoadModel model =
        replay != null
            ? replay.model(rate)
            : BenchPlan.model(null, Double.toString(rate), arrivals, nanos);
    Path dir = out == null ? null : out.resolve(String.format(Locale.ROOT, "probe-%02d", probes));
    if (dir != null) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot write to " + dir + ": " + e.getMessage());
      }
    }
    Bench.Options o =
        new Bench.Options(
            workload,
            model,
            BenchPlan.bounds(warmup.toNanos(), null, nanos, null),
            seed + probes,
            timeout.toNanos(),
            dir,
            1.0);
    progress.probing(probes, rate, warmup.toNanos() / 1e9, seconds);
    EarlyVerdict verdict = early ? new EarlyVerdict(slo, Math.round(rate * seconds)) : null;
    double[] measuredSeconds = {0};
    double minSeconds = minDuration.toNanos() / 1e9;
    BenchSummary s =
        Bench.run(
            o,
            sender,
            Clock.SYSTEM,
            progress::interval,
            i -> {
              if (verdict == null || i.warmup()) {
                return false;
              }
              measuredSeconds[0] += i.seconds();
              return verdict.add(i, measuredSeconds[0] >= minSeconds);
            });
    CapacityResult.Measured m = measured(rate, s, verdict == null ? null : verdict.reason());
    progress.probed(probes, m);
    return m;
  }

  /** Each probe's verdict as it is judged, for the live view: out/probes.jsonl, a line each. */
  @Override
  public void judged(int number, CapacityResult.Probe p) {
    if (out == null) {
      return;
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("probe", number);
    line.put("dir", String.format(Locale.ROOT, "probe-%02d", number));
    line.put("rate", p.measured().rate());
    line.put("achieved", p.measured().achieved());
    line.put("p99_ms", p.measured().latencyMs().get("p99"));
    line.put("error_rate", p.measured().errorRate());
    line.put("meets", p.meets());
    line.put("why", p.why());
    line.put("decided_early", p.measured().decidedEarly());
    try {
      JsonLines.append(out.resolve(PROBES_FILE), line);
    } catch (IOException e) {
      // for watching only: the search and capacity.json do not depend on it
    }
  }

  /** Each probe's verdict, appended as it is judged. */
  public static final String PROBES_FILE = "probes.jsonl";

  /** A probe's figures as the search judges them. */
  static CapacityResult.Measured measured(double rate, BenchSummary s, String decidedEarly) {
    Map<String, Double> latency = new LinkedHashMap<>();
    if (s.latencyMs() != null) {
      latency.putAll(s.latencyMs());
    }
    long errors = s.errors() == null ? 0 : s.errors().total();
    String bottleneck = s.driver() == null ? null : s.driver().bottleneck();
    return new CapacityResult.Measured(
        rate,
        s.throughput() == null ? 0 : s.throughput().achieved(),
        s.count(),
        latency,
        s.count() == 0 ? 1 : (double) errors / s.count(),
        bottleneck != null && bottleneck.startsWith("driver") ? bottleneck : null,
        decidedEarly);
  }
}
