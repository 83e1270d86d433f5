package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/**
 * The host operations on this machine, through the host agent over a {@link LocalRemote}: real
 * processes (bash running sleep) started, signalled and stopped by pid, and real files.
 */
class HostOpsTest {
  @TempDir Path dir;
  private HostOps hosts;
  private StateStore store;
  private final List<Long> started = new ArrayList<>();

  @BeforeEach
  void setUp() {
    SolrscaleHome home = new SolrscaleHome(dir.resolve("home"));
    store = new StateStore(home);
    hosts = new HostOps(home, store, "unit", s -> {});
  }

  @AfterEach
  void stopByPid() {
    for (long pid : started) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).join());
    }
  }

  private static NodeState node(String id, long pid) {
    return new NodeState(
        id, NodeRole.SOLR, "127.0.0.1", 8983, 0, 0, pid, "1g", Map.of(), null, null);
  }

  /** A process carrying the node's marker as a real node does (bash's $0), started here. */
  private NodeState sleeper(String id) {
    // two commands keep bash from exec'ing sleep in its place
    List<String> cmd = List.of("bash", "-c", "sleep 60; exit 0", HostOps.marker("unit", id));
    Path nodeDir = store.nodeDir("unit", id);
    long pid =
        new LocalRemote()
            .start(
                cmd, nodeDir.toString(), nodeDir.resolve("logs/console.log").toString(), Map.of());
    started.add(pid);
    return node(id, pid);
  }

  @Test
  void pauseResumeAndGracefulStopByPid() {
    NodeState n = sleeper("a");
    assertThat(hosts.state(n)).isEqualTo(ProcessState.RUNNING);
    hosts.pause(n);
    assertThat(hosts.state(n)).isEqualTo(ProcessState.PAUSED);
    hosts.resume(n);
    assertThat(hosts.state(n)).isEqualTo(ProcessState.RUNNING);
    hosts.pause(n);
    assertThat(hosts.stop(n, Duration.ofSeconds(10))).isTrue();
    assertThat(hosts.state(n)).isEqualTo(ProcessState.DEAD);
    // our child until the JVM reaps it: wait for that instead of racing the reaper
    ProcessHandle.of(n.pid()).ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).join());
    assertThat(ProcessHandle.of(n.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(hosts.stop(n, Duration.ofSeconds(1))).isFalse();
  }

  @Test
  void aJustStartedProcessIsNeverTakenForDead() {
    // right after start the pid goes through Java's spawn helper and setsid before it is the node
    for (int i = 0; i < 10; i++) {
      NodeState n = sleeper("fresh" + i);
      assertThat(hosts.state(n)).as("attempt %d", i).isEqualTo(ProcessState.RUNNING);
      assertThat(hosts.kill(n)).isTrue();
    }
  }

  @Test
  void killReturnsOnceTheProcessIsGone() {
    NodeState n = sleeper("b");
    assertThat(hosts.kill(n)).isTrue();
    assertThat(hosts.state(n)).isEqualTo(ProcessState.DEAD);
    assertThat(hosts.kill(n)).isFalse();
    assertThatThrownBy(() -> hosts.pause(n))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage("process " + n.pid() + " (solrscale.node=unit/b) is not running");
  }

  @Test
  void aPidWithoutTheNodesMarkerIsNeverTouched() {
    NodeState n = sleeper("c");
    NodeState other = node("someone-else", n.pid());
    assertThat(hosts.state(other)).isEqualTo(ProcessState.DEAD);
    assertThat(hosts.stop(other, Duration.ofSeconds(1))).isFalse();
    assertThat(hosts.kill(other)).isFalse();
    assertThat(hosts.state(n)).isEqualTo(ProcessState.RUNNING);
    assertThat(hosts.state(node("c", 0))).isEqualTo(ProcessState.STOPPED);
  }

  @Test
  void jcmdOfANodeNotRunningSaysSoInOneLine() {
    assertThatThrownBy(() -> hosts.jcmd(node("d", 0), List.of("JFR.check")))
        .hasMessage("d is not running; start it (solrscale node start) or leave --profile out");
  }

  @Test
  void jcmdReachesTheJvmOfANodeByItsPid() {
    // this test's own JVM stands in for a node: its command line carries no marker, so a node
    // with its pid is not ours and jcmd is refused before it runs
    NodeState me = node("e", ProcessHandle.current().pid());
    assertThatThrownBy(() -> hosts.jcmd(me, List.of("VM.version")))
        .hasMessageContaining("e is not running");
  }

  @Test
  void filesLogTailsAndLogsOfANodeHere() throws Exception {
    NodeState n = node("f", 0);
    Path logs = hosts.nodeDir(n).resolve("logs");
    Files.createDirectories(logs);
    Files.writeString(logs.resolve("console.log"), "one\n\ntwo\nthree\n");
    Files.writeString(logs.resolve("solr.log"), "boot\n");
    assertThat(hosts.logTail(n, 2))
        .isEqualTo(
            "--- last lines of "
                + logs.resolve("console.log").toAbsolutePath()
                + "\n  two\n  three\n--- last lines of "
                + logs.resolve("solr.log").toAbsolutePath()
                + "\n  boot\n");
    String file = logs.resolve("solr.log").toAbsolutePath().toString();
    assertThat(hosts.readFile(n, file)).isEqualTo("boot\n");
    assertThat(hosts.readFile(n, file + ".missing")).isNull();
    hosts.fetchLogs(n); // where they already are: nothing moves
    assertThat(Files.readString(logs.resolve("solr.log"))).isEqualTo("boot\n");
    assertThat(hosts.solrHome(n)).isEqualTo(hosts.nodeDir(n).toAbsolutePath() + "/home");
    assertThat(hosts.scratchDir(n)).isNull();
    hosts.deleteNode(n);
    assertThat(hosts.nodeDir(n)).doesNotExist();
  }

  @Test
  void theFactsOfANodeHereAreThisMachines() {
    assertThat(hosts.facts(node("g", 0)).cores())
        .isEqualTo(Runtime.getRuntime().availableProcessors());
  }
}
