package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.cluster.NodeState;
import org.solrscale.load.Bench;
import org.solrscale.load.BenchPlan;
import org.solrscale.load.Clock;
import org.solrscale.load.Driver;
import org.solrscale.load.Drivers;
import org.solrscale.load.HttpSender;
import org.solrscale.load.LoadModel;
import org.solrscale.load.QueryFile;
import org.solrscale.load.Workload;
import org.solrscale.results.BenchSummary;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.Durations;
import org.solrscale.spec.ErrorRate;
import org.solrscale.spec.Rates;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * A bench step: the load driver with the step's settings, on the run's queries (or the step's);
 * errors allowed up to its max_error_rate (1 %, or 100 % with faults alongside).
 */
final class BenchAction implements StepAction<StepSpec.Bench> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public JsonNode run(StepSpec.Bench b, StepRun run) throws InterruptedException {
    double maxErrors =
        ErrorRate.parse(
            b.maxErrorRate() != null
                ? b.maxErrorRate()
                : run.faulted() ? "100%" : ErrorRate.DEFAULT);
    if (b.drivers() != null) {
      return JSON.valueToTree(onDrivers(b, run, maxErrors));
    }
    Workload w =
        new Workload(
            parts(b.queries(), b.templates(), run),
            b.order().equals("sequential"),
            b.zipf(),
            b.seed());
    List<String> urls = urls(b.routing(), run);
    BenchPlan.probe(
        urls.get(0),
        run.collection(b.collection()),
        w,
        BenchPlan.extraParams(b.shardsPreference(), b.shardsTolerant()),
        run.target().access());
    LoadModel model =
        BenchPlan.model(
            b.threads(), b.rate(), b.arrivals(), Durations.parse(b.stepDuration()).toNanos());
    Driver.Bounds bounds =
        BenchPlan.bounds(
            Durations.parse(b.warmup()).toNanos(),
            b.warmupRequests(),
            b.duration() == null ? null : Durations.parse(b.duration()).toNanos(),
            b.requests());
    long timeout = Durations.parse(b.timeout()).toMillis();
    try (HttpSender sender =
        BenchPlan.sender(
            b.routing(),
            urls,
            run.collection(b.collection()),
            BenchPlan.extraParams(b.shardsPreference(), b.shardsTolerant()),
            b.compression(),
            timeout,
            b.connections(),
            run.target().access())) {
      return JSON.valueToTree(
          Bench.run(
              new Bench.Options(
                  w, model, bounds, b.seed(), timeout * 1_000_000L, run.dir(), maxErrors),
              sender,
              Clock.SYSTEM,
              i -> {}));
    }
  }

  /**
   * The queries a load step sends: its own mix ({@code queries}), else the run's query files; only
   * the named templates when it names some.
   */
  static List<Workload.Part> parts(String queries, List<String> templates, StepRun run) {
    return Workload.only(
        queries != null
            ? Workload.parseMix(queries, run.scenarioDir())
            : run.data().queries().stream()
                .map(q -> new Workload.Part(q, 1, QueryFile.read(q)))
                .toList(),
        templates);
  }

  /** The step on its driver hosts: each runs its share, their runs merged into the step's. */
  private static BenchSummary onDrivers(StepSpec.Bench b, StepRun run, double maxErrors) {
    List<Path> files = new ArrayList<>();
    List<String> weights = new ArrayList<>();
    if (b.queries() != null) {
      for (Workload.Part part : Workload.parseMix(b.queries(), run.scenarioDir())) {
        files.add(part.file());
        weights.add(Double.toString(part.weight()));
      }
    } else {
      for (Path q : run.data().queries()) {
        files.add(q);
        weights.add(null);
      }
    }
    List<Double> rates = b.rate() == null ? null : Rates.parse(b.rate());
    Drivers.Common common =
        new Drivers.Common(
            urls(b.routing(), run),
            run.collection(b.collection()),
            Durations.parse(b.warmup()),
            b.duration() == null ? Duration.ofSeconds(60) : Durations.parse(b.duration()),
            Durations.parse(b.stepDuration()),
            Durations.parse(b.timeout()),
            b.order(),
            b.zipf(),
            b.arrivals(),
            b.connections(),
            maxErrors,
            b.routing(),
            b.shardsPreference(),
            b.shardsTolerant(),
            b.compression(),
            b.templates());
    ClusterSpec spec =
        run.target().cluster().flatMap(c -> c.state()).map(c -> c.spec()).orElse(null);
    Drivers.Plan plan =
        new Drivers.Plan(
            b.drivers().stream().map(h -> Drivers.host(h, spec)).toList(),
            common.args(),
            files,
            weights,
            b.threads(),
            rates,
            b.seed(),
            common.runTime(rates),
            maxErrors);
    try {
      return Drivers.run(
          SolrscaleHome.fromEnvironment(), plan, run.target().access(), run.dir(), run.progress());
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write the drivers' merged run into " + run.dir() + ": " + e.getMessage());
    }
  }

  private static List<String> urls(String routing, StepRun run) {
    if (routing.startsWith("node:")) {
      String id = routing.substring(5);
      if (id.startsWith("http")) {
        return List.of(id);
      }
      return List.of(
          run.cluster()
              .requireState()
              .find(id)
              .filter(NodeState::isSolr)
              .map(NodeState::baseUrl)
              .orElseThrow(
                  () -> SolrscaleException.usage("bench routing: no Solr node '" + id + "'")));
    }
    return run.target().solrUrls();
  }
}
