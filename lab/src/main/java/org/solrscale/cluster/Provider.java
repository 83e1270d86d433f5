package org.solrscale.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * Where and how a cluster's node processes run: on this machine ({@link LocalProvider}) or on hosts
 * over SSH ({@link SshProvider}); {@link Placed} sends each node to the one it runs on. {@link
 * Cluster} reaches node processes, their files and their hosts only through it; it never assumes a
 * node is local.
 */
public interface Provider {
  /**
   * Before nodes start: checks every host the cluster's nodes run on (reachable, Java of at least
   * {@code minimumJava}, disk, the recorded ports free) and puts the runtime and the node jar
   * there. Fails with one line per host that is not fit, before anything starts.
   */
  default void prepare(ClusterState cluster, SolrRuntime runtime, Path nodeJar) {}

  /**
   * Brings the node's logs to {@link #nodeDir} on this machine (a no-op where they already are).
   */
  default void fetchLogs(ClusterState cluster, NodeState node) {}

  /**
   * Cuts {@code hosts} off from the cluster's other hosts ({@code cut}), or joins them again. Only
   * a provider of hosts can.
   */
  default void partition(ClusterState cluster, List<String> hosts, boolean cut) {
    throw SolrscaleException.usage(
        "partition needs a cluster on hosts (up --hosts); this one runs on this machine");
  }

  /** Caps what {@code hosts} send to {@code rate} (e.g. 1mbit), or lifts the cap (null). */
  default void bandwidth(ClusterState cluster, List<String> hosts, String rate) {
    throw SolrscaleException.usage(
        "bandwidth needs a cluster on hosts (up --hosts); this one runs on this machine");
  }

  /** Takes the links of lab-network {@code hosts} down, or up again. */
  default void link(ClusterState cluster, List<String> hosts, boolean up) {
    throw SolrscaleException.usage(
        "link-down needs a cluster on lab-network hosts (net up, then up --hosts)");
  }

  /** Drops the OS page cache of the host {@code node} runs on (needs root there). */
  void dropCaches(ClusterState cluster, NodeState node);

  /**
   * Runs the JDK's {@code jcmd} against the node's JVM with {@code args} (e.g. JFR.start ...) and
   * returns what it printed; fails in one line when it cannot (no jcmd, the JVM is gone).
   */
  String jcmd(ClusterState cluster, NodeState node, List<String> args);

  /**
   * A folder on the node's host its JVM may write a recording into, or null when the node runs on
   * this machine (it writes straight into the results directory then).
   */
  default String scratchDir(ClusterState cluster, NodeState node) {
    return null;
  }

  /**
   * Brings the folder {@code from} (under {@link #scratchDir}) on the node's host to {@code to} on
   * this machine, then deletes it there.
   */
  default void collect(ClusterState cluster, NodeState node, String from, Path to) {}

  /** Lets go of what the provider holds for the cluster (e.g. SSH connections). */
  default void close(ClusterState cluster) {}

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

  /**
   * Free ports where a node of {@code spec} runs: on host {@code ssh} (null: this machine, at the
   * spec's address), avoiding those the {@code others} clusters recorded there.
   */
  Ports ports(ClusterSpec spec, String ssh, List<ClusterState> others);

  /** The address nodes on host {@code ssh} (null: this machine) bind to and are reached at. */
  String address(ClusterSpec spec, String ssh);

  /** What the host a node runs on is: CPU, cores, memory, OS. */
  HostFacts facts(ClusterState cluster, NodeState node);

  /** The absolute path of the node's Solr home on its host (where its cores and seeds go). */
  String solrHome(ClusterState cluster, NodeState node);

  /**
   * The command (to run here) that runs solrscale itself with {@code args} on the node's host: this
   * JVM's java and jar here, or over ssh with the jar put on the host once.
   */
  List<String> solrscaleCommand(ClusterState cluster, NodeState node, List<String> args);

  /** The text of a file on the node's host (absolute, under its folder), or null when absent. */
  String readFile(ClusterState cluster, NodeState node, String path);
}
