package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Await;

/**
 * The cluster of an IT class, as a JUnit extension: `up --name NAME FLAGS...` before the class's
 * first test (after removing what an aborted run left), `down --purge` after its last, and then the
 * check that no process it started is left: every pid the cluster's state recorded while the class
 * ran (a restarted node has a new one) and every descendant of those, by process handle, so a pid
 * the system reused for something else is not mistaken for ours.
 *
 * <pre>
 * {@literal @}RegisterExtension static final ItCluster CLUSTER = new ItCluster("it-x", "--nodes", "2");
 * </pre>
 */
final class ItCluster implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);
  private final String name;
  private final List<String> flags;

  /** Every node process seen, by "node id, pid", with its handle; then their descendants. */
  private final Map<String, ProcessHandle> seen = new LinkedHashMap<>();

  private Cli.Result up;

  ItCluster(String name, String... flags) {
    this.name = name;
    this.flags = List.of(flags);
  }

  String name() {
    return name;
  }

  Cluster cluster() {
    return new Cluster(SolrscaleHome.fromEnvironment(), name, System.err::println);
  }

  /** What `up` printed. */
  Cli.Result upResult() {
    return up;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster().state().ifPresent(s -> cluster().down(true)); // a leftover of an aborted run
    List<String> args = new ArrayList<>(List.of("up", "--name", name));
    args.addAll(flags);
    up = Cli.run(args.toArray(String[]::new));
    record();
    assertThat(up.exitCode()).as(up.err()).isZero();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    record();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    record();
    // the descendants before down: once a node is gone, its children are re-parented
    for (ProcessHandle h : List.copyOf(seen.values())) {
      h.descendants().forEach(d -> seen.putIfAbsent("child " + d.pid() + " of " + h.pid(), d));
    }
    if (cluster().state().isPresent()) {
      cluster().down(true);
    }
    Await.value(
        "processes of cluster " + name + " still alive after down",
        EXIT_TIMEOUT,
        this::alive,
        List::isEmpty);
  }

  /** The processes seen that have not exited, by what they were. */
  private synchronized List<String> alive() {
    return seen.entrySet().stream()
        .filter(e -> !exited(e.getValue()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Adds the pid of every node the state records now (0: not running). */
  synchronized void record() {
    cluster()
        .state()
        .ifPresent(
            s -> {
              for (NodeState n : s.nodes()) {
                if (n.pid() > 0) {
                  ProcessHandle.of(n.pid())
                      .ifPresent(h -> seen.putIfAbsent(n.id() + " " + n.pid(), h));
                }
              }
            });
  }

  /** Gone, or a zombie its parent (this JVM, which started it) has not reaped yet. */
  static boolean exited(ProcessHandle h) {
    if (!h.isAlive()) {
      return true;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state == 'Z' || state == 'X';
    } catch (IOException e) {
      return true;
    }
  }
}
