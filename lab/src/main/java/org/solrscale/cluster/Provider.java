package org.solrscale.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;

/**
 * Where and how a cluster's node processes run: on this machine ({@link LocalProvider}) today, over
 * SSH on other hosts later. {@link Cluster} reaches node processes, their files and their hosts
 * only through it; it never assumes a node is local.
 */
public interface Provider {
  /** Writes the node's files and starts it; returns the node with its new pid. */
  NodeState start(ClusterState cluster, NodeState node, SolrRuntime runtime, Jdk jdk, Path nodeJar);

  /** Whether the node's process runs, is paused, or is gone. */
  ProcessState state(ClusterState cluster, NodeState node);

  /** Graceful stop (SIGTERM, then SIGKILL after {@code grace}); true if it was running. */
  boolean stop(ClusterState cluster, NodeState node, Duration grace);

  /** SIGKILL; true if it was running. */
  boolean kill(ClusterState cluster, NodeState node);

  /** SIGSTOP: a frozen JVM. */
  void pause(ClusterState cluster, NodeState node);

  /** SIGCONT. */
  void resume(ClusterState cluster, NodeState node);

  /** The last lines of the node's logs, to show why it failed. */
  String logTail(ClusterState cluster, NodeState node, int lines);

  /** The node's folder (its logs, command line and data), as this machine reaches it. */
  Path nodeDir(ClusterState cluster, NodeState node);

  /** Deletes what a node that never served keeps besides its logs (data, home, tmp). */
  void deleteData(ClusterState cluster, NodeState node);

  /** Deletes everything the node has on its host. */
  void deleteNode(ClusterState cluster, NodeState node);

  /** Free ports on {@code host}, avoiding those the {@code others} clusters recorded. */
  Ports ports(String host, List<ClusterState> others);

  /** What the host a node runs on is: CPU, cores, memory, OS. */
  HostFacts facts(String host);
}
