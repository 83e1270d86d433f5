package org.solrscale.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.solrscale.capacity.BenchProber;
import org.solrscale.capacity.CapacitySearch;
import org.solrscale.capacity.ProbePlan;
import org.solrscale.capacity.SearchProgress;
import org.solrscale.cluster.QueryTargets;
import org.solrscale.load.Workload;
import org.solrscale.results.CapacityResult;
import org.solrscale.results.RunResults;
import org.solrscale.spec.Routing;
import org.solrscale.spec.Slo;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * `solrscale capacity`: the highest open-loop rate at which a collection meets a latency and error
 * objective, found by probing (doubling, then bisection), with its interval and every probe.
 */
@Command(
    name = "capacity",
    description =
        "Find the highest open-loop query rate that meets an objective (e.g. p99<200ms,errors<0.1%),"
            + " with its interval and every probe.")
final class CapacityCommand implements Callable<Integer> {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Mixin SolrTarget target;

  @Mixin QueryOptions query;

  @Option(
      names = "--collection",
      description =
          "Collection to query (a replay without it sends each request to its logged collection).")
  String collection;

  @Option(
      names = "--replay",
      paramLabel = "FILE",
      description =
          "Search over a log (from data log-requests) instead of --queries: each probe replays it"
              + " at a speed-up, looping; the capacity is also given as that speed-up.")
  Path replay;

  @Option(
      names = "--max-gap",
      converter = DurationConverter.class,
      paramLabel = "DURATION",
      description = "--replay: cut idle gaps longer than this to it first, e.g. 5s.")
  Duration maxGap;

  @Option(
      names = "--slo",
      required = true,
      paramLabel = "BOUNDS",
      description =
          "The objective: latency bounds (p50, p90, p95, p99, p99.9, max; ms or s) and errors, e.g."
              + " 'p99<200ms,errors<0.1%%'.")
  String slo;

  @Option(
      names = "--start-rate",
      defaultValue = "auto",
      paramLabel = "QPS",
      description =
          "The first rate probed; auto: 75 %% of what a closed loop reaches in 4 s (a replay: its"
              + " log's own rate) (default: ${DEFAULT-VALUE}).")
  String startRate;

  @Option(
      names = "--full-probes",
      description =
          "Run every probe to its full count, even once its verdict is clear (by default a probe"
              + " ends when its tail is surely above the bound, or surely below it after"
              + " --min-duration).")
  boolean fullProbes;

  @Option(
      names = "--max-rate",
      paramLabel = "QPS",
      description = "Probe no higher: a capacity above it is reported as at least this.")
  Double maxRate;

  @Option(
      names = "--tolerance",
      defaultValue = "5",
      paramLabel = "PCT",
      description =
          "Stop when the highest rate that met the objective and the lowest that did not are this"
              + " close, in percent (default: ${DEFAULT-VALUE}).")
  double tolerance;

  @Option(
      names = "--warmup",
      defaultValue = "5s",
      converter = DurationConverter.class,
      description = "Warm-up of each probe, left out of its figures (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(
      names = "--min-duration",
      defaultValue = "5s",
      converter = DurationConverter.class,
      description =
          "Shortest measured time of a probe; longer when the objective's percentile needs more"
              + " requests at that rate (default: ${DEFAULT-VALUE}).")
  Duration minDuration;

  @Option(
      names = "--max-probes",
      defaultValue = "24",
      description = "Give up after this many probes (default: ${DEFAULT-VALUE}).")
  int maxProbes;

  @Option(
      names = "--arrivals",
      defaultValue = "uniform",
      description = "uniform or poisson (default: ${DEFAULT-VALUE}).")
  String arrivals;

  @Option(
      names = "--connections",
      defaultValue = "64",
      description = "HTTP connections per node (default: ${DEFAULT-VALUE}).")
  int connections;

  @Option(names = "--seed", defaultValue = "42", description = "Seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--out",
      description =
          "Directory for capacity.json and each probe's files (probe-01, ...); solrscale report"
              + " DIR draws it.")
  Path out;

  @Option(names = "--json", description = "Print capacity.json to stdout.")
  boolean json;

  @Mixin LiveOption liveView;

  @Override
  public Integer call() throws Exception {
    return liveView.around(out, "capacity", 0, this::capacity);
  }

  private int capacity() throws Exception {
    Slo objective = Slo.parse(slo);
    Double start = startRate(startRate);
    if (maxRate != null && !(maxRate > 0)) {
      throw SolrscaleException.usage("--max-rate must be above 0");
    }
    if (maxRate != null && start != null && !(maxRate >= start)) {
      throw SolrscaleException.usage(
          "--max-rate must be at least --start-rate (" + Slo.fmt(start) + ")");
    }
    if (!(tolerance > 0 && tolerance < 100)) {
      throw SolrscaleException.usage("--tolerance is a percentage between 0 and 100, e.g. 5");
    }
    if (maxProbes < 2) {
      throw SolrscaleException.usage("--max-probes must be at least 2");
    }
    long started = System.nanoTime();
    if (replay != null && query.queries != null) {
      throw SolrscaleException.usage("--replay sends the logged requests: leave out --queries");
    }
    if (replay == null && collection == null) {
      throw SolrscaleException.usage("give --collection: the collection to query");
    }
    BenchProber.Replay replaying =
        replay == null
            ? null
            : BenchProber.Replay.of(replay, collection, maxGap == null ? 0 : maxGap.toNanos());
    Workload workload = replaying != null ? null : new Workload(query.parts(), false, 0, seed);
    // made at once so that an unwritable --out fails before minutes of probes, and removed again
    // when the search ends before a probe wrote anything (e.g. the first query failed)
    boolean made = out != null && !Files.exists(out);
    if (out != null) {
      Files.createDirectories(out);
    }
    CapacitySearch.Options options =
        CapacitySearch.Options.of(start, maxRate, tolerance, maxProbes);
    CapacityResult result;
    try (CapacityProgress progress = new CapacityProgress(p -> plan(p, objective, options))) {
      result = search(objective, options, workload, replaying, progress);
    } catch (RuntimeException | InterruptedException e) {
      if (made) {
        try {
          Files.deleteIfExists(out);
        } catch (DirectoryNotEmptyException kept) {
          // a probe's files are in it: they stay for the user to read
        }
      }
      throw e;
    }
    if (out != null) {
      // the folder is also a run of one capacity step, so that `report DIR` draws it
      RunResults.writeCommandOut(
          out, "capacity.json", "capacity", result, (System.nanoTime() - started) / 1e9);
    }
    if (json) {
      Terminal.printJson(result);
    } else {
      print(result, options);
      if (out != null) {
        Path where = out.toAbsolutePath().normalize();
        System.out.println(
            "files: " + where + " (solrscale report " + where + " draws the probes)");
      }
    }
    return result.capacity() == null ? 1 : 0;
  }

  /** --start-rate: a rate above 0, or auto (null). */
  static Double startRate(String text) {
    if (text.strip().equalsIgnoreCase("auto")) {
      return null;
    }
    try {
      double v = Double.parseDouble(text.strip());
      if (v > 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw SolrscaleException.usage(
        "--start-rate must be above 0, e.g. 10, or auto (found by a short closed loop); got '"
            + text
            + "'");
  }

  /** The search itself, its plan and progress on stderr unless --json. */
  private CapacityResult search(
      Slo objective,
      CapacitySearch.Options options,
      Workload workload,
      BenchProber.Replay replaying,
      SearchProgress progress)
      throws InterruptedException {
    java.util.Set<String> collections = new java.util.LinkedHashSet<>();
    if (replaying != null && collection == null) {
      collections.addAll(
          org.solrscale.load.ReplaySchedule.read(replay, null, 1, 0, 0, 1).collections());
    } else {
      collections.add(collection);
    }
    java.util.Set<String> urls = new java.util.LinkedHashSet<>();
    for (String c : collections) {
      urls.addAll(QueryTargets.nodeUrls(target.connect(), c, Routing.CLOUD));
    }
    return BenchProber.search(
        objective,
        options,
        new BenchProber.Setup(
            workload,
            replaying,
            List.copyOf(urls),
            collection,
            target.access(),
            connections,
            warmup,
            minDuration,
            arrivals,
            seed,
            query.timeout,
            out,
            !fullProbes),
        json ? (n, m) -> {} : progress);
  }

  /**
   * The plan in the command's words: the objective, the first probe's rate, requests and time, and
   * the most rates and probes the search can take (or, without --max-rate, what that depends on).
   */
  static List<String> plan(ProbePlan p, Slo objective, CapacitySearch.Options o) {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "objective: %s; a probe measures at least %,d requests for its %s",
            objective,
            p.required(),
            objective.highestBound()));
    lines.add(
        String.format(
            Locale.ROOT,
            "first probe: %s requests/s, %s%,d measured requests, %s (faster rates take less time)",
            Slo.fmt(p.start()),
            p.warmupRequests() > 0
                ? String.format(Locale.ROOT, "%,d warm-up + ", p.warmupRequests())
                : "",
            p.measuredRequests(),
            duration(p.firstProbeSeconds())));
    String repeats =
        p.repeats() > 1
            ? String.format(
                Locale.ROOT,
                "; a rate within %s %% of a bound is probed up to %d times",
                Slo.fmt(o.band() * 100),
                p.repeats())
            : "";
    String most = p.probes() == o.probes() ? "; --max-probes " + o.probes() + " caps it" : "";
    if (p.rates() != null) {
      lines.add(
          String.format(
              Locale.ROOT,
              "then: doubling up to --max-rate %s while probes meet the objective, then bisection"
                  + " to within %s %%: at most %d rates and %d probes%s%s",
              Slo.fmt(o.max()),
              Slo.fmt(o.tolerance() * 100),
              p.rates(),
              p.probes(),
              repeats,
              most));
    } else {
      lines.add(
          String.format(
              Locale.ROOT,
              "then: doubling until a probe fails, then at most %d rates of bisection to within %s"
                  + " %%; with no --max-rate the number of doublings depends on the capacity (one"
                  + " per factor of 2 above %s requests/s)%s; at most %d probes (--max-probes)",
              p.bisections(),
              Slo.fmt(o.tolerance() * 100),
              Slo.fmt(p.start()),
              repeats,
              p.probes()));
    }
    return lines;
  }

  /** Seconds as people read a wait: "45 s", "2 min 39 s". */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    return s < 60 ? s + " s" : s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
  }

  /**
   * The answer in plain words: the capacity (or "at least" it, or none) and why the search ended
   * there, naming the flag that ended it.
   */
  static String verdict(CapacityResult r, CapacitySearch.Options o) {
    CapacityResult.Probe last = r.probes().isEmpty() ? null : r.probes().get(r.probes().size() - 1);
    String rate = last == null ? "?" : Slo.fmt(last.measured().rate());
    String head;
    if (r.capacity() == null) {
      head =
          r.stop() == CapacityResult.Stop.LOWEST_RATE_FAILED
              ? "capacity: none"
              : "capacity: unknown";
    } else if (r.high() == null) {
      head = String.format(Locale.ROOT, "capacity: at least %.1f requests/s", r.capacity());
    } else {
      head =
          String.format(
              Locale.ROOT,
              "capacity: %.1f requests/s (between %.1f and %.1f)",
              r.capacity(),
              r.low(),
              r.high());
    }
    String why =
        switch (r.stop()) {
          case CONVERGED ->
              String.format(
                  Locale.ROOT,
                  "%s requests/s met the objective and %s did not, within --tolerance %s %%",
                  Slo.fmt(r.low()),
                  Slo.fmt(r.high()),
                  Slo.fmt(o.tolerance() * 100));
          case MAX_RATE -> "--max-rate " + Slo.fmt(o.max()) + " met the objective";
          case DRIVER_BOUND ->
              "the driver, not Solr, could not keep up at "
                  + rate
                  + " requests/s ("
                  + last.measured().driverBound()
                  + "); give the driver more CPU or run it on another host";
          case LOWEST_RATE_FAILED ->
              "even "
                  + rate
                  + " requests/s, the lowest rate tried, failed the objective"
                  + (last.why() == null ? "" : " (" + last.why() + ")");
          case MAX_PROBES ->
              "--max-probes "
                  + o.probes()
                  + " ran out "
                  + (r.low() == null
                      ? "before a rate met the objective"
                      : r.high() == null
                          ? "before a rate failed the objective"
                          : "before the interval narrowed to --tolerance "
                              + Slo.fmt(o.tolerance() * 100)
                              + " %");
        };
    return head + ": " + why;
  }

  private static void print(CapacityResult r, CapacitySearch.Options o) {
    Table t =
        new Table(
            "PROBE", "RATE", "ACHIEVED", "REQUESTS", "P50", "P99", "P99.9", "ERRORS", "VERDICT");
    int i = 0;
    for (CapacityResult.Probe p : r.probes()) {
      CapacityResult.Measured m = p.measured();
      t.row(
          Integer.toString(++i),
          String.format(Locale.ROOT, "%.1f", m.rate()),
          String.format(Locale.ROOT, "%.1f", m.achieved()),
          String.format(Locale.ROOT, "%,d", m.count()),
          ms(m.latencyMs().get("p50")),
          ms(m.latencyMs().get("p99")),
          ms(m.latencyMs().get("p99.9")),
          String.format(Locale.ROOT, "%.2f %%", m.errorRate() * 100),
          m.driverBound() != null ? "driver-bound" : p.meets() ? "meets" : "fails: " + p.why());
    }
    System.out.print(t.render());
    System.out.println();
    System.out.println(
        String.format(
            Locale.ROOT,
            "objective: %s, at least %,d requests a probe",
            Slo.describe(r.slo()),
            r.requestsPerProbe()));
    System.out.println(verdict(r, o));
    if (r.replayRate() != null) {
      System.out.println(
          String.format(
              Locale.ROOT,
              "replay: the log runs at %.1f requests/s at speed 1; %s",
              r.replayRate(),
              r.capacitySpeed() == null
                  ? "not even speed "
                      + Slo.fmt(r.probes().get(0).measured().rate() / r.replayRate())
                      + "x met the objective"
                  : String.format(
                      Locale.ROOT,
                      "the capacity is %.2fx its speed (%.1f requests/s)",
                      r.capacitySpeed(),
                      r.capacity())));
    }
  }

  private static String ms(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.1f ms", v);
  }
}
