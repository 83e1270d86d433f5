package org.solrscale.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Turns a fault's target into node ids: a node id ({@code solr2}, {@code zk1}), {@code
 * leader-of:shardN}, {@code replicas-of:shardN} (every node hosting the shard), {@code overseer},
 * or {@code random} (seeded, among the nodes the safety rules allow).
 */
final class Targets {
  private Targets() {}

  /** Thrown when a target names nothing or nothing may be taken down. */
  static final class NoTarget extends RuntimeException {
    NoTarget(String message) {
      super(message);
    }
  }

  /**
   * The nodes the fault kind named {@code kind} acts on (see {@link #resolve(NodeFault, String,
   * Topology, Set, Random, boolean)}).
   */
  static List<String> resolve(
      String kind, String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
    if (!(FaultActions.of(kind) instanceof NodeFault action)) {
      throw new NoTarget(kind + " takes no nodes of its own");
    }
    return resolve(action, target, t, down, rnd, unsafe);
  }

  /**
   * The nodes {@code action} acts on. {@code down} are the nodes other faults hold down now; unless
   * {@code unsafe}, the result must pass {@link SafetyRules}.
   */
  static List<String> resolve(
      NodeFault action, String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
    List<String> nodes = action.targets(target, t, down, rnd, unsafe);
    String kind = action.kind().id();
    boolean inherentlyUnsafe =
        action.kind().inherentlyUnsafe() || (target != null && target.startsWith("replicas-of:"));
    if (!unsafe && !inherentlyUnsafe && action.guarded()) {
      String why = SafetyRules.violation(t, down, nodes);
      if (why != null) {
        throw new NoTarget(
            kind
                + " "
                + String.join(",", nodes)
                + " refused: "
                + why
                + " (set unsafe: true to allow it)");
      }
    }
    for (String n : nodes) {
      if (down.contains(n) && action.guarded()) {
        throw new NoTarget(n + " is already down (another fault holds it)");
      }
    }
    return nodes;
  }

  /** A Solr node by id, leader-of:shardN, replicas-of:shardN, overseer or random. */
  static List<String> solr(
      String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
    if (target.equals("random")) {
      return List.of(pick(t.solrNodes(), t, down, rnd, unsafe, "Solr node"));
    }
    if (target.equals("overseer")) {
      if (t.overseer() == null) {
        throw new NoTarget("the overseer is not known (no Solr node answered OVERSEERSTATUS)");
      }
      return List.of(t.overseer());
    }
    if (target.startsWith("leader-of:")) {
      String shard = target.substring(10);
      t.nodesOf(shard);
      String leader = t.leaders().get(shard);
      if (leader == null) {
        throw new NoTarget(shard + " has no leader right now");
      }
      return List.of(leader);
    }
    if (target.startsWith("replicas-of:")) {
      return List.copyOf(t.nodesOf(target.substring(12)));
    }
    return named(target, t);
  }

  /** Nodes by id, comma-separated, each one of the cluster's. */
  static List<String> named(String target, Topology t) {
    List<String> out = new ArrayList<>();
    for (String id : target.split(",")) {
      if (!t.solrNodes().contains(id) && !t.zkNodes().contains(id)) {
        throw new NoTarget(
            "no node '"
                + id
                + "'; the nodes are "
                + String.join(", ", t.solrNodes())
                + ", "
                + String.join(", ", t.zkNodes()));
      }
      out.add(id);
    }
    return out;
  }

  /** One of {@code from} at random, among those the safety rules allow unless {@code unsafe}. */
  static String pick(
      List<String> from, Topology t, Set<String> down, Random rnd, boolean unsafe, String what) {
    List<String> ok = new ArrayList<>();
    for (String n : from) {
      if (!down.contains(n) && (unsafe || SafetyRules.violation(t, down, List.of(n)) == null)) {
        ok.add(n);
      }
    }
    if (ok.isEmpty()) {
      throw new NoTarget("no " + what + " can be taken down safely now");
    }
    return ok.get(rnd.nextInt(ok.size()));
  }

  /** The smallest majority of the ensemble, chosen at random among the servers still up. */
  static List<String> quorum(Topology t, Set<String> down, Random rnd) {
    int n = t.zkNodes().size();
    if (n == 0) {
      throw new NoTarget("the cluster has no ZooKeeper servers of its own");
    }
    List<String> up = new ArrayList<>(t.zkNodes());
    up.removeAll(down);
    Collections.shuffle(up, rnd);
    int need = n / 2 + 1 - (n - up.size());
    return List.copyOf(up.subList(0, Math.max(0, Math.min(need, up.size()))));
  }
}
