package org.solrscale.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.QueryTargets;
import org.solrscale.diagnose.Profiler;
import org.solrscale.load.BenchPlan;
import org.solrscale.load.BenchRequest;
import org.solrscale.load.Drivers;
import org.solrscale.load.LoadModel;
import org.solrscale.load.Workload;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.Diagnosis;
import org.solrscale.results.RunDir;
import org.solrscale.results.RunResults;
import org.solrscale.results.TailAttribution;
import org.solrscale.spec.Arrivals;
import org.solrscale.spec.ErrorRate;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.QueryOrder;
import org.solrscale.spec.Rates;
import org.solrscale.spec.Routing;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `solrscale bench`: sends a workload with a load model and measures latency honestly. */
@Command(
    name = "bench",
    description =
        "Send queries closed-loop (--threads) or open-loop (--rate) and measure latency (HdrHistogram, coordinated-omission correct).")
final class BenchCommand implements Callable<Integer> {
  @Mixin SolrTarget target;

  @Mixin QueryOptions query;

  @Option(
      names = "--collection",
      description =
          "Collection to query (a replay without it sends each request to its logged collection).")
  String collection;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Model model;

  static final class Model {
    @Option(
        names = "--threads",
        description =
            "Closed loop: this many threads, each sending when its previous request returned.")
    Integer threads;

    @Option(
        names = "--rate",
        paramLabel = "QPS[,QPS...]",
        description =
            "Open loop: requests per second at scheduled times; several rates make a staircase (--step-duration each).")
    String rate;

    @Option(
        names = "--replay",
        paramLabel = "FILE",
        description =
            "Open loop on a log: send the requests of FILE (from data log-requests) at their"
                + " logged offsets from the first, and check their hits against the logged ones.")
    Path replay;
  }

  @Option(
      names = "--speed",
      defaultValue = "1",
      paramLabel = "X",
      description = "Replay X times faster: every gap divided by X (default: ${DEFAULT-VALUE}).")
  double speed;

  @Option(
      names = "--max-gap",
      converter = DurationConverter.class,
      paramLabel = "DURATION",
      description = "Replay: cut idle gaps (nights) longer than this to it, e.g. 5s.")
  Duration maxGap;

  @Option(names = "--loop", description = "Replay: start again at the end (needs --duration).")
  boolean loop;

  @Option(
      names = "--slower-than",
      defaultValue = "3",
      paramLabel = "FACTOR",
      description =
          "Replay: list requests whose latency here exceeds FACTOR times their logged QTime"
              + " (default: ${DEFAULT-VALUE}).")
  double slowerThan;

  @Option(
      names = "--arrivals",
      defaultValue = "uniform",
      description = "Open loop arrivals: uniform or poisson (default: ${DEFAULT-VALUE}).")
  String arrivals;

  @Option(
      names = "--step-duration",
      defaultValue = "30s",
      converter = DurationConverter.class,
      description = "Length of each staircase step (default: ${DEFAULT-VALUE}).")
  Duration stepDuration;

  @Option(
      names = "--duration",
      converter = DurationConverter.class,
      description = "Measured time after the warm-up (default: 60s unless --requests is given).")
  Duration duration;

  @Option(names = "--requests", description = "Stop after this many measured requests.")
  Long requests;

  @Option(
      names = "--warmup",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "Warm-up, recorded and tagged but left out of the summary (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(
      names = "--warmup-requests",
      description = "Warm up with this many requests instead of --warmup.")
  Long warmupRequests;

  @Option(
      names = "--order",
      defaultValue = "random",
      description = "random (seeded) or sequential (default: ${DEFAULT-VALUE}).")
  String order;

  @Option(
      names = "--zipf",
      defaultValue = "0",
      description =
          "Repeat requests with Zipf exponent S (0 = uniform): higher means more cache hits.")
  double zipf;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Seed for order and arrivals (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--routing",
      defaultValue = "cloud",
      description =
          "cloud (spread over live nodes), round-robin (thread i to node i mod N) or node:ID (default: ${DEFAULT-VALUE}).")
  String routing;

  @Option(
      names = "--shards-preference",
      description = "Passed as shards.preference, e.g. node.sysprop:sysprop.dc.")
  String shardsPreference;

  @Option(names = "--shards-tolerant", description = "Pass shards.tolerant=true.")
  boolean shardsTolerant;

  @Option(
      names = "--time-allowed",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Pass timeAllowed (e.g. 100ms): Solr answers partially when a request takes longer;"
              + " such answers are counted as partial, apart from the errors.")
  Duration timeAllowed;

  @Option(
      names = "--compression",
      description = "gzip: ask for compressed responses (bytes are counted on the wire).")
  String compression;

  @Option(
      names = "--connections",
      defaultValue = "32",
      description = "HTTP connections per node (default: ${DEFAULT-VALUE}).")
  int connections;

  @Option(
      names = "--max-error-rate",
      defaultValue = ErrorRate.DEFAULT,
      paramLabel = "RATE",
      description =
          "Above this share of failed requests the run measured nothing: it says why and exits 1 "
              + "(default: ${DEFAULT-VALUE}; e.g. 5%% or 0.05; 100%% keeps every run).")
  String maxErrorRate;

  @Option(
      names = "--out",
      description = "Directory for latency.hlog, summary.json and timeline.csv.")
  Path out;

  @Option(
      names = "--attribute",
      arity = "0..1",
      fallbackValue = "5%",
      paramLabel = "SHARE",
      description =
          "Sample this share of requests (default when given alone: 5%%) with shards.info=true and"
              + " name the replica, host and label that most often held back the slowest 1%% of"
              + " them (attribution.json).")
  String attribute;

  @Option(names = "--json", description = "Print summary.json to stdout.")
  boolean json;

  @Option(
      names = "--profile",
      description =
          "Record every Solr node with Java Flight Recorder while the load runs: allocation, GC,"
              + " lock waits, hot methods and flame graphs in --out/profile (a cluster solrscale"
              + " started).")
  boolean profile;

  @Option(
      names = "--drivers",
      split = ",",
      paramLabel = "HOST",
      description =
          "Run one driver on each of these hosts over SSH (e.g. lab-h3,lab-h4), the rate or the"
              + " threads split between them, started together; their logs are merged exactly"
              + " into --out, each driver's own run in --out/drivers/HOST.")
  List<String> drivers;

  @Mixin LiveOption liveView;

  @Override
  public Integer call() throws Exception {
    return liveView.around(
        out,
        "bench",
        (duration == null ? 0 : duration.toMillis() / 1000.0)
            + (warmup == null ? 0 : warmup.toMillis() / 1000.0),
        this::bench);
  }

  private int bench() throws Exception {
    BenchRequest request = request();
    LoadModel loadModel = BenchPlan.model(request);
    Workload workload = BenchPlan.workload(request);
    BenchPlan.bounds(request);
    Set<String> collections =
        loadModel instanceof LoadModel.Replay r ? r.schedule().collections() : Set.of(collection);
    Set<String> urls = new LinkedHashSet<>();
    for (String c : collections) {
      urls.addAll(QueryTargets.nodeUrls(target.connect(), c, request.routing()));
    }
    request = request.withUrls(List.copyOf(urls));
    BenchPlan.probe(request, workload, target.access());
    if (drivers != null) {
      return onDrivers(request);
    }
    BenchSummary s;
    Diagnosis diagnosis = null;
    BenchProgress progress = new BenchProgress();
    try (Profiler profiler = Profiling.start(profile, target, out)) {
      s =
          target.external()
              ? BenchPlan.run(request, workload, target.access(), progress)
              : BenchPlan.run(
                  request,
                  workload,
                  org.solrscale.cluster.Target.of(target.connect().cluster(), target.access()),
                  progress);
      progress.close();
      diagnosis = profiler == null ? null : profiler.stop();
    } finally {
      progress.close();
    }
    if (json) {
      Terminal.printJson(s);
    } else {
      print(s);
      if (diagnosis != null) {
        Profiling.print(diagnosis, out);
      }
      printAttribution(out);
    }
    if (out != null && Files.isDirectory(out)) {
      RunResults.writeOneStep(out, "bench", s, null); // so that `report DIR` reads it
      Terminal.printFiles(out, json);
    }
    if (s.failed() != null) {
      System.err.println("solrscale: the run measured nothing worth keeping: " + s.failed());
      return ExitCode.FAILED.code();
    }
    return 0;
  }

  /** The bench the flags ask for, each value parsed once; its URLs come from the target. */
  private BenchRequest request() {
    List<Double> rates = null;
    Arrivals arrivalsParsed = Arrivals.UNIFORM; // a closed loop has no arrivals to check
    if (model.rate != null) {
      arrivalsParsed = usage(() -> Arrivals.parse(arrivals), null);
      rates = usage(() -> Rates.parse(model.rate), null);
    }
    if (model.replay == null && collection == null) {
      throw SolrscaleException.usage("give --collection: the collection to query");
    }
    if (timeAllowed != null && timeAllowed.toMillis() < 1) {
      throw SolrscaleException.usage("--time-allowed must be 1ms or more, e.g. 100ms");
    }
    if (model.replay != null && query.queries != null) {
      throw SolrscaleException.usage(
          "--replay sends the logged requests: leave out --queries (or bench the query file"
              + " without --replay)");
    }
    QueryOrder orderParsed =
        usage(() -> QueryOrder.parse(order), "--order is random or sequential");
    double errorRate = usage(() -> ErrorRate.parse(maxErrorRate), "--max-error-rate: ");
    Routing routingParsed =
        usage(() -> Routing.parse(routing), "--routing is cloud, round-robin or node:ID");
    return new BenchRequest(
        null,
        collection,
        model.replay != null ? List.of() : BenchRequest.mix(query.required(), null),
        query.templates,
        model.threads,
        rates,
        arrivalsParsed,
        stepDuration,
        warmup,
        warmupRequests,
        duration,
        requests,
        orderParsed,
        zipf,
        seed,
        query.timeout,
        routingParsed,
        shardsPreference,
        shardsTolerant,
        timeAllowed,
        compression,
        connections,
        errorRate,
        out,
        null,
        drivers == null ? null : drivers.stream().map(String::strip).distinct().toList(),
        model.replay == null
            ? null
            : new BenchRequest.Replay(model.replay, speed, maxGap, loop, slowerThan, 0, 1),
        attribute == null ? null : usage(() -> StepSpec.Bench.attributeShare(attribute), null));
  }

  /**
   * The parsed value, or a usage error: {@code message} when given (one ending in ": " gets the
   * parser's reason after it), else the parser's reason.
   */
  private static <T> T usage(java.util.function.Supplier<T> parse, String message) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw SolrscaleException.usage(
          message == null
              ? e.getMessage()
              : message.endsWith(": ") ? message + e.getMessage() : message);
    }
  }

  /** The run on several driver hosts: each runs its share of the request, then all merge. */
  private int onDrivers(BenchRequest request) throws IOException {
    if (out == null) {
      throw SolrscaleException.usage(
          "--drivers needs --out: the directory the drivers' runs are merged into");
    }
    if (requests != null || warmupRequests != null) {
      throw SolrscaleException.usage(
          "--drivers runs for a time: give --duration and --warmup, not --requests or"
              + " --warmup-requests");
    }
    List<HostSpec> hosts = request.drivers().stream().map(this::driverHost).toList();
    BenchSummary s;
    Diagnosis diagnosis;
    try (Profiler profiler = Profiling.start(profile, target, out)) {
      s = Drivers.run(Terminal.home(), request, hosts, target.access(), Terminal.progress());
      diagnosis = profiler == null ? null : profiler.stop();
    }
    if (json) {
      Terminal.printJson(s);
    } else {
      print(s);
      if (diagnosis != null) {
        Profiling.print(diagnosis, out);
      }
      for (BenchSummary.DriverRun d : s.drivers()) {
        System.out.printf(
            "  driver %s: %,d requests, %.1f/s achieved, p50 %.2f ms, p99 %.2f ms, %s%n",
            d.host(),
            d.count(),
            d.achieved(),
            d.latencyMs().getOrDefault("p50", 0.0),
            d.latencyMs().getOrDefault("p99", 0.0),
            d.failed() != null
                ? "failed: " + d.failed()
                : "bottleneck: " + (d.bottleneck() == null ? "none" : d.bottleneck()));
      }
    }
    RunResults.writeOneStep(out, "bench", s, null); // so that `report DIR` reads it
    Terminal.printFiles(out, json);
    if (s.failed() != null) {
      System.err.println("solrscale: the run measured nothing worth keeping: " + s.failed());
      return ExitCode.FAILED.code();
    }
    return 0;
  }

  /** A --drivers host: the cluster's own host of that name when bench targets one of ours. */
  private HostSpec driverHost(String host) {
    if (target.zk != null || target.url != null) {
      return Drivers.host(host, null);
    }
    return Drivers.host(
        host,
        new Cluster(Terminal.home(), target.name, Terminal.progress())
            .state()
            .map(c -> c.spec())
            .orElse(null));
  }

  /** The tail's attribution a bench with --attribute wrote into {@code out}, if any. */
  static void printAttribution(java.nio.file.Path out) {
    java.nio.file.Path f = out == null ? null : out.resolve(TailAttribution.FILE);
    if (f == null || !Files.isRegularFile(f)) {
      return;
    }
    try {
      RunDir.JSON.readValue(f.toFile(), TailAttribution.class).lines().forEach(System.out::println);
    } catch (java.io.IOException e) {
      System.err.println("solrscale: cannot read " + f + ": " + e.getMessage());
    }
  }

  static void print(BenchSummary s) {
    System.out.printf(
        "%s loop: %,d requests in %.1f s, offered %.1f/s, achieved %.1f/s, %d errors%s%n",
        s.loadModel(),
        s.count(),
        s.seconds(),
        s.throughput().offered(),
        s.throughput().achieved(),
        s.errors().total(),
        s.partial() == 0
            ? ""
            : String.format(
                Locale.ROOT,
                ", %,d partial answers (%.1f %%: Solr's partialResults, fast and incomplete)",
                s.partial(),
                100.0 * s.partial() / Math.max(1, s.count())));
    System.out.println("latency ms (from the intended start): " + row(s.latencyMs()));
    System.out.println("service ms (from the actual send):    " + row(s.serviceTimeMs()));
    if (s.msPer1000PerThread() != null) {
      System.out.printf("time per 1000 requests per thread: %.0f ms%n", s.msPer1000PerThread());
    }
    s.errors()
        .byKind()
        .forEach((k, v) -> System.out.println("  " + k + ": " + v.count() + " " + v.samples()));
    if (s.steps() != null) {
      System.out.print(StaircaseTable.render(s.steps()));
    }
    if (s.replay() != null) {
      ReplayPrinter.print(s);
    }
    if (s.driver() == null) {
      return; // several drivers: each one's own health is printed after this
    }
    System.out.println(
        "driver: "
            + Math.round(s.driver().cpuPercent())
            + "% CPU, schedule lag p99 "
            + s.driver().scheduleLagMs().get("p99")
            + " ms; bottleneck: "
            + s.driver().bottleneck());
  }

  private static String row(Map<String, Double> m) {
    return m.entrySet().stream()
        .map(e -> e.getKey() + " " + String.format("%.2f", e.getValue()))
        .collect(Collectors.joining("  "));
  }
}
