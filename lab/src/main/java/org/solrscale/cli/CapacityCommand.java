package org.solrscale.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.solrscale.capacity.BenchProber;
import org.solrscale.capacity.CapacitySearch;
import org.solrscale.load.Workload;
import org.solrscale.results.RunResults;
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

  @Option(names = "--collection", required = true, description = "Collection to query.")
  String collection;

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
      defaultValue = "10",
      paramLabel = "QPS",
      description = "The first rate probed (default: ${DEFAULT-VALUE}).")
  double startRate;

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

  @Override
  public Integer call() throws Exception {
    Slo objective = Slo.parse(slo);
    if (!(startRate > 0)) {
      throw SolrscaleException.usage("--start-rate must be above 0, e.g. 10");
    }
    if (maxRate != null && !(maxRate >= startRate)) {
      throw SolrscaleException.usage(
          "--max-rate must be at least --start-rate (" + startRate + ")");
    }
    if (!(tolerance > 0 && tolerance < 100)) {
      throw SolrscaleException.usage("--tolerance is a percentage between 0 and 100, e.g. 5");
    }
    if (maxProbes < 2) {
      throw SolrscaleException.usage("--max-probes must be at least 2");
    }
    long started = System.nanoTime();
    Workload workload = new Workload(query.parts(), false, 0, seed);
    // made at once so that an unwritable --out fails before minutes of probes, and removed again
    // when the search ends before a probe wrote anything (e.g. the first query failed)
    boolean made = out != null && !Files.exists(out);
    if (out != null) {
      Files.createDirectories(out);
    }
    CapacitySearch.Result result;
    try {
      result = search(objective, workload);
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
      JSON.writeValue(out.resolve("capacity.json").toFile(), result);
      // the folder is also a run of one capacity step, so that `report DIR` draws it
      JSON.writeValue(
          out.resolve("results.json").toFile(),
          RunResults.oneStep(
              "capacity", JSON.valueToTree(result), (System.nanoTime() - started) / 1e9));
    }
    if (json) {
      Terminal.printJson(result);
    } else {
      print(result);
      if (out != null) {
        System.out.println("files: " + out + " (solrscale report " + out + " draws the probes)");
      }
    }
    return result.capacity() == null ? 1 : 0;
  }

  /** The search itself, its progress on stderr unless --json. */
  private CapacitySearch.Result search(Slo objective, Workload workload)
      throws InterruptedException {
    return BenchProber.search(
        objective,
        CapacitySearch.Options.of(startRate, maxRate, tolerance, maxProbes),
        new BenchProber.Setup(
            workload,
            QueryTargets.nodeUrls(target, collection, "cloud"),
            collection,
            target.access(),
            connections,
            warmup,
            minDuration,
            arrivals,
            seed,
            query.timeout,
            out),
        line -> {
          if (!json) {
            System.err.println("  " + line);
          }
        });
  }

  private static void print(CapacitySearch.Result r) {
    Table t =
        new Table(
            "PROBE", "RATE", "ACHIEVED", "REQUESTS", "P50", "P99", "P99.9", "ERRORS", "VERDICT");
    int i = 0;
    for (CapacitySearch.Probe p : r.probes()) {
      CapacitySearch.Measured m = p.measured();
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
        "objective: " + r.slo() + " (" + r.requestsPerProbe() + " requests a probe at least)");
    if (r.capacity() == null) {
      System.out.println("capacity: none found: " + r.ended());
    } else {
      System.out.printf(
          Locale.ROOT,
          "capacity: %.1f requests/s (between %.1f and %s)%n",
          r.capacity(),
          r.low(),
          r.high() == null ? "?" : String.format(Locale.ROOT, "%.1f", r.high()));
      System.out.println(r.ended());
    }
  }

  private static String ms(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.1f ms", v);
  }
}
