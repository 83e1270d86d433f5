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

  /**
   * Thrown when a target names nothing or nothing may be taken down. A refusal by the safety rules
   * says what the fault needs ({@code needs}) and takes the way to allow it in the words the user
   * wrote the fault in ({@link #say}): {@code --unsafe} on the command line, {@code unsafe: true}
   * in a scenario.
   */
  static final class NoTarget extends RuntimeException {
    private final String kind;
    private final String needs;
    private final boolean now;

    /** A target that names nothing there is: a mistake whenever it is resolved. */
    NoTarget(String message) {
      this(message, null, null, false);
    }

    private NoTarget(String message, String kind, String needs, boolean now) {
      super(message);
      this.kind = kind;
      this.needs = needs;
      this.now = now;
    }

    /** A target that names nothing at this moment but may later (a shard between leaders). */
    static NoTarget now(String message) {
      return new NoTarget(message, null, null, true);
    }

    /** Whether the target may name something at another moment. */
    boolean onlyNow() {
      return now;
    }

    /** A refusal by the safety rules: {@code what} refused, because {@code v}. */
    static NoTarget refused(String what, String kind, SafetyRules.Violation v) {
      return new NoTarget(what + " refused: " + v.reason(), kind, v.needs(), false);
    }

    /** Whether the safety rules refused it (rather than the target naming nothing). */
    boolean safety() {
      return needs != null;
    }

    /** The whole message, with the fix in the user's words ({@code unsafe}: "use --unsafe"). */
    String say(String unsafe) {
      return safety()
          ? getMessage() + "; " + kind + " needs " + needs + ", or " + unsafe
          : getMessage();
    }
  }

  /** The fix for a safety refusal in a scenario's words. */
  static final String SCENARIO_UNSAFE = "set unsafe: true";

  /** The fix for a safety refusal on the command line. */
  static final String CLI_UNSAFE = "use --unsafe";

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
      SafetyRules.Violation why = SafetyRules.check(t, down, nodes);
      if (why != null) {
        throw NoTarget.refused(kind + " " + String.join(",", nodes), kind, why);
      }
    }
    for (String n : nodes) {
      if (down.contains(n) && action.guarded()) {
        throw NoTarget.now(n + " is already down (another fault holds it)");
      }
    }
    return nodes;
  }

  /** A Solr node by id, leader-of:shardN, replicas-of:shardN, overseer or random. */
  static List<String> solr(
      String target, Topology t, Set<String> down, Random rnd, boolean unsafe, String kind) {
    if (target.equals("random")) {
      return List.of(pick(t.solrNodes(), t, down, rnd, unsafe, "Solr node", kind));
    }
    if (target.equals("overseer")) {
      if (t.overseer() == null) {
        throw NoTarget.now("the overseer is not known (no Solr node answered OVERSEERSTATUS)");
      }
      return List.of(t.overseer());
    }
    if (target.startsWith("leader-of:")) {
      String shard = target.substring(10);
      t.nodesOf(shard);
      String leader = t.leaders().get(shard);
      if (leader == null) {
        throw NoTarget.now(shard + " has no leader right now");
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

  /**
   * One of {@code from} at random, among those the safety rules allow unless {@code unsafe}; when
   * none is, a safety refusal of the fault {@code kind} that names why for the first node.
   */
  static String pick(
      List<String> from,
      Topology t,
      Set<String> down,
      Random rnd,
      boolean unsafe,
      String what,
      String kind) {
    List<String> ok = new ArrayList<>();
    SafetyRules.Violation first = null;
    for (String n : from) {
      if (down.contains(n)) {
        continue;
      }
      SafetyRules.Violation v = unsafe ? null : SafetyRules.check(t, down, List.of(n));
      if (v == null) {
        ok.add(n);
      } else if (first == null) {
        first =
            new SafetyRules.Violation(
                "no " + what + " can be taken down safely now (" + n + ": " + v.reason() + ")",
                v.needs());
      }
    }
    if (ok.isEmpty()) {
      if (first != null) {
        throw NoTarget.refused(kind + " random", kind, first);
      }
      throw NoTarget.now("no " + what + " can be taken down now: all are down");
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
