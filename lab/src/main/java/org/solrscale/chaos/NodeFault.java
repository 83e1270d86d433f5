package org.solrscale.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.solrscale.cluster.Cluster;
import org.solrscale.results.LinkFault;
import org.solrscale.spec.Durations;
import org.solrscale.spec.FaultKind;
import org.solrscale.spec.StepSpec;

/**
 * A fault that takes nodes down: which ones it takes, how it breaks them and how it heals them. The
 * runner resolves the targets (then applies the safety rules), injects, holds the fault for its
 * duration, heals it and waits for recovery.
 */
abstract class NodeFault implements FaultAction {
  private final FaultKind kind;

  NodeFault(FaultKind kind) {
    this.kind = kind;
  }

  FaultKind kind() {
    return kind;
  }

  @Override
  public void run(FaultRunner runner, StepSpec.Fault f, double at) {
    configure(f);
    runner.inject(
        f.name(),
        this,
        f.target(),
        Durations.parse(f.duration()).toMillis(),
        new Random(f.seed()),
        f.unsafe());
  }

  /** Takes what the step says beyond the target (a rate, a delay) before it is injected. */
  void configure(StepSpec.Fault f) {}

  /**
   * What an independent probe measured of the network while the fault holds, for {@code seconds};
   * null for a fault that does not slow a link.
   */
  LinkFault measure(Cluster cluster, double seconds) {
    return null;
  }

  /** Whether {@link #measure} has something to measure. */
  boolean measures() {
    return false;
  }

  /** The nodes it takes for {@code target}, before the safety rules; Targets.NoTarget when none. */
  abstract List<String> targets(
      String target, Topology t, Set<String> down, Random rnd, boolean unsafe);

  /** Breaks the nodes. */
  abstract void inject(Cluster cluster, List<String> nodes, Duration timeout);

  /** Undoes it: by default the nodes are started again (together: a ZooKeeper majority must). */
  void heal(Cluster cluster, List<String> nodes, Duration timeout) {
    cluster.nodes().startNodes(nodes, timeout);
  }

  /**
   * Whether the fault holds until healed; false for one that runs its course (a rolling restart).
   */
  boolean holds() {
    return true;
  }

  /** Whether the safety rules and nodes other faults hold down apply (not to a rolling restart). */
  boolean guarded() {
    return true;
  }

  /** Whether its nodes count as down while it holds (not those of a capped link). */
  boolean takesDown() {
    return true;
  }
}
