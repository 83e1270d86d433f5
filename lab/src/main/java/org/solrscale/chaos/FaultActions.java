package org.solrscale.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeOps;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.spec.FaultKind;

/**
 * The registry of what each fault kind does: one line per {@link FaultKind}, and the switch has no
 * default, so a kind without its class does not compile (nothing turns an unknown kind into another
 * one). The simple kinds are here; the others have a file each.
 */
final class FaultActions {
  private FaultActions() {}

  static FaultAction of(FaultKind kind) {
    return switch (kind) {
      case KILL -> new Kill(FaultKind.KILL, NodeOps.NodeOp.KILL);
      case STOP -> new Kill(FaultKind.STOP, NodeOps.NodeOp.STOP);
      case PAUSE -> new Pause();
      case ZK_KILL -> new ZkKill();
      case ZK_QUORUM -> new ZkQuorumFault();
      case ROLLING_RESTART -> new RollingRestart();
      case PARTITION -> new HostFaults.Partition();
      case BANDWIDTH -> new HostFaults.Bandwidth();
      case LATENCY -> new HostFaults.Slow(FaultKind.LATENCY);
      case LOSS -> new HostFaults.Slow(FaultKind.LOSS);
      case LINK_DOWN -> new HostFaults.LinkDown();
      case MONKEY -> new MonkeyFault();
    };
  }

  /**
   * The action of a kind named in a scenario or fault record; IllegalArgumentException when none.
   */
  static FaultAction of(String kind) {
    return of(
        FaultKind.named(kind)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "unknown fault '"
                            + kind
                            + "'; use one of "
                            + String.join(", ", FaultKind.names()))));
  }

  /** kill and stop: Solr nodes go down (SIGKILL, or a graceful stop) and are started again. */
  static final class Kill extends NodeFault {
    private final NodeOps.NodeOp op;

    Kill(FaultKind kind, NodeOps.NodeOp op) {
      super(kind);
      this.op = op;
    }

    @Override
    List<String> targets(String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
      return Targets.solr(target == null ? "random" : target, t, down, rnd, unsafe, kind().id());
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      nodes.forEach(id -> cluster.nodes().node(op, id, timeout));
    }

    /** With every replica of a shard down: plain queries fail, tolerant ones answer partially. */
    @Override
    public List<ChaosVerdict.Behaviour> expected(
        HistoryStats stats, FaultRecord f, Topology before, double from, double to) {
      return HistoryStats.shardDown(f, before) ? stats.shardDownBehaviours(from, to) : List.of();
    }
  }

  /** pause: Solr nodes frozen (SIGSTOP), resumed when healed. */
  static final class Pause extends NodeFault {
    Pause() {
      super(FaultKind.PAUSE);
    }

    @Override
    List<String> targets(String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
      return Targets.solr(target == null ? "random" : target, t, down, rnd, unsafe, kind().id());
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      nodes.forEach(id -> cluster.nodes().node(NodeOps.NodeOp.PAUSE, id, timeout));
    }

    @Override
    void heal(Cluster cluster, List<String> nodes, Duration timeout) {
      nodes.forEach(id -> cluster.nodes().node(NodeOps.NodeOp.RESUME, id, timeout));
    }
  }

  /** zk-kill: one ZooKeeper server killed, started again when healed. */
  static final class ZkKill extends NodeFault {
    ZkKill() {
      super(FaultKind.ZK_KILL);
    }

    @Override
    List<String> targets(String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
      return target == null || target.equals("random")
          ? List.of(Targets.pick(t.zkNodes(), t, down, rnd, unsafe, "ZooKeeper server", "zk-kill"))
          : Targets.named(target, t);
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      nodes.forEach(id -> cluster.nodes().node(NodeOps.NodeOp.KILL, id, timeout));
    }
  }

  /**
   * rolling-restart: every Solr node restarted in turn, each once the collections are active again.
   */
  static final class RollingRestart extends NodeFault {
    RollingRestart() {
      super(FaultKind.ROLLING_RESTART);
    }

    @Override
    List<String> targets(String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
      return t.solrNodes();
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      for (String id : nodes) {
        cluster.nodes().node(NodeOps.NodeOp.RESTART, id, timeout);
        cluster.collections().waitUntilHealthy(timeout);
      }
    }

    @Override
    void heal(Cluster cluster, List<String> nodes, Duration timeout) {
      // each node came back as part of the restart
    }

    @Override
    boolean holds() {
      return false;
    }

    @Override
    boolean guarded() {
      return false;
    }
  }
}
