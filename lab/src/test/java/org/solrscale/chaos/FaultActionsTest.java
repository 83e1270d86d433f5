package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.LocalRemote;
import org.solrscale.cluster.NodeRole;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.ProcessState;
import org.solrscale.cluster.StateStore;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.FaultKind;
import org.solrscale.spec.SolrscaleException;

/**
 * The fault registry: every kind has what it does, targets and help; nothing unknown slips through.
 * What the local actions do is checked on a planted cluster whose nodes are real processes (bash
 * carrying each node's marker, as a node's java does): each action takes its nodes and no other.
 */
class FaultActionsTest {
  static final String NAME = "planted";
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private final LocalRemote processes = new LocalRemote();
  private final List<NodeState> started = new ArrayList<>();
  @TempDir Path home;
  private Cluster cluster;

  /** A cluster of zk1-zk3 and solr1-solr3 whose every node is a sleeping bash with its marker. */
  private void plant() {
    SolrscaleHome h = new SolrscaleHome(home);
    StateStore store = new StateStore(h);
    int port = 40000;
    for (String id : List.of("zk1", "zk2", "zk3", "solr1", "solr2", "solr3")) {
      Path dir = store.nodeDir(NAME, id);
      dir.toFile().mkdirs();
      // two commands keep bash from exec'ing sleep in its place: the marker stays on the pid
      long pid =
          processes.start(
              List.of("bash", "-c", "sleep 120; exit 0", marker(id)),
              dir.toString(),
              dir.resolve("console.log").toString(),
              Map.of());
      NodeRole role = id.startsWith("zk") ? NodeRole.ZK : NodeRole.SOLR;
      started.add(new NodeState(id, role, "127.0.0.1", port++, 0, 0, pid, "64m", Map.of()));
    }
    store.save(new ClusterState(NAME, null, null, started));
    cluster = new Cluster(h, NAME, line -> {});
  }

  @AfterEach
  void cleanUp() {
    for (NodeState n : started) {
      if (state(n) != ProcessState.DEAD) { // by pid, and only while it is still the planted one
        ProcessHandle.of(n.pid()).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /** Each planted node's process state, read by pid and marker (not through the cluster). */
  private Map<String, ProcessState> states() {
    Map<String, ProcessState> out = new TreeMap<>();
    for (NodeState n : started) {
      out.put(n.id(), state(n));
    }
    return out;
  }

  private static String marker(String id) {
    return "-Dsolrscale.node=" + NAME + "/" + id;
  }

  /** From /proc: dead unless the pid carries the node's marker; paused when stopped. */
  private static ProcessState state(NodeState n) {
    Path proc = Path.of("/proc", Long.toString(n.pid()));
    try {
      String cmdline = Files.readString(proc.resolve("cmdline")).replace('\0', ' ');
      String stat = Files.readString(proc.resolve("stat"));
      char s = stat.charAt(stat.lastIndexOf(')') + 2);
      if (!cmdline.contains(marker(n.id())) || s == 'Z' || s == 'X') {
        return ProcessState.DEAD;
      }
      return s == 'T' ? ProcessState.PAUSED : ProcessState.RUNNING;
    } catch (IOException e) {
      return ProcessState.DEAD;
    }
  }

  private Map<String, ProcessState> allRunningBut(Map<String, ProcessState> changed) {
    Map<String, ProcessState> out = new TreeMap<>();
    started.forEach(n -> out.put(n.id(), ProcessState.RUNNING));
    out.putAll(changed);
    return out;
  }

  private NodeFault action(FaultKind k) {
    return (NodeFault) FaultActions.of(k);
  }

  @Test
  void killTakesItsNodesAtOnceAndNoOther() {
    plant();
    assertThat(states()).isEqualTo(allRunningBut(Map.of()));
    action(FaultKind.KILL).inject(cluster, List.of("solr2"), TIMEOUT);
    assertThat(states()).isEqualTo(allRunningBut(Map.of("solr2", ProcessState.DEAD)));
    // the cluster still records the pid: a killed node is dead, not stopped
    assertThat(cluster.requireState().node("solr2").pid()).isEqualTo(started.get(4).pid());
  }

  @Test
  void stopEndsItsNodesAndRecordsThemStopped() {
    plant();
    action(FaultKind.STOP).inject(cluster, List.of("solr1", "solr3"), TIMEOUT);
    assertThat(states())
        .isEqualTo(allRunningBut(Map.of("solr1", ProcessState.DEAD, "solr3", ProcessState.DEAD)));
    assertThat(cluster.requireState().node("solr1").pid()).isZero();
    assertThat(cluster.requireState().node("solr3").pid()).isZero();
    assertThat(cluster.requireState().node("solr2").pid()).isEqualTo(started.get(4).pid());
  }

  @Test
  void pauseFreezesItsNodesAndHealingResumesThem() {
    plant();
    NodeFault pause = action(FaultKind.PAUSE);
    pause.inject(cluster, List.of("solr3"), TIMEOUT);
    assertThat(states()).isEqualTo(allRunningBut(Map.of("solr3", ProcessState.PAUSED)));
    pause.heal(cluster, List.of("solr3"), TIMEOUT);
    assertThat(states()).isEqualTo(allRunningBut(Map.of()));
  }

  @Test
  void zkKillAndZkQuorumKillZooKeeperServersOnly() {
    plant();
    action(FaultKind.ZK_KILL).inject(cluster, List.of("zk1"), TIMEOUT);
    assertThat(states()).isEqualTo(allRunningBut(Map.of("zk1", ProcessState.DEAD)));
    action(FaultKind.ZK_QUORUM).inject(cluster, List.of("zk2", "zk3"), TIMEOUT);
    assertThat(states())
        .isEqualTo(
            allRunningBut(
                Map.of(
                    "zk1", ProcessState.DEAD, "zk2", ProcessState.DEAD, "zk3", ProcessState.DEAD)));
  }

  @Test
  void networkFaultsOnAClusterOnThisMachineAreRefusedAndTouchNothing() {
    plant();
    for (FaultKind k : List.of(FaultKind.PARTITION, FaultKind.BANDWIDTH, FaultKind.LINK_DOWN)) {
      assertThatThrownBy(() -> action(k).inject(cluster, List.of("solr1"), TIMEOUT))
          .as(k.id())
          .isInstanceOf(SolrscaleException.class)
          .hasMessageStartingWith(k.id() + " needs a cluster on");
    }
    assertThat(states()).isEqualTo(allRunningBut(Map.of()));
  }

  @Test
  void everyKindHasItsActionAndHelp() {
    Topology t = HostFaultsTest.onHosts();
    for (FaultKind k : FaultKind.values()) {
      FaultAction a = FaultActions.of(k);
      assertThat(k.help()).as(k.id()).isNotBlank();
      assertThat(FaultActions.of(k.id()).getClass()).isEqualTo(a.getClass());
      if (a instanceof NodeFault node) {
        assertThat(node.kind()).isEqualTo(k);
        assertThat(node.targets(null, t, Set.of(), new Random(1), true)).as(k.id()).isNotEmpty();
      }
    }
  }

  @Test
  void whatTheMonkeyDrawsTakesNodes() {
    for (String id : FaultKind.monkeyNames()) {
      assertThat(FaultActions.of(id)).as(id).isInstanceOf(NodeFault.class);
    }
    assertThat(FaultKind.monkeyNames()).doesNotContain("monkey", "rolling-restart");
  }

  @Test
  void anUnknownKindIsAnErrorNotAnotherKind() {
    assertThatThrownBy(() -> FaultActions.of("explode"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown fault 'explode'")
        .hasMessageContaining("kill, stop, pause");
    assertThatThrownBy(
            () ->
                Targets.resolve(
                    "explode",
                    null,
                    FaultSchedulingTest.topology(),
                    Set.of(),
                    new Random(1),
                    false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
