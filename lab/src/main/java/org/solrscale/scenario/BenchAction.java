package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import org.solrscale.cluster.NodeState;
import org.solrscale.load.BenchPlan;
import org.solrscale.load.BenchRequest;
import org.solrscale.load.Drivers;
import org.solrscale.load.QueryFile;
import org.solrscale.load.Workload;
import org.solrscale.results.BenchSummary;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.ErrorRate;
import org.solrscale.spec.Routing;
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
    BenchRequest r =
        BenchRequest.of(
            b,
            run.collection(b.collection()),
            b.replay() != null
                ? List.of()
                : b.queries() != null
                    ? BenchRequest.mix(b.queries(), run.scenarioDir())
                    : run.data().queries().stream().map(q -> new BenchRequest.Mix(q, 1)).toList(),
            b.replay() == null ? null : replayFile(b.replay(), run),
            urls(b.routingParsed(), run),
            maxErrors,
            run.dir());
    if (r.drivers() != null) {
      return JSON.valueToTree(onDrivers(r, run));
    }
    Workload w = BenchPlan.workload(r);
    BenchPlan.probe(r, w, run.target().access());
    return JSON.valueToTree(BenchPlan.run(r, w, run.target(), i -> {}));
  }

  /** A replay step's log file, relative to the scenario file unless absolute. */
  static java.nio.file.Path replayFile(String replay, StepRun run) {
    return java.nio.file.Path.of(DataPrep.resolve(run.scenarioDir(), replay));
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
  private static BenchSummary onDrivers(BenchRequest r, StepRun run) {
    ClusterSpec spec =
        run.target().cluster().flatMap(c -> c.state()).map(c -> c.spec()).orElse(null);
    try {
      return Drivers.run(
          SolrscaleHome.fromEnvironment(),
          r,
          r.drivers().stream().map(h -> Drivers.host(h, spec)).toList(),
          run.target().access(),
          run.progress());
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write the drivers' merged run into " + run.dir() + ": " + e.getMessage());
    }
  }

  private static List<String> urls(Routing routing, StepRun run) {
    if (routing.mode() == Routing.Mode.NODE) {
      String id = routing.node();
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
