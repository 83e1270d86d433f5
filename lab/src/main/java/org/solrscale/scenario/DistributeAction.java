package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.solrscale.distribute.Distributor;
import org.solrscale.distribute.TargetsLog;
import org.solrscale.results.Distribution;
import org.solrscale.spec.Durations;
import org.solrscale.spec.StepSpec;

/**
 * A distribute step: new replicas by the step's method, timed to active; unless it keeps them, they
 * are deleted again, so that the next combination starts from the same collection.
 */
final class DistributeAction implements StepAction<StepSpec.Distribute> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public JsonNode run(StepSpec.Distribute d, StepRun run) {
    TargetsLog targets = new TargetsLog(run.dir(), row -> {});
    Distributor distributor = new Distributor(run.cluster(), run.progress(), targets);
    Distribution r =
        distributor.run(
            new Distributor.Options(
                run.collection(d.collection()),
                d.shards(),
                d.replicas(),
                d.type(),
                d.nodes(),
                Distributor.Method.parse(d.method()),
                d.chunkKb() * 1024,
                Durations.parse(d.timeout()),
                d.maxMbit() * 125_000L,
                d.refresh(),
                Distributor.Create.parse(d.create()),
                null));
    targets.finished(r);
    if (!d.keep()) {
      distributor.deleteNew(r);
    }
    return JSON.valueToTree(r);
  }
}
