package org.solrscale.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.Interruption;
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

  private final String name;
  private final StateStore store;
  private final HostOps hosts;
  private final NodeOps nodes;
  private final Consumer<String> progress;
  private final ClusterCollections collections;

  /** A cluster whose nodes run on this machine, or on the hosts its spec names. */
  public Cluster(SolrscaleHome home, String name, Consumer<String> progress) {
    this.name = name;
    this.store = new StateStore(home);
    this.hosts = new HostOps(home, store, name, progress);
    this.nodes = new NodeOps(this, home, store, hosts, stateLock, progress);
    this.progress = progress;
    this.collections =
        new ClusterCollections(name, store, stateLock, hosts, nodes, this::access, progress);
  }

  /** What the hosts of the cluster's nodes do: signals, jcmd, files, logs, faults. */
  public HostOps hosts() {
    return hosts;
  }

  /** The cluster's nodes: start, stop, add, remove, their logs. */
  public NodeOps nodes() {
    return nodes;
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
        hosts.close(new ClusterState(name, spec, null, List.of()));
        store.delete(name);
      }
      throw e;
    }
    store.save(state);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      state = nodes.startAll(state, deadline);
      try (SolrAdmin admin = new SolrAdmin(state.solrNodes(), access())) {
        nodes.waitForLiveNodes(admin, state.solrNodes(), deadline);
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
      hosts.close(state);
      store.delete(name); // nothing ran, so there are no logs worth keeping
      return;
    }
    Parallel.map(state.nodes(), n -> hosts.stop(n, Duration.ofSeconds(20)));
    for (NodeState n : state.nodes()) {
      hosts.deleteData(n);
      try {
        hosts.fetchLogs(n);
      } catch (SolrscaleException e) {
        // the logs stay on the host; the error that stopped up is what matters
      }
    }
    hosts.close(state);
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
        h -> portsByHost.computeIfAbsent(String.valueOf(h), k -> hosts.ports(spec, h, others));
    Function<String, String> address =
        h -> addresses.computeIfAbsent(String.valueOf(h), k -> hosts.address(spec, h));
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
            ? NodeOps.nodeJdk(spec)
            : Jdk.running(); // hosts find their own
    return new ClusterState(name, spec, jdk.home().toString(), nodes);
  }

  // ---------------------------------------------------------------- status, collections

  /** What `status` shows: each node's process, and what the running Solr nodes report. */
  public ClusterReport status(boolean withDocs) {
    return ClusterStatus.of(name, requireState(), hosts, this::access, withDocs);
  }

  /** The cluster's collections: create, delete, wait until healthy. */
  public ClusterCollections collections() {
    return collections;
  }

  // ---------------------------------------------------------------- down

  /** What stopping one node did: whether it was running, or why it could not be stopped. */
  private record Stopping(boolean wasRunning, String error) {}

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
    List<String> failed = new ArrayList<>();
    try {
      // slow links a killed run left on the hosts: their rules and delayers, by their records
      for (String chain : hosts.healAllSlowLinks()) {
        progress.accept("removed slow link " + chain + " left by an earlier run");
      }
    } catch (SolrscaleException e) {
      failed.add("slow links: " + e.getMessage());
    }
    // each stopped node is said as it stops, with how many of all are done (a long fan-out)
    java.util.concurrent.atomic.AtomicInteger done =
        new java.util.concurrent.atomic.AtomicInteger();
    int all = state.nodes().size();
    for (NodeRole role : List.of(NodeRole.SOLR, NodeRole.ZK)) {
      List<NodeState> nodes = state.nodes().stream().filter(n -> n.role() == role).toList();
      // every node is tried; one that cannot be stopped keeps its pid in the state, the others not
      List<Stopping> results =
          Parallel.map(
              nodes,
              n -> {
                try {
                  Stopping r = new Stopping(hosts.stop(n, STOP_GRACE), null);
                  int k = done.incrementAndGet();
                  if (r.wasRunning()) {
                    progress.accept("stopped " + n.id() + " (" + k + " of " + all + ")");
                  }
                  return r;
                } catch (SolrscaleException e) {
                  done.incrementAndGet();
                  return new Stopping(false, e.getMessage());
                }
              });
      for (int i = 0; i < nodes.size(); i++) {
        Stopping r = results.get(i);
        if (r.error() != null) {
          failed.add(nodes.get(i).id() + ": " + r.error());
          continue;
        }
        if (r.wasRunning()) {
          stopped.add(nodes.get(i).id());
        }
        state = state.with(nodes.get(i).withPid(0));
      }
    }
    if (!failed.isEmpty()) { // nothing deleted under a process that still runs
      store.save(state);
      throw SolrscaleException.failed(
          "down stopped "
              + stopped.size()
              + " node(s) but not "
              + String.join("; ", failed)
              + "; their pids stay in the cluster's state, so down again retries them");
    }
    if (purge) {
      for (NodeState n : state.nodes()) {
        hosts.deleteNode(n);
      }
      hosts.close(state);
      store.delete(name);
      progress.accept("deleted " + store.clusterDir(name));
    } else {
      Parallel.map(
          state.nodes(),
          n -> {
            try {
              hosts.fetchLogs(n); // so that `logs` reads them after down
            } catch (SolrscaleException e) {
              progress.accept("warning: logs of " + n.id() + " not fetched: " + e.getMessage());
            }
            return null;
          });
      hosts.close(state);
      store.save(state);
    }
    return stopped;
  }

  /** The ids of the cluster's nodes: ZooKeeper servers, then Solr nodes. */
  public List<String> nodeIds() {
    return requireState().nodes().stream().map(NodeState::id).toList();
  }

  /** Running Solr nodes' base URLs, for clients (demo, index, bench). */
  public List<String> solrUrls() {
    ClusterState state = requireState();
    return nodes.running(state).stream().map(NodeState::baseUrl).toList();
  }
}
