package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.time.Duration;
import org.solrscale.capacity.BenchProber;
import org.solrscale.capacity.CapacitySearch;
import org.solrscale.load.Workload;
import org.solrscale.results.CapacityResult;
import org.solrscale.spec.Durations;
import org.solrscale.spec.Slo;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * A capacity step: solrscale capacity's search on the run's queries (or the step's), each probe's
 * bench files in {@code probe-NN}, the answer in capacity.json and as the step's summary (with the
 * step's target, for the report's recommendation).
 */
final class CapacityAction implements StepAction<StepSpec.Capacity> {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Override
  public JsonNode run(StepSpec.Capacity c, StepRun run) throws InterruptedException {
    Slo slo = Slo.parse(c.slo());
    String collection = run.collection(c.collection());
    BenchProber.Replay replay =
        c.replay() == null
            ? null
            : BenchProber.Replay.of(
                BenchAction.replayFile(c.replay(), run),
                collection,
                c.maxGap() == null ? 0 : Durations.parse(c.maxGap()).toNanos());
    Workload w =
        replay != null
            ? null
            : new Workload(BenchAction.parts(c.queries(), c.templates(), run), false, 0, c.seed());
    Duration timeout = Durations.parse(c.timeout());
    CapacityResult result =
        BenchProber.search(
            slo,
            CapacitySearch.Options.of(c.startRate(), c.maxRate(), c.tolerance(), c.maxProbes()),
            new BenchProber.Setup(
                w,
                replay,
                run.target().solrUrls(),
                collection,
                run.target().access(),
                c.connections(),
                Durations.parse(c.warmup()),
                Durations.parse(c.minDuration()),
                c.arrivals(),
                c.seed(),
                timeout,
                run.dir(),
                !c.fullProbes()),
            (n, m) -> run.progress().accept(CapacitySearch.progressLine(n, m)));
    JsonNode summary = JSON.valueToTree(result.withTarget(c.target()));
    try {
      JSON.writeValue(run.dir().resolve("capacity.json").toFile(), summary);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write capacity.json into " + run.dir() + ": " + e.getMessage());
    }
    run.progress()
        .accept(
            result.capacity() == null
                ? "no capacity: " + result.ended()
                : "capacity " + Slo.fmt(result.capacity()) + "/s: " + result.ended());
    return summary;
  }
}
