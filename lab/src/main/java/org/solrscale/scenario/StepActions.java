package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.solrscale.chaos.ChaosRun;
import org.solrscale.chaos.DocTemplate;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeOps;
import org.solrscale.cluster.NodeState;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.spec.Durations;
import org.solrscale.spec.StepKind;
import org.solrscale.spec.StepSpec;

/**
 * The registry of what runs each step kind: one line per kind of spec.StepKinds that runs on its
 * own (a fault runs alongside the next step, within that step's run). The small actions are here;
 * the others have a file each.
 */
final class StepActions {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  /** A kind's record class with its action, so a step reaches its action with its own type. */
  record Entry<S extends StepSpec>(Class<S> type, StepAction<S> action) {
    JsonNode run(StepSpec step, StepRun run) throws InterruptedException {
      return action.run(type.cast(step), run);
    }
  }

  static final List<Entry<?>> ALL =
      List.of(
          new Entry<>(StepSpec.Index.class, new IndexAction()),
          new Entry<>(StepSpec.Bench.class, new BenchAction()),
          new Entry<>(StepSpec.Capacity.class, new CapacityAction()),
          new Entry<>(StepSpec.Wait.class, new WaitAction()),
          new Entry<>(StepSpec.Restart.class, new RestartAction()),
          new Entry<>(StepSpec.Collection.class, new CollectionAction()),
          new Entry<>(StepSpec.Chaos.class, new ChaosAction()),
          new Entry<>(StepSpec.Distribute.class, new DistributeAction()),
          new Entry<>(StepSpec.Limits.class, new LimitsAction()),
          new Entry<>(StepSpec.Cached.class, new LimitsAction.CachedAction()));

  private StepActions() {}

  /** The entry that runs {@code step}; IllegalStateException for a kind registered in spec only. */
  static Entry<?> of(StepSpec step) {
    return ALL.stream()
        .filter(e -> e.type().isInstance(step))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no action for step kind "
                        + step.kind()
                        + ": register one in scenario.StepActions"));
  }

  /** Whether a kind has an action. */
  static boolean has(StepKind kind) {
    return ALL.stream().anyMatch(e -> e.type() == kind.type());
  }

  /** A wait step: sleeps for its duration. */
  static final class WaitAction implements StepAction<StepSpec.Wait> {
    @Override
    public JsonNode run(StepSpec.Wait w, StepRun run) throws InterruptedException {
      Thread.sleep(Durations.parse(w.duration()).toMillis());
      return null;
    }
  }

  /**
   * A restart step: the nodes restarted one after the other, then every collection active again.
   */
  static final class RestartAction implements StepAction<StepSpec.Restart> {
    @Override
    public JsonNode run(StepSpec.Restart r, StepRun run) {
      Cluster cluster = run.cluster();
      List<String> ids =
          r.nodes().contains("all")
              ? cluster.requireState().solrNodes().stream().map(NodeState::id).toList()
              : r.nodes();
      if (r.dropCaches()) {
        // cold caches: all stopped, the OS page cache dropped on their hosts, all started again
        for (String id : ids) {
          cluster.nodes().node(NodeOps.NodeOp.STOP, id, TIMEOUT);
        }
        List<String> hosts = cluster.hosts().dropCaches(ids);
        cluster.nodes().startNodes(ids, TIMEOUT);
        run.changes().reapply(cluster); // starting set the spec's memory limit again
        cluster.collections().waitUntilHealthy(TIMEOUT);
        return JSON.valueToTree(Map.of("restarted", ids, "caches_dropped_on", hosts));
      }
      for (String id : ids) {
        cluster.nodes().node(NodeOps.NodeOp.RESTART, id, TIMEOUT);
      }
      run.changes().reapply(cluster);
      cluster.collections().waitUntilHealthy(TIMEOUT);
      return JSON.valueToTree(Map.of("restarted", ids));
    }
  }

  /** A chaos step: the write-and-query workload with the faults alongside it, then the checkers. */
  static final class ChaosAction implements StepAction<StepSpec.Chaos> {
    @Override
    public JsonNode run(StepSpec.Chaos c, StepRun run) throws InterruptedException {
      ChaosVerdict v =
          ChaosRun.run(
              run.target(),
              new ChaosRun.Options(
                  run.collection(c.collection()),
                  Durations.parse(c.duration()),
                  Durations.parse(c.after()),
                  c.writeRate(),
                  c.batch(),
                  c.queryRate(),
                  Durations.parse(c.timeout()),
                  run.dir(),
                  c.into() == null ? null : run.collection(c.into()),
                  c.keep(),
                  c.docTemplate() == null
                      ? null
                      : DocTemplate.read(Path.of(run.file(c.docTemplate()))),
                  c.minRf(),
                  false),
              run.faults(),
              run.progress());
      ObjectNode summary = JSON.valueToTree(v);
      if (ChaosVerdict.NOT_TESTED.equals(v.verdict())) {
        // a chaos step whose faults made no test measured nothing, as a bench of failed requests
        summary.put("failed", "not tested: " + String.join("; ", v.notTested()));
      }
      return summary;
    }

    @Override
    public boolean takesFaults() {
      return true;
    }
  }
}
