package org.solrscale.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;

/**
 * The provider of a cluster whose nodes may run here or on hosts: each node goes to the provider of
 * where it runs ({@link LocalProvider} for a node without a host, {@link SshProvider} for one
 * with), made when first needed.
 */
final class Placed implements Provider {
  private final LocalProvider local;
  private final SolrscaleHome home;
  private final StateStore store;
  private final String cluster;
  private final Consumer<String> progress;
  private SshProvider ssh;

  Placed(SolrscaleHome home, StateStore store, String cluster, Consumer<String> progress) {
    this.local = new LocalProvider(store);
    this.home = home;
    this.store = store;
    this.cluster = cluster;
    this.progress = progress;
  }

  synchronized SshProvider ssh() {
    if (ssh == null) {
      ssh = new SshProvider(home, store, cluster, progress);
    }
    return ssh;
  }

  private Provider of(NodeState node) {
    return node.remote() ? ssh() : local;
  }

  /** The provider of a cluster's hosts: SSH when any node runs on one (this machine's refuses). */
  private Provider onHosts(ClusterState c) {
    return c.nodes().stream().anyMatch(NodeState::remote) ? ssh() : local;
  }

  private Provider of(String host) {
    return host != null ? ssh() : local;
  }

  @Override
  public void prepare(ClusterState c, SolrRuntime runtime, Path nodeJar) {
    if (c.nodes().stream().anyMatch(NodeState::remote)) {
      ssh().prepare(c, runtime, nodeJar);
    }
  }

  @Override
  public void fetchLogs(ClusterState c, NodeState node) {
    of(node).fetchLogs(c, node);
  }

  @Override
  public void partition(ClusterState c, List<String> hosts, boolean cut) {
    onHosts(c).partition(c, hosts, cut);
  }

  @Override
  public void bandwidth(ClusterState c, List<String> hosts, String rate) {
    onHosts(c).bandwidth(c, hosts, rate);
  }

  @Override
  public void link(ClusterState c, List<String> hosts, boolean up) {
    onHosts(c).link(c, hosts, up);
  }

  @Override
  public void dropCaches(ClusterState c, NodeState node) {
    of(node).dropCaches(c, node);
  }

  @Override
  public void close(ClusterState c) {
    if (ssh != null) {
      ssh.close(c);
    }
  }

  @Override
  public NodeState start(ClusterState c, NodeState node, SolrRuntime runtime, Jdk jdk, Path jar) {
    return of(node).start(c, node, runtime, jdk, jar);
  }

  @Override
  public ProcessState state(ClusterState c, NodeState node) {
    return of(node).state(c, node);
  }

  @Override
  public boolean stop(ClusterState c, NodeState node, Duration grace) {
    return of(node).stop(c, node, grace);
  }

  @Override
  public boolean kill(ClusterState c, NodeState node) {
    return of(node).kill(c, node);
  }

  @Override
  public void pause(ClusterState c, NodeState node) {
    of(node).pause(c, node);
  }

  @Override
  public void resume(ClusterState c, NodeState node) {
    of(node).resume(c, node);
  }

  @Override
  public String logTail(ClusterState c, NodeState node, int lines) {
    return of(node).logTail(c, node, lines);
  }

  @Override
  public String solrHome(ClusterState c, NodeState node) {
    return of(node).solrHome(c, node);
  }

  @Override
  public List<String> solrscaleCommand(ClusterState c, NodeState node, List<String> args) {
    return of(node).solrscaleCommand(c, node, args);
  }

  @Override
  public String jcmd(ClusterState c, NodeState node, List<String> args) {
    return of(node).jcmd(c, node, args);
  }

  @Override
  public String scratchDir(ClusterState c, NodeState node) {
    return of(node).scratchDir(c, node);
  }

  @Override
  public void collect(ClusterState c, NodeState node, String from, Path to) {
    of(node).collect(c, node, from, to);
  }

  @Override
  public String readFile(ClusterState c, NodeState node, String path) {
    return of(node).readFile(c, node, path);
  }

  @Override
  public Path nodeDir(ClusterState c, NodeState node) {
    return of(node).nodeDir(c, node);
  }

  @Override
  public void deleteData(ClusterState c, NodeState node) {
    of(node).deleteData(c, node);
  }

  @Override
  public void deleteNode(ClusterState c, NodeState node) {
    of(node).deleteNode(c, node);
  }

  @Override
  public Ports ports(ClusterSpec spec, String host, List<ClusterState> others) {
    return of(host).ports(spec, host, others);
  }

  @Override
  public String address(ClusterSpec spec, String host) {
    return of(host).address(spec, host);
  }

  @Override
  public HostFacts facts(ClusterState c, NodeState node) {
    return of(node).facts(c, node);
  }
}
