package org.solrscale.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.Launcher;
import org.solrscale.runtime.NodeJar;
import org.solrscale.runtime.RuntimeResolver;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.NodeGroup;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.SpecValidator;

/**
 * One named solrscale cluster, wherever its nodes run (this machine, SSH hosts, lab-network hosts):
 * bring it up, inspect it, change it, take it down. Placement and reconcile are {@link
 * ClusterPlan}'s, collections {@link ClusterCollections}', the status report {@link
 * ClusterStatus}'.
 */
public final class Cluster {
  static final int SOLR_BASE_PORT = ClusterPlan.SOLR_BASE_PORT;
  static final Duration STOP_GRACE = Duration.ofSeconds(60);
  private final Object stateLock = new Object();

  private final SolrscaleHome home;
  private final String name;
  private final StateStore store;
  private final Provider provider;
  private final Consumer<String> progress;
  private final ClusterCollections collections;

  /** A cluster whose nodes run on this machine. */
  public Cluster(SolrscaleHome home, String name, Consumer<String> progress) {
    this(home, name, progress, null);
  }

  /** A cluster whose nodes run where {@code provider} runs them (null: on this machine). */
  public Cluster(SolrscaleHome home, String name, Consumer<String> progress, Provider provider) {
    this.home = home;
    this.name = name;
    this.store = new StateStore(home);
    this.provider = provider != null ? provider : new Placed(home, store, name, progress);
    this.progress = progress;
    this.collections =
        new ClusterCollections(name, store, stateLock, this.provider, this::access, progress);
  }

  public String name() {
    return name;
  }

  public Optional<ClusterState> state() {
    return store.find(name);
  }

  /** True when there is anything of this cluster here: its state, or files down --purge deletes. */
  public boolean exists() {
    return store.find(name).isPresent() || store.hasFiles(name);
  }

  public ClusterState requireState() {
    return store.load(name);
  }

  /**
   * How solrscale talks to this cluster's Solr nodes: as its admin user when it was started with
   * BasicAuth, else without credentials.
   */
  public Access access() {
    return access(ClusterCredentials.ADMIN);
  }

  /** As {@link #access()}, as the given user (admin or reader) of a cluster with BasicAuth. */
  public Access access(String user) {
    boolean basic =
        store.find(name).map(s -> s.spec().basicAuth()).orElse(false)
            || ClusterCredentials.exist(store.clusterDir(name));
    Access access =
        basic ? ClusterCredentials.load(store.clusterDir(name)).access(user) : Access.NONE;
    boolean tls = store.find(name).map(s -> s.spec().tls()).orElse(false);
    if (tls) {
      ClusterTls t = ClusterTls.load(store.clusterDir(name));
      access = access.trusting(t.truststore(), t.secretForEnvironment());
    }
    return access;
  }

  // ---------------------------------------------------------------- up

  /**
   * Makes the cluster match the spec: creates it, or restarts whatever of it is not running, then
   * creates missing collections and waits until every replica is active.
   */
  public ClusterState up(ClusterSpec spec, Duration timeout) {
    for (String warning : SpecValidator.check(spec)) {
      progress.accept("warning: " + warning);
    }
    Optional<ClusterState> existing = store.find(name);
    boolean fresh = existing.isEmpty() && !store.hasFiles(name);
    ClusterState state;
    try {
      state = existing.map(e -> ClusterPlan.reconcile(name, e, spec)).orElseGet(() -> plan(spec));
    } catch (RuntimeException e) {
      if (fresh) { // e.g. a host that cannot be reached: leave nothing behind, no SSH connection
        provider.close(new ClusterState(name, spec, null, List.of()));
        store.delete(name);
      }
      throw e;
    }
    store.save(state);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      state = startAll(state, deadline);
      try (SolrAdmin admin = new SolrAdmin(state.solrNodes(), access())) {
        waitForLiveNodes(admin, state.solrNodes(), deadline);
        for (CollectionSpec c :
            ClusterPlan.merged(state.spec().collections(), spec.collections())) {
          collections.ensure(admin, c, deadline, spec.collections().contains(c));
        }
      }
      return collections.record(spec.collections());
    } catch (RuntimeException e) {
      if (existing.isEmpty()) {
        Interruption.cleanUp(this::abandon); // on Ctrl-C too: its waits must not fail at once
      }
      throw e;
    }
  }

  /**
   * A new cluster that failed to come up: stop whatever started and forget it, keeping only the
   * logs, so that fixing the cause and running up again starts clean.
   */
  private void abandon() {
    ClusterState state = store.find(name).orElse(null);
    if (state == null) {
      return;
    }
    boolean started = state.nodes().stream().anyMatch(n -> n.pid() > 0);
    if (!started) {
      provider.close(state);
      store.delete(name); // nothing ran, so there are no logs worth keeping
      return;
    }
    Parallel.map(state.nodes(), n -> provider.stop(state, n, Duration.ofSeconds(20)));
    for (NodeState n : state.nodes()) {
      provider.deleteData(state, n);
      try {
        provider.fetchLogs(state, n);
      } catch (SolrscaleException e) {
        // the logs stay on the host; the error that stopped up is what matters
      }
    }
    provider.close(state);
    store.forget(name);
    progress.accept("stopped what had started; logs kept under " + store.clusterDir(name));
  }

  /**
   * A new cluster's nodes, not yet started: every host is asked for its free ports and address,
   * then {@link ClusterPlan#place} places the nodes there.
   */
  private ClusterState plan(ClusterSpec spec) {
    List<ClusterState> others = store.all().stream().filter(c -> !c.name().equals(name)).toList();
    Map<String, Ports> portsByHost = new ConcurrentHashMap<>();
    Map<String, String> addresses = new ConcurrentHashMap<>();
    Function<String, Ports> ports =
        h -> portsByHost.computeIfAbsent(String.valueOf(h), k -> provider.ports(spec, h, others));
    Function<String, String> address =
        h -> addresses.computeIfAbsent(String.valueOf(h), k -> provider.address(spec, h));
    // every host asked at once (a round trip each), before the nodes are placed in order
    List<String> unfit =
        Parallel.map(
                spec.hosts(),
                h -> {
                  try {
                    ports.apply(h.ssh());
                    return null;
                  } catch (SolrscaleException e) {
                    return e.getMessage();
                  }
                })
            .stream()
            .filter(Objects::nonNull)
            .toList();
    if (!unfit.isEmpty()) {
      throw SolrscaleException.environment(String.join("\n", unfit)); // a line for each host
    }
    List<NodeState> nodes = ClusterPlan.place(spec, ports, address);
    Jdk jdk =
        nodes.stream().anyMatch(n -> !n.remote())
            ? nodeJdk(spec)
            : Jdk.running(); // hosts find their own
    return new ClusterState(name, spec, jdk.home().toString(), nodes);
  }

  private record Launch(SolrRuntime runtime, Jdk jdk, Path nodeJar) {}

  /** The JDK for this machine's nodes: the spec's java_home, else one found new enough. */
  private static Jdk nodeJdk(ClusterSpec spec) {
    String version = spec.solrVersion();
    return Jdk.forNodes(
        Launcher.forVersion(version).minimumJava(), spec.javaHome(), "Solr " + version);
  }

  private Launch launch(ClusterState state) {
    // the JDK is checked first: it costs nothing, and resolving a runtime may download much
    Jdk jdk =
        state.nodes().stream().anyMatch(n -> !n.remote()) ? nodeJdk(state.spec()) : Jdk.running();
    SolrRuntime runtime = new RuntimeResolver(home, progress).resolve(state.spec().solrVersion());
    Path nodeJar = NodeJar.extract(home, runtime.launcher().nodeJarResource());
    provider.prepare(state, runtime, nodeJar); // hosts checked and given the runtime, or nothing
    return new Launch(runtime, jdk, nodeJar);
  }

  /**
   * Starts every node that is not running. ZooKeeper servers all at once (a quorum needs a majority
   * up); Solr nodes at most {@link #startParallelism()} at a time, the next one as soon as one
   * serves: on a small machine JVMs warming up together only compete for the same cores.
   */
  private ClusterState startAll(ClusterState state, long deadline) {
    Launch launch = null;
    for (NodeRole role : List.of(NodeRole.ZK, NodeRole.SOLR)) {
      if (role == NodeRole.SOLR && state.spec().tls()) {
        ClusterTls.ensure(
            store.clusterDir(name),
            Path.of(System.getProperty("java.home"), "bin", "keytool"),
            state.nodes().stream().map(NodeState::host).distinct().toList());
        UrlScheme.https(state.zkHost());
      }
      if (role == NodeRole.SOLR && state.spec().basicAuth()) {
        SecurityJson.ensure(
            state.zkHost(),
            () -> ClusterCredentials.ensure(store.clusterDir(name)).securityJson(),
            deadline);
      }
      List<NodeState> toStart = new ArrayList<>();
      List<NodeState> starting = new ArrayList<>();
      for (NodeState node : state.nodes()) {
        if (node.role() != role) {
          continue;
        }
        ProcessState ps = provider.state(state, node);
        if (ps == ProcessState.PAUSED) {
          provider.resume(state, node);
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
        List<NodeState> started =
            Parallel.map(
                batch,
                n -> {
                  try {
                    return provider.start(before, n, l.runtime(), l.jdk(), l.nodeJar());
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
    if (!provider.state(state, n).alive()) {
      throw SolrscaleException.failed(
          n.id()
              + " died while starting; see its logs under "
              + provider.nodeDir(state, n).resolve("logs")
              + "\n"
              + provider.logTail(state, n, 15).stripTrailing());
    }
    if (System.nanoTime() > deadline) {
      throw SolrscaleException.failed(
          n.id()
              + " was not serving before the timeout; see its logs "
              + "under "
              + provider.nodeDir(state, n).resolve("logs")
              + "\n"
              + provider.logTail(state, n, 15).stripTrailing());
    }
    return false;
  }

  private boolean serving(NodeState n) {
    return n.isZk()
        ? FourLetterWords.mode(n.host(), n.port()).isPresent()
        : SolrHealth.healthy(n, access());
  }

  private void waitForLiveNodes(SolrAdmin admin, List<NodeState> nodes, long deadline) {
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

  // ---------------------------------------------------------------- status, collections

  /** What `status` shows: each node's process, and what the running Solr nodes report. */
  public ClusterReport status(boolean withDocs) {
    return ClusterStatus.of(name, requireState(), provider, this::access, withDocs);
  }

  /** The cluster's collections: create, delete, wait until healthy. */
  public ClusterCollections collections() {
    return collections;
  }

  // ---------------------------------------------------------------- down

  /** Stops Solr nodes, then ZooKeeper, by recorded pid; {@code purge} deletes all data. */
  public List<String> down(boolean purge) {
    Optional<ClusterState> found = store.find(name);
    if (found.isEmpty()) {
      if (purge && store.hasFiles(name)) {
        store.delete(name);
        return List.of();
      }
      throw store.noSuchCluster(
          name, "check --name (down --if-exists exits 0 for a cluster that " + "is not there)");
    }
    ClusterState state = found.get();
    List<String> stopped = new ArrayList<>();
    for (NodeRole role : List.of(NodeRole.SOLR, NodeRole.ZK)) {
      List<NodeState> nodes = state.nodes().stream().filter(n -> n.role() == role).toList();
      final ClusterState current = state;
      List<Boolean> results = Parallel.map(nodes, n -> provider.stop(current, n, STOP_GRACE));
      for (int i = 0; i < nodes.size(); i++) {
        if (results.get(i)) {
          stopped.add(nodes.get(i).id());
          progress.accept("stopped " + nodes.get(i).id());
        }
        state = state.with(nodes.get(i).withPid(0));
      }
    }
    if (purge) {
      for (NodeState n : state.nodes()) {
        provider.deleteNode(state, n);
      }
      provider.close(state);
      store.delete(name);
      progress.accept("deleted " + store.clusterDir(name));
    } else {
      final ClusterState current = state;
      Parallel.map(
          state.nodes(),
          n -> {
            try {
              provider.fetchLogs(current, n); // so that `logs` reads them after down
            } catch (SolrscaleException e) {
              progress.accept("warning: logs of " + n.id() + " not fetched: " + e.getMessage());
            }
            return null;
          });
      provider.close(state);
      store.save(state);
    }
    return stopped;
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
    ClusterState state = requireState();
    NodeState node = state.node(id);
    ProcessState ps = provider.state(state, node);
    switch (op) {
      case STOP -> {
        boolean was = provider.stop(state, node, STOP_GRACE);
        saveNode(node.withPid(0));
        return was ? id + " stopped" : id + " was not running";
      }
      case KILL -> {
        if (!provider.kill(state, node)) {
          return id + " was not running";
        }
        return id + " killed (SIGKILL, pid " + node.pid() + ")";
      }
      case PAUSE -> {
        provider.pause(state, node);
        return id + " paused (SIGSTOP, pid " + node.pid() + ")";
      }
      case RESUME -> {
        provider.resume(state, node);
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
        provider.stop(state, node, STOP_GRACE);
        NodeState started = startOne(state.with(node.withPid(0)), node.withPid(0), timeout);
        return id + " restarted (pid " + started.pid() + ")";
      }
      default -> throw new IllegalStateException(op.toString());
    }
  }

  private NodeState startOne(ClusterState state, NodeState node, Duration timeout) {
    Launch launch = launch(state);
    NodeState started =
        provider.start(state, node, launch.runtime(), launch.jdk(), launch.nodeJar());
    state = saveNode(started);
    long deadline = System.nanoTime() + timeout.toNanos();
    waitHealthy(state, List.of(started), deadline);
    if (started.isSolr()) {
      try (SolrAdmin admin = new SolrAdmin(List.of(started), access())) {
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
      ClusterState fresh = requireState().with(changed);
      store.save(fresh);
      return fresh;
    }
  }

  /**
   * Starts several stopped nodes at once and waits until all serve (ZooKeeper servers that must
   * form a quorum together cannot be started one after the other).
   */
  public void startNodes(List<String> ids, Duration timeout) {
    ClusterState state = requireState();
    Launch launch = launch(state);
    List<NodeState> started = new ArrayList<>();
    for (String id : ids) {
      NodeState node = state.node(id);
      if (provider.state(state, node).alive()) {
        continue;
      }
      NodeState s = provider.start(state, node, launch.runtime(), launch.jdk(), launch.nodeJar());
      state = saveNode(s);
      started.add(s);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    waitHealthy(state, started, deadline);
    List<NodeState> solr = started.stream().filter(NodeState::isSolr).toList();
    if (!solr.isEmpty()) {
      try (SolrAdmin admin = new SolrAdmin(solr, access())) {
        waitForLiveNodes(admin, solr, deadline);
      }
    }
  }

  // ---------------------------------------------------------------- add / remove nodes

  /** Starts one more Solr node and moves replicas onto it (Solr's BalanceReplicas). */
  public NodeState addNode(Map<String, String> labels, String heap, Duration timeout) {
    ClusterState state = requireState();
    int next =
        state.solrNodes().stream()
                .map(n -> Integer.parseInt(n.id().substring(4)))
                .max(Integer::compare)
                .orElse(0)
            + 1;
    List<ClusterState> all = store.all();
    String host = ClusterPlan.leastLoadedHost(state);
    Ports ports = provider.ports(state.spec(), host, all);
    Map<String, String> nodeLabels = new TreeMap<>();
    if (host != null) {
      nodeLabels.putAll(state.spec().hostNamed(host).labels());
    }
    nodeLabels.putAll(labels);
    NodeState node =
        new NodeState(
            "solr" + next,
            NodeRole.SOLR,
            provider.address(state.spec(), host),
            ports.next(SOLR_BASE_PORT + (host == null ? next - 1 : 0)),
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
    state = requireState();
    List<NodeState> running = running(state);
    try (SolrAdmin admin = new SolrAdmin(running, state.solrNodes(), access())) {
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
    ClusterState state = requireState();
    NodeState node = state.node(id);
    if (!node.isSolr()) {
      throw SolrscaleException.usage(id + " is a ZooKeeper server; remove-node removes Solr nodes");
    }
    List<NodeState> others = running(state).stream().filter(n -> !n.id().equals(id)).toList();
    if (others.isEmpty()) {
      throw SolrscaleException.usage(
          "cannot remove " + id + ": no other running Solr node could take its replicas");
    }
    if (provider.state(state, node) == ProcessState.RUNNING) {
      try (SolrAdmin admin = new SolrAdmin(others, state.solrNodes(), access())) {
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
    provider.stop(state, node, STOP_GRACE);
    provider.deleteNode(state, node);
    ClusterState after = state.without(id);
    List<NodeGroup> groups =
        after.solrNodes().stream().map(n -> new NodeGroup(1, n.labels(), n.heap())).toList();
    store.save(after.withSpec(after.spec().withNodes(groups)));
  }

  private List<NodeState> running(ClusterState state) {
    return state.solrNodes().stream()
        .filter(n -> provider.state(state, n) == ProcessState.RUNNING)
        .toList();
  }

  /** The ids of the cluster's nodes: ZooKeeper servers, then Solr nodes. */
  public List<String> nodeIds() {
    return requireState().nodes().stream().map(NodeState::id).toList();
  }

  /** A node's main log (solr.log, zookeeper.log), or its console log; an unknown id is an error. */
  public Path logFile(String nodeId, boolean console) {
    ClusterState state = requireState();
    NodeState node = state.node(nodeId);
    provider.fetchLogs(state, node); // from its host, when it runs on one
    Path dir = provider.nodeDir(state, node);
    return console ? NodeLogs.console(dir) : NodeLogs.main(dir, node);
  }

  /** What the host of the cluster's nodes is (CPU, cores, memory, OS), for a run's environment. */
  public HostFacts hostFacts() {
    ClusterState state = requireState();
    return provider.facts(state, state.nodes().get(0));
  }

  /**
   * Cuts the hosts off from the cluster's other hosts, both ways ({@code cut}), or joins them
   * again; this machine keeps its way to every host.
   */
  public void partition(List<String> hosts, boolean cut) {
    provider.partition(requireState(), hosts, cut);
  }

  /** Caps what the hosts send to {@code rate} (e.g. 1mbit); null lifts the cap. */
  public void capBandwidth(List<String> hosts, String rate) {
    provider.bandwidth(requireState(), hosts, rate);
  }

  /**
   * Drops the OS page cache on the hosts of these nodes, each host once (cold-cache measurements);
   * returns the hosts ("local" for this machine).
   */
  public List<String> dropCaches(List<String> nodeIds) {
    ClusterState state = requireState();
    Map<String, NodeState> byHost = new LinkedHashMap<>();
    for (String id : nodeIds) {
      NodeState n = state.node(id);
      byHost.putIfAbsent(n.where(), n);
    }
    for (NodeState n : byHost.values()) {
      provider.dropCaches(state, n);
      progress.accept("dropped the page cache on " + n.where());
    }
    return List.copyOf(byHost.keySet());
  }

  /** Takes the links of lab-network hosts down, or up again. */
  public void link(List<String> hosts, boolean up) {
    provider.link(requireState(), hosts, up);
  }

  /** What the host of a node is (this machine for a node without a host). */
  public HostFacts hostFacts(NodeState node) {
    return provider.facts(requireState(), node);
  }

  /** The absolute path of a Solr node's home on its host. */
  public String solrHome(NodeState node) {
    return provider.solrHome(requireState(), node);
  }

  /** The command (run here) that runs solrscale with {@code args} on the node's host. */
  public List<String> solrscaleCommand(NodeState node, List<String> args) {
    return provider.solrscaleCommand(requireState(), node, args);
  }

  /** Runs the JDK's jcmd against the node's JVM (by its recorded pid); returns its output. */
  public String jcmd(NodeState node, List<String> args) {
    return provider.jcmd(requireState(), node, args);
  }

  /** A folder on the node's host its JVM writes recordings into; null when it runs here. */
  public String scratchDir(NodeState node) {
    return provider.scratchDir(requireState(), node);
  }

  /**
   * Brings {@code from} (under the node's scratch folder) here to {@code to}, deleting it there.
   */
  public void collect(NodeState node, String from, Path to) {
    provider.collect(requireState(), node, from, to);
  }

  /** Brings one node's logs to this machine (from its host, when it runs on one). */
  public void fetchLogs(NodeState node) {
    provider.fetchLogs(requireState(), node);
  }

  /** The node's folder (logs, data) as this machine reaches it. */
  public Path nodeDir(NodeState node) {
    return provider.nodeDir(requireState(), node);
  }

  /** A file's text on the node's host (absolute path), or null when there is none. */
  public String readFile(NodeState node, String path) {
    return provider.readFile(requireState(), node, path);
  }

  /**
   * Copies every node's logs (main, console, GC) into {@code to}/NODE/, fetching them first from
   * the hosts of nodes that run on one.
   */
  public void copyLogs(Path to) {
    ClusterState state = requireState();
    fetchLogs();
    for (NodeState n : state.nodes()) {
      Path from = provider.nodeDir(state, n).resolve("logs");
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
    ClusterState state = requireState();
    Parallel.map(
        state.nodes(),
        n -> {
          provider.fetchLogs(state, n);
          return null;
        });
  }

  /** Whether a node's process runs, is paused, or is gone (checked by its recorded pid). */
  public ProcessState processState(NodeState node) {
    return provider.state(requireState(), node);
  }

  /** Running Solr nodes' base URLs, for clients (demo, index, bench). */
  public List<String> solrUrls() {
    ClusterState state = requireState();
    return running(state).stream().map(NodeState::baseUrl).toList();
  }
}
