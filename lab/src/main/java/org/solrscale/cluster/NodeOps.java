package org.solrscale.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.Launcher;
import org.solrscale.runtime.NodeJar;
import org.solrscale.runtime.RuntimeResolver;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.NodeGroup;
import org.solrscale.spec.SolrscaleException;

/**
 * A cluster's nodes: starting them (all, several or one) and waiting until they serve, the
 * operations `solrscale node` offers on one, adding and removing Solr nodes, and their logs.
 * Obtained from {@link Cluster#nodes()}; what a node's host does goes through {@link HostOps}.
 */
public final class NodeOps {
  private final Cluster cluster;
  private final SolrscaleHome home;
  private final StateStore store;
  private final HostOps hosts;
  private final Object stateLock;
  private final Consumer<String> progress;

  NodeOps(
      Cluster cluster,
      SolrscaleHome home,
      StateStore store,
      HostOps hosts,
      Object stateLock,
      Consumer<String> progress) {
    this.cluster = cluster;
    this.home = home;
    this.store = store;
    this.hosts = hosts;
    this.stateLock = stateLock;
    this.progress = progress;
  }

  /** What nodes start from: the runtime, this machine's JDK, the node jar, the class archive. */
  record Launch(SolrRuntime runtime, Jdk jdk, Path nodeJar, ClassArchives.Archive archive) {}

  /** The JDK for this machine's nodes: the spec's java_home, else one found new enough. */
  static Jdk nodeJdk(ClusterSpec spec) {
    String version = spec.solrVersion();
    return Jdk.forNodes(
        Launcher.forVersion(version).minimumJava(), spec.javaHome(), "Solr " + version);
  }

  Launch launch(ClusterState state) {
    // the JDK is checked first: it costs nothing, and resolving a runtime may download much
    Jdk jdk =
        state.nodes().stream().anyMatch(n -> !n.remote()) ? nodeJdk(state.spec()) : Jdk.running();
    SolrRuntime runtime = new RuntimeResolver(home, progress).resolve(state.spec().solrVersion());
    Path nodeJar = NodeJar.extract(home, runtime.launcher().nodeJarResource());
    ClassArchives.Archive archive =
        ClassArchives.forLaunch(home, cluster.name(), runtime, jdk, nodeJar, progress);
    Launch launch = new Launch(runtime, jdk, nodeJar, archive);
    hosts.prepare(state, launch); // hosts checked and given the runtime (and archive), or nothing
    return launch;
  }

  /**
   * Starts every node that is not running. ZooKeeper servers all at once (a quorum needs a majority
   * up); Solr nodes at most {@link #startParallelism()} at a time, the next one as soon as one
   * serves: on a small machine JVMs warming up together only compete for the same cores.
   */
  ClusterState startAll(ClusterState state, long deadline) {
    Launch launch = null;
    for (NodeRole role : List.of(NodeRole.ZK, NodeRole.SOLR)) {
      if (role == NodeRole.SOLR && state.spec().tls()) {
        ClusterTls.ensure(
            store.clusterDir(cluster.name()),
            Path.of(System.getProperty("java.home"), "bin", "keytool"),
            state.nodes().stream().map(NodeState::host).distinct().toList());
        UrlScheme.https(state.zkHost());
      }
      if (role == NodeRole.SOLR && state.spec().basicAuth()) {
        SecurityJson.ensure(
            state.zkHost(),
            () -> ClusterCredentials.ensure(store.clusterDir(cluster.name())).securityJson(),
            deadline);
      }
      List<NodeState> toStart = new ArrayList<>();
      List<NodeState> starting = new ArrayList<>();
      for (NodeState node : state.nodes()) {
        if (node.role() != role) {
          continue;
        }
        ProcessState ps = hosts.state(node);
        if (ps == ProcessState.PAUSED) {
          hosts.resume(node);
          progress.accept(node.id() + " was paused: resumed");
          starting.add(node);
        } else if (ps.alive()) {
          starting.add(node);
        } else {
          toStart.add(node);
        }
      }
      if (!toStart.isEmpty()) {
        launch = launch == null ? launch(state) : launch;
      }
      int limit = role == NodeRole.ZK ? Integer.MAX_VALUE : startParallelism();
      while (!toStart.isEmpty() || !starting.isEmpty()) {
        List<NodeState> batch = new ArrayList<>();
        while (!toStart.isEmpty() && starting.size() + batch.size() < limit) {
          batch.add(toStart.remove(0));
        }
        // started together: on hosts each start is a round trip or two
        ClusterState before = state;
        Launch l = launch;
        List<RuntimeException> failed = Collections.synchronizedList(new ArrayList<>());
        // each start runs to its end even if `up` is interrupted meanwhile, so that every pid
        // launched is recorded below and stopped again by whoever abandons the cluster
        List<NodeState> started =
            Parallel.mapToEnd(
                batch,
                n -> {
                  try {
                    return hosts.start(before, n, l);
                  } catch (RuntimeException e) {
                    failed.add(e);
                    return null;
                  }
                });
        for (NodeState running : started) {
          if (running != null) { // recorded even when another failed: it must be stopped again
            state = state.with(running);
            starting.add(running);
            progress.accept("started " + describe(running));
          }
        }
        store.save(state);
        if (!failed.isEmpty()) {
          throw failed.get(0);
        }
        if (Thread.currentThread().isInterrupted()) {
          throw SolrscaleException.failed("interrupted");
        }
        ClusterState current = state;
        starting.removeIf(n -> checkServing(current, n, deadline));
        if (!toStart.isEmpty() || !starting.isEmpty()) {
          Waits.sleep(250);
        }
      }
    }
    return state;
  }

  /** How many Solr JVMs start at once: the number of cores (at least 2). */
  static int startParallelism() {
    return Math.max(2, Runtime.getRuntime().availableProcessors());
  }

  private static String describe(NodeState n) {
    return n.id()
        + " ("
        + (n.isZk() ? "ZooKeeper" : "Solr")
        + " on "
        + n.host()
        + ":"
        + n.port()
        + ", pid "
        + n.pid()
        + ")";
  }

  /** Polls the nodes until each serves; a node whose process dies fails at once with its log. */
  private void waitHealthy(ClusterState state, List<NodeState> nodes, long deadline) {
    List<NodeState> pending = new ArrayList<>(nodes);
    pending.removeIf(n -> checkServing(state, n, deadline));
    while (!pending.isEmpty()) {
      Waits.sleep(250);
      pending.removeIf(n -> checkServing(state, n, deadline));
    }
  }

  /** True once the node serves; fails if its process died or the deadline passed. */
  private boolean checkServing(ClusterState state, NodeState n, long deadline) {
    if (serving(
        n)) { // asked first: a node that serves runs, and asking its host costs a round trip
      progress.accept(n.id() + " is serving");
      return true;
    }
    if (!hosts.state(n).alive()) {
      throw SolrscaleException.failed(
          n.id()
              + " died while starting; see its logs under "
              + hosts.nodeDir(n).resolve("logs")
              + "\n"
              + hosts.logTail(n, 15).stripTrailing());
    }
    if (System.nanoTime() > deadline) {
      throw SolrscaleException.failed(
          n.id()
              + " was not serving before the timeout; see its logs "
              + "under "
              + hosts.nodeDir(n).resolve("logs")
              + "\n"
              + hosts.logTail(n, 15).stripTrailing());
    }
    return false;
  }

  private boolean serving(NodeState n) {
    return n.isZk()
        ? FourLetterWords.mode(n.host(), n.port()).isPresent()
        : SolrHealth.healthy(n, cluster.access());
  }

  void waitForLiveNodes(SolrAdmin admin, List<NodeState> nodes, long deadline) {
    List<String> expected =
        nodes.stream().filter(NodeState::isSolr).map(NodeState::solrNodeName).toList();
    while (true) {
      List<String> live;
      try {
        live = admin.clusterStatus().liveNodes();
      } catch (SolrscaleException e) {
        live = List.of();
      }
      if (live.containsAll(expected)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw SolrscaleException.failed(
            "Solr nodes missing from live_nodes after the timeout: "
                + expected.stream()
                    .filter(n -> !List.copyOf(liveOrEmpty(admin)).contains(n))
                    .toList());
      }
      Waits.sleep(250);
    }
  }

  private static List<String> liveOrEmpty(SolrAdmin admin) {
    try {
      return admin.clusterStatus().liveNodes();
    } catch (SolrscaleException e) {
      return List.of();
    }
  }

  // ---------------------------------------------------------------- one node

  /** The operations `solrscale node` offers on a single node. */
  public enum NodeOp {
    STOP,
    START,
    KILL,
    PAUSE,
    RESUME,
    RESTART
  }

  /** Applies one operation to one node; returns a one-line description of what happened. */
  public String node(NodeOp op, String id, Duration timeout) {
    ClusterState state = cluster.requireState();
    NodeState node = state.node(id);
    ProcessState ps = hosts.state(node);
    switch (op) {
      case STOP -> {
        boolean was = hosts.stop(node, Cluster.STOP_GRACE);
        saveNode(node.withPid(0));
        return was ? id + " stopped" : id + " was not running";
      }
      case KILL -> {
        if (!hosts.kill(node)) {
          return id + " was not running";
        }
        return id + " killed (SIGKILL, pid " + node.pid() + ")";
      }
      case PAUSE -> {
        hosts.pause(node);
        return id + " paused (SIGSTOP, pid " + node.pid() + ")";
      }
      case RESUME -> {
        hosts.resume(node);
        return id + " resumed (SIGCONT, pid " + node.pid() + ")";
      }
      case START -> {
        if (ps.alive()) {
          return id + " is already " + ps.label() + " (pid " + node.pid() + ")";
        }
        NodeState started = startOne(state, node, timeout);
        return id + " started (pid " + started.pid() + ")";
      }
      case RESTART -> {
        hosts.stop(node, Cluster.STOP_GRACE);
        NodeState started = startOne(state.with(node.withPid(0)), node.withPid(0), timeout);
        return id + " restarted (pid " + started.pid() + ")";
      }
      default -> throw new IllegalStateException(op.toString());
    }
  }

  private NodeState startOne(ClusterState state, NodeState node, Duration timeout) {
    Launch launch = launch(state);
    NodeState started = hosts.start(state, node, launch);
    state = saveNode(started);
    long deadline = System.nanoTime() + timeout.toNanos();
    waitHealthy(state, List.of(started), deadline);
    if (started.isSolr()) {
      try (SolrAdmin admin = new SolrAdmin(List.of(started), cluster.access())) {
        waitForLiveNodes(admin, List.of(started), deadline);
      }
    }
    return started;
  }

  /**
   * Records one node's new pid. Faults run on several threads at once: each save re-reads the state
   * under a lock, so one thread's pid never overwrites another's.
   */
  private ClusterState saveNode(NodeState changed) {
    synchronized (stateLock) {
      ClusterState fresh = cluster.requireState().with(changed);
      store.save(fresh);
      return fresh;
    }
  }

  /**
   * Starts several stopped nodes at once and waits until all serve (ZooKeeper servers that must
   * form a quorum together cannot be started one after the other).
   */
  public void startNodes(List<String> ids, Duration timeout) {
    ClusterState state = cluster.requireState();
    Launch launch = launch(state);
    List<NodeState> started = new ArrayList<>();
    for (String id : ids) {
      NodeState node = state.node(id);
      if (hosts.state(node).alive()) {
        continue;
      }
      NodeState s = hosts.start(state, node, launch);
      state = saveNode(s);
      started.add(s);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    waitHealthy(state, started, deadline);
    List<NodeState> solr = started.stream().filter(NodeState::isSolr).toList();
    if (!solr.isEmpty()) {
      try (SolrAdmin admin = new SolrAdmin(solr, cluster.access())) {
        waitForLiveNodes(admin, solr, deadline);
      }
    }
  }

  // ---------------------------------------------------------------- add / remove nodes

  /** Starts one more Solr node and moves replicas onto it (Solr's BalanceReplicas). */
  public NodeState addNode(Map<String, String> labels, String heap, Duration timeout) {
    ClusterState state = cluster.requireState();
    int next =
        state.solrNodes().stream()
                .map(n -> Integer.parseInt(n.id().substring(4)))
                .max(Integer::compare)
                .orElse(0)
            + 1;
    List<ClusterState> all = store.all();
    String host = ClusterPlan.leastLoadedHost(state);
    Ports ports = hosts.ports(state.spec(), host, all);
    Map<String, String> nodeLabels = new TreeMap<>();
    if (host != null) {
      nodeLabels.putAll(state.spec().hostNamed(host).labels());
    }
    nodeLabels.putAll(labels);
    NodeState node =
        new NodeState(
            "solr" + next,
            NodeRole.SOLR,
            hosts.address(state.spec(), host),
            ports.next(Cluster.SOLR_BASE_PORT + (host == null ? next - 1 : 0)),
            0,
            0,
            0,
            heap == null ? state.spec().heap() : heap,
            nodeLabels,
            host,
            state.spec().tls() ? "https" : null);
    List<NodeGroup> groups = new ArrayList<>(state.spec().nodes());
    groups.add(new NodeGroup(1, labels, heap));
    state = state.withSpec(state.spec().withNodes(groups)).with(node);
    store.save(state);
    NodeState started = startOne(state, node, timeout);
    state = cluster.requireState();
    List<NodeState> running = running(state);
    try (SolrAdmin admin = new SolrAdmin(running, state.solrNodes(), cluster.access())) {
      if (!admin.clusterStatus().collections().isEmpty()) {
        progress.accept("balancing replicas onto " + started.id());
        admin.balanceReplicas(running.stream().map(NodeState::solrNodeName).toList(), started);
        for (CollectionStatus c : admin.clusterStatus().collections()) {
          admin.waitForActive(c.name(), timeout);
        }
      }
    }
    return started;
  }

  /** Moves every replica off a Solr node (REPLACENODE), stops it and forgets it. */
  public void removeNode(String id, Duration timeout) {
    ClusterState state = cluster.requireState();
    NodeState node = state.node(id);
    if (!node.isSolr()) {
      throw SolrscaleException.usage(id + " is a ZooKeeper server; remove-node removes Solr nodes");
    }
    List<NodeState> others = running(state).stream().filter(n -> !n.id().equals(id)).toList();
    if (others.isEmpty()) {
      throw SolrscaleException.usage(
          "cannot remove " + id + ": no other running Solr node could take its replicas");
    }
    if (hosts.state(node) == ProcessState.RUNNING) {
      try (SolrAdmin admin = new SolrAdmin(others, state.solrNodes(), cluster.access())) {
        boolean hosts =
            admin.clusterStatus().collections().stream()
                .flatMap(c -> c.shards().stream())
                .flatMap(s -> s.replicas().stream())
                .anyMatch(r -> r.node().equals(node.solrNodeName()));
        if (hosts) {
          progress.accept("moving replicas off " + id + " (REPLACENODE)");
          admin.replaceNode(node.solrNodeName());
          for (CollectionStatus c : admin.clusterStatus().collections()) {
            admin.waitForActive(c.name(), timeout);
          }
        }
      }
    } else {
      progress.accept("warning: " + id + " is not running; its replicas are not moved");
    }
    hosts.stop(node, Cluster.STOP_GRACE);
    hosts.deleteNode(node);
    ClusterState after = state.without(id);
    List<NodeGroup> groups =
        after.solrNodes().stream().map(n -> new NodeGroup(1, n.labels(), n.heap())).toList();
    store.save(after.withSpec(after.spec().withNodes(groups)));
  }

  List<NodeState> running(ClusterState state) {
    return state.solrNodes().stream().filter(n -> hosts.state(n) == ProcessState.RUNNING).toList();
  }

  /** A node's main log (solr.log, zookeeper.log), or its console log; an unknown id is an error. */
  public Path logFile(String nodeId, boolean console) {
    return logFiles(List.of(nodeId), console).get(nodeId);
  }

  /**
   * The main (or console) log files of these nodes, each fetched first from its host when it runs
   * on one: all hosts at once.
   */
  public Map<String, Path> logFiles(List<String> nodeIds, boolean console) {
    ClusterState state = cluster.requireState();
    List<NodeState> nodes = nodeIds.stream().map(state::node).toList(); // unknown ids fail first
    Parallel.map(
        nodes,
        n -> {
          hosts.fetchLogs(n);
          return null;
        });
    Map<String, Path> files = new java.util.LinkedHashMap<>();
    for (NodeState n : nodes) {
      Path dir = hosts.nodeDir(n);
      files.put(n.id(), console ? NodeLogs.console(dir) : NodeLogs.main(dir, n));
    }
    return files;
  }

  /**
   * Copies every node's logs (main, console, GC) into {@code to}/NODE/, fetching them first from
   * the hosts of nodes that run on one.
   */
  public void copyLogs(Path to) {
    ClusterState state = cluster.requireState();
    fetchLogs();
    for (NodeState n : state.nodes()) {
      Path from = hosts.nodeDir(n).resolve("logs");
      if (!Files.isDirectory(from)) {
        continue;
      }
      Path dest = to.resolve(n.id());
      try (Stream<Path> files = Files.list(from)) {
        Files.createDirectories(dest);
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Files.copy(f, dest.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      } catch (IOException e) {
        throw SolrscaleException.environment(
            "cannot copy the logs of " + n.id() + " to " + dest + ": " + e.getMessage());
      }
    }
  }

  /** Copies every node's logs to this machine (from the hosts of those that run on one). */
  public void fetchLogs() {
    ClusterState state = cluster.requireState();
    Parallel.map(
        state.nodes(),
        n -> {
          hosts.fetchLogs(n);
          return null;
        });
  }
}
