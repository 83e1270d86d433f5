package org.solrscale.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.spec.SolrscaleException;

/** Runs nodes as processes on this machine: files, command line, start, signals, log tails. */
public final class LocalProvider {
  private final StateStore store;
  private final LocalProcesses processes = new LocalProcesses();

  public LocalProvider(StateStore store) {
    this.store = store;
  }

  public Path nodeDir(ClusterState cluster, NodeState node) {
    return store.nodeDir(cluster.name(), node.id());
  }

  /** Writes the node's files and starts its JVM; returns the node with its new pid. */
  public NodeState start(ClusterState cluster, NodeState node, SolrRuntime runtime, Jdk jdk,
      Path nodeJar) {
    Path dir = nodeDir(cluster, node);
    try {
      Files.createDirectories(dir.resolve("logs"));
      Files.createDirectories(dir.resolve("tmp"));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot create " + dir + ": " + e.getMessage());
    }
    List<String> cmd;
    if (node.isZk()) {
      NodeFiles.writeZk(dir, node, cluster);
      cmd = NodeCommand.zk(jdk, runtime, cluster, node, dir);
    } else {
      NodeFiles.writeSolr(dir);
      cmd = NodeCommand.solr(jdk, runtime, nodeJar, cluster, node, dir);
    }
    try {
      // one argument per line: what exactly ran, for people and for scripts
      Files.write(dir.resolve("command.txt"), cmd);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + dir.resolve("command.txt"));
    }
    long pid = processes.start(cmd, dir, dir.resolve("logs").resolve("console.log"));
    return node.withPid(pid);
  }

  public ProcessState state(ClusterState cluster, NodeState node) {
    return processes.state(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  /** Graceful stop (SIGTERM, then SIGKILL after the grace period). */
  public boolean stop(ClusterState cluster, NodeState node, Duration grace) {
    return processes.stop(node.pid(), LocalProcesses.marker(cluster.name(), node.id()), grace);
  }

  public boolean kill(ClusterState cluster, NodeState node) {
    return processes.kill(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  public void pause(ClusterState cluster, NodeState node) {
    processes.pause(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  public void resume(ClusterState cluster, NodeState node) {
    processes.resume(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  /** The last lines of the node's console and main logs, to show why it failed. */
  public String logTail(ClusterState cluster, NodeState node, int lines) {
    Path dir = nodeDir(cluster, node);
    StringBuilder sb = new StringBuilder();
    for (Path f : List.of(NodeLogs.console(dir), NodeLogs.main(dir, node))) {
      List<String> tail = NodeLogs.tail(f, lines * 2).stream().filter(l -> !l.isBlank()).toList();
      tail = tail.subList(Math.max(0, tail.size() - lines), tail.size());
      if (!tail.isEmpty()) {
        sb.append("--- last lines of ").append(f).append('\n');
        tail.forEach(l -> sb.append("  ").append(l).append('\n'));
      }
    }
    return sb.toString();
  }
}
