package org.solrscale.distribute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.LiveStatus;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.Parallel;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.cluster.ShardStatus;
import org.solrscale.cluster.SolrAdmin;
import org.solrscale.cluster.SolrHttp;
import org.solrscale.results.Distribution;
import org.solrscale.results.Distribution.ShardRun;
import org.solrscale.results.Distribution.Target;
import org.solrscale.spec.SolrscaleException;

/**
 * Adds N replicas of a collection's shards and brings them to active. With {@code solr}, Solr's own
 * ADDREPLICA (every replica copies the index from its leader). With {@code chain} or {@code tree},
 * the leader's latest hard commit is pinned (a named snapshot), its files go peer to peer into each
 * new replica's data directory under the target node's Solr home (relays on the target hosts, the
 * source on the leader's), and ADDREPLICA with that {@code dataDir} lets Solr's recovery find the
 * replica in sync: only what the leader committed meanwhile moves. What Solr itself downloaded is
 * read from the replica's {@code replication.properties} (written only when its IndexFetcher
 * fetched something).
 */
public final class Distributor {
  /** How the index reaches the new replicas. */
  public enum Method {
    CHAIN,
    TREE,
    SOLR;

    public static Method parse(String s) {
      try {
        return valueOf(s.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw SolrscaleException.usage("--method '" + s + "' is not one of chain, tree, solr");
      }
    }

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How a shard's new replicas are handed to Solr: {@code together}, one ADDREPLICA for all of them
   * (a replica count with createNodeSet: Solr creates their cores at once); {@code each}, one
   * ADDREPLICA per replica, sent at once, which Solr runs one after another (its per-shard lock).
   */
  public enum Create {
    TOGETHER,
    EACH;

    public static Create parse(String s) {
      try {
        return valueOf(s.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw SolrscaleException.usage("--create '" + s + "' is not one of together, each");
      }
    }

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What to distribute. {@code shards} and {@code nodes} null: all of them. */
  public record Options(
      String collection,
      List<String> shards,
      int replicas,
      String type,
      List<String> nodes,
      Method method,
      int chunk,
      Duration timeout,
      long maxBytesPerSecond,
      boolean refresh,
      Create create,
      String corruptAt) {} // corruptAt: tests only, "NODE=FILE_INDEX:OFFSET" damaged once there

  /** What a peer copy brought to a target before Solr was given it. */
  record Seed(String instanceDir, Double secondsToData, long received, long had, int resent) {}

  /** A PULL or TLOG replica a refresh replaces, and where its live index is. */
  record Existing(NodeState node, String replica, String core, String type, String indexDir) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CALL = Duration.ofSeconds(60);
  private static final Duration COUNT_WAIT = Duration.ofSeconds(120);

  private final Cluster cluster;
  private final Consumer<String> progress;
  private final Consumer<Overview.Row> live;
  private final SolrHttp http;

  public Distributor(Cluster cluster, Consumer<String> progress, Consumer<Overview.Row> live) {
    this.cluster = cluster;
    this.http = new SolrHttp(cluster.access());
    this.progress = progress;
    this.live = live;
  }

  /** Plans (refusing bad input before anything is touched), then distributes every shard. */
  public Distribution run(Options o) {
    ClusterState state = cluster.requireState();
    LiveStatus status;
    try (SolrAdmin admin = new SolrAdmin(state.solrNodes(), cluster.access())) {
      status = admin.clusterStatus();
    }
    CollectionStatus col =
        status.collections().stream()
            .filter(c -> c.name().equals(o.collection()))
            .findFirst()
            .orElseThrow(
                () ->
                    SolrscaleException.usage(
                        "no collection '"
                            + o.collection()
                            + "' in cluster "
                            + state.name()
                            + "; it has "
                            + String.join(
                                ", ",
                                status.collections().stream()
                                    .map(CollectionStatus::name)
                                    .toList())));
    List<ShardStatus> shards = new ArrayList<>();
    for (ShardStatus s : col.shards()) {
      if (o.shards() == null || o.shards().contains(s.name())) {
        shards.add(s);
      }
    }
    if (o.shards() != null) {
      for (String want : o.shards()) {
        if (col.shards().stream().noneMatch(s -> s.name().equals(want))) {
          throw SolrscaleException.usage(
              "collection "
                  + o.collection()
                  + " has no shard '"
                  + want
                  + "'; it has "
                  + String.join(", ", col.shards().stream().map(ShardStatus::name).toList()));
        }
      }
    }
    Map<String, List<NodeState>> targets = place(state, status, shards, o);
    Map<String, List<Existing>> existing = new LinkedHashMap<>();
    if (o.refresh()) {
      if (o.method() == Method.SOLR) {
        throw SolrscaleException.usage(
            "--refresh needs --method chain or tree: with Solr's own replication, PULL and TLOG"
                + " replicas already fetch each new commit from their leader");
      }
      for (ShardStatus s : shards) {
        existing.put(s.name(), existing(state, s, o));
        if (existing.get(s.name()).isEmpty() && o.replicas() == 0) {
          throw SolrscaleException.usage(
              s.name()
                  + " has no PULL or TLOG replica to refresh"
                  + (o.nodes() == null ? "" : " on --nodes")
                  + "; add new ones with --replicas N");
        }
      }
    }
    double setup =
        o.method() == Method.SOLR ? 0 : prepareHosts(state, shards, targets, o.refresh());
    long t0 = System.nanoTime();
    List<ShardRun> runs =
        Parallel.map(
            shards,
            s ->
                shard(
                    state,
                    o,
                    s,
                    targets.get(s.name()),
                    existing.getOrDefault(s.name(), List.of()),
                    t0));
    return new Distribution(
        o.collection(),
        o.method().label(),
        o.replicas(),
        o.type(),
        setup,
        (System.nanoTime() - t0) / 1e9,
        runs);
  }

  /**
   * Puts solrscale's jar (which runs the relays and the source) on every host taking part, once,
   * before the clock starts: a one-time set-up per host, not part of any transfer. Its seconds.
   */
  private double prepareHosts(
      ClusterState state,
      List<ShardStatus> shards,
      Map<String, List<NodeState>> targets,
      boolean refreshing) {
    long s0 = System.nanoTime();
    Map<String, NodeState> hosts = new LinkedHashMap<>();
    for (ShardStatus s : shards) {
      s.replicas().stream()
          .filter(ReplicaStatus::leader)
          .forEach(r -> hosts.putIfAbsent(r.node(), nodeNamed(state, r.node())));
      targets.get(s.name()).forEach(n -> hosts.putIfAbsent(n.solrNodeName(), n));
      if (refreshing) {
        s.replicas().forEach(r -> hosts.putIfAbsent(r.node(), nodeNamed(state, r.node())));
      }
    }
    Parallel.map(List.copyOf(hosts.values()), n -> cluster.hosts().solrscaleCommand(n, List.of()));
    return (System.nanoTime() - s0) / 1e9;
  }

  /**
   * The nodes each shard's new replicas go on: allowed nodes not holding a replica of that shard,
   * the least loaded first; a one-line error when there are not enough.
   */
  static Map<String, List<NodeState>> place(
      ClusterState state, LiveStatus status, List<ShardStatus> shards, Options o) {
    List<NodeState> allowed = new ArrayList<>();
    for (NodeState n : state.solrNodes()) {
      if (o.nodes() == null || o.nodes().contains(n.id())) {
        allowed.add(n);
      }
    }
    if (o.nodes() != null) {
      for (String id : o.nodes()) {
        if (allowed.stream().noneMatch(n -> n.id().equals(id))) {
          throw SolrscaleException.usage(
              "--nodes: no Solr node '"
                  + id
                  + "' in cluster "
                  + state.name()
                  + "; it has "
                  + String.join(", ", state.solrNodes().stream().map(NodeState::id).toList()));
        }
      }
    }
    Map<String, Integer> load = new LinkedHashMap<>();
    allowed.forEach(n -> load.put(n.solrNodeName(), 0));
    for (CollectionStatus c : status.collections()) {
      for (ShardStatus s : c.shards()) {
        for (ReplicaStatus r : s.replicas()) {
          load.computeIfPresent(r.node(), (k, v) -> v + 1);
        }
      }
    }
    Map<String, List<NodeState>> out = new LinkedHashMap<>();
    for (ShardStatus s : shards) {
      List<NodeState> free =
          allowed.stream()
              .filter(n -> s.replicas().stream().noneMatch(r -> r.node().equals(n.solrNodeName())))
              .sorted(Comparator.comparingInt(n -> load.get(n.solrNodeName())))
              .toList();
      if (free.size() < o.replicas()) {
        throw SolrscaleException.usage(
            "--replicas "
                + o.replicas()
                + " for "
                + s.name()
                + ", but only "
                + free.size()
                + " node(s) hold no replica of it"
                + (o.nodes() == null ? "" : " among --nodes")
                + "; add nodes (add-node) or ask for fewer");
      }
      List<NodeState> chosen = free.subList(0, o.replicas());
      chosen.forEach(n -> load.merge(n.solrNodeName(), 1, Integer::sum));
      out.put(s.name(), List.copyOf(chosen));
    }
    return out;
  }

  private ShardRun shard(
      ClusterState state,
      Options o,
      ShardStatus s,
      List<NodeState> targets,
      List<Existing> existing,
      long t0) {
    ReplicaStatus leader =
        s.replicas().stream()
            .filter(ReplicaStatus::leader)
            .findFirst()
            .orElseThrow(
                () -> SolrscaleException.failed(s.name() + " has no leader now; try again"));
    NodeState leaderNode = nodeNamed(state, leader.node());
    long leaderDocs = coreDocs(leaderNode, leader.core());
    if (o.method() == Method.SOLR) {
      List<Target> done =
          o.create() == Create.TOGETHER
              ? addReplicas(o, s.name(), targets, Map.of(), t0, leaderDocs)
              : Parallel.map(
                  targets, n -> addReplica(o, s.name(), n, o.type(), null, t0, leaderDocs, null));
      return new ShardRun(
          s.name(), leader.core(), leaderDocs, null, null, null, null, done, null, null);
    }
    return new PeerCopy(this, o, s.name(), leader, leaderNode, targets, existing, t0, leaderDocs)
        .run();
  }

  /**
   * The PULL and TLOG replicas of a shard a refresh replaces (on --nodes, when given), each with
   * its live index directory (after a full copy Solr switches to the one index.properties names).
   */
  private List<Existing> existing(ClusterState state, ShardStatus s, Options o) {
    List<Existing> out = new ArrayList<>();
    for (ReplicaStatus r : s.replicas()) {
      String type = r.type() == null ? "" : r.type().toLowerCase(Locale.ROOT);
      if (r.leader() || !(type.equals("pull") || type.equals("tlog"))) {
        continue;
      }
      NodeState node = nodeNamed(state, r.node());
      if (o.nodes() != null && !o.nodes().contains(node.id())) {
        continue;
      }
      String dataDir =
          get(
                  node.baseUrl() + "/admin/cores?action=STATUS&wt=json&core=" + enc(r.core()),
                  "STATUS of " + r.core())
              .path("status")
              .path(r.core())
              .path("dataDir")
              .asText(null);
      if (dataDir == null) {
        throw SolrscaleException.failed(
            r.core() + " on " + node.id() + " is not loaded; it cannot be refreshed now");
      }
      dataDir = dataDir.replaceAll("/+$", "");
      String index = "index";
      String props = cluster.hosts().readFile(node, dataDir + "/index.properties");
      if (props != null) {
        Properties p = new Properties();
        try {
          p.load(new StringReader(props));
        } catch (IOException e) {
          throw SolrscaleException.failed(
              "cannot read " + dataDir + "/index.properties on " + node.id());
        }
        index = p.getProperty("index", "index").strip();
      }
      out.add(new Existing(node, r.name(), r.core(), type, dataDir + "/" + index));
    }
    return out;
  }

  NodeState nodeNamed(ClusterState state, String solrNodeName) {
    return state.solrNodes().stream()
        .filter(n -> n.solrNodeName().equals(solrNodeName))
        .findFirst()
        .orElseThrow(
            () ->
                SolrscaleException.failed(
                    "Solr node " + solrNodeName + " is not one of cluster " + state.name()));
  }

  /** GET a Solr admin URL; its JSON, or a one-line error naming {@code what}. */
  JsonNode get(String url, String what) {
    SolrHttp.Reply r = http.get(url, CALL);
    if (!r.ok()) {
      throw SolrscaleException.failed(what + " failed: " + r.message());
    }
    return r.body();
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  long coreDocs(NodeState node, String core) {
    return get(
            node.baseUrl() + "/" + enc(core) + "/select?q=*:*&rows=0&distrib=false&wt=json",
            "counting " + core)
        .path("response")
        .path("numFound")
        .asLong();
  }

  /**
   * ADDREPLICA of {@code shard} on {@code node} (with its data already in the seed's instance
   * directory, or none), waited until active; then what Solr downloaded and the replica's count.
   */
  Target addReplica(
      Options o,
      String shard,
      NodeState node,
      String type,
      Seed seed,
      long t0,
      long leaderDocs,
      String replaced) {
    String url =
        addReplicaUrl(
            node,
            o,
            shard,
            "&node=" + enc(node.solrNodeName()) + "&type=" + enc(type),
            seed == null ? null : seed.instanceDir());
    progress.accept(
        shard
            + ": adding a "
            + type
            + " replica on "
            + node.id()
            + (replaced == null ? "" : " in place of " + replaced));
    SolrHttp.Reply r = http.get(url, o.timeout().plusSeconds(30));
    double active = (System.nanoTime() - t0) / 1e9;
    if (!r.ok()) {
      return failed(shard, node, seed, replaced, "ADDREPLICA: " + r.message());
    }
    return settled(
        o,
        shard,
        node,
        newReplica(o.collection(), shard, node, Set.of()),
        seed,
        active,
        t0,
        leaderDocs,
        replaced);
  }

  /**
   * One ADDREPLICA for all of {@code nodes} (a count of the type, with createNodeSet), so that Solr
   * creates their cores at once; each replica's time to active is seen by polling CLUSTERSTATUS
   * while the call runs. Every node must get exactly one new replica. Seeds by node id (none for
   * Solr's own copy); every seed of one call has the same instance directory, relative to each
   * node's Solr home.
   */
  List<Target> addReplicas(
      Options o,
      String shard,
      List<NodeState> nodes,
      Map<String, Seed> seeds,
      long t0,
      long leaderDocs) {
    if (nodes.isEmpty()) {
      return List.of();
    }
    Set<String> before = new HashSet<>();
    shardNow(o.collection(), shard).forEach(r -> before.add(r.name()));
    String instanceDir = seeds.isEmpty() ? null : seeds.get(nodes.get(0).id()).instanceDir();
    StringBuilder where = new StringBuilder();
    for (String t : List.of("nrt", "tlog", "pull")) {
      // every count given: Solr adds one NRT replica when nrtReplicas is missing
      where.append('&').append(t).append("Replicas=").append(t.equals(o.type()) ? nodes.size() : 0);
    }
    where
        .append("&createNodeSet=")
        .append(enc(String.join(",", nodes.stream().map(NodeState::solrNodeName).toList())));
    String url = addReplicaUrl(nodes.get(0), o, shard, where.toString(), instanceDir);
    progress.accept(
        nodes.size() == 1
            ? shard + ": adding a " + o.type() + " replica on " + nodes.get(0).id()
            : String.format(
                "%s: adding %d %s replicas at once on %s",
                shard,
                nodes.size(),
                o.type(),
                String.join(", ", nodes.stream().map(NodeState::id).toList())));
    CompletableFuture<SolrHttp.Reply> call =
        CompletableFuture.supplyAsync(() -> http.get(url, o.timeout().plusSeconds(30)));
    Map<String, Double> activeAt = new HashMap<>(); // by Solr node name
    while (true) {
      boolean done = call.isDone();
      double now = (System.nanoTime() - t0) / 1e9;
      for (ReplicaStatus r : shardNow(o.collection(), shard)) {
        if (!before.contains(r.name()) && "active".equals(r.state())) {
          activeAt.putIfAbsent(r.node(), now);
        }
      }
      if (done) {
        break;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    SolrHttp.Reply reply = call.join();
    double end = (System.nanoTime() - t0) / 1e9;
    List<ReplicaStatus> now = shardNow(o.collection(), shard);
    // every replica's count and download read at once: one SSH round trip each, not N in a row
    return Parallel.map(
        nodes,
        n -> {
          Seed seed = seeds.get(n.id());
          List<ReplicaStatus> mine =
              now.stream()
                  .filter(r -> !before.contains(r.name()) && r.node().equals(n.solrNodeName()))
                  .toList();
          if (mine.size() != 1) {
            return failed(
                shard,
                n,
                seed,
                null,
                mine.isEmpty()
                    ? "ADDREPLICA"
                        + (reply.ok() ? "" : ": " + reply.message())
                        + ": Solr put no new replica on "
                        + n.id()
                    : "ADDREPLICA put " + mine.size() + " new replicas on " + n.id() + ", not one");
          }
          return settled(
              o,
              shard,
              n,
              mine.get(0),
              seed,
              activeAt.getOrDefault(n.solrNodeName(), end),
              t0,
              leaderDocs,
              null);
        });
  }

  /**
   * ADDREPLICA of {@code shard} sent to {@code at}, waiting until the replicas are active; {@code
   * where} says which replicas and nodes, {@code instanceDir} (or null) where their data is.
   */
  private static String addReplicaUrl(
      NodeState at, Options o, String shard, String where, String instanceDir) {
    return at.baseUrl()
        + "/admin/collections?action=ADDREPLICA&wt=json&collection="
        + enc(o.collection())
        + "&shard="
        + enc(shard)
        + where
        + "&waitForFinalState=true&timeout="
        + o.timeout().toSeconds()
        + (instanceDir == null ? "" : "&instanceDir=" + enc(instanceDir));
  }

  private Target failed(String shard, NodeState node, Seed seed, String replaced, String why) {
    return new Target(
        shard,
        node.id(),
        null,
        null,
        "failed",
        seed == null ? 0 : seed.received(),
        seed == null ? 0 : seed.had(),
        seed == null ? 0 : seed.resent(),
        null,
        seed == null ? null : seed.secondsToData(),
        null,
        null,
        seed == null ? null : seedDataDir(node, seed),
        replaced,
        why);
  }

  /** A seed's data directory on its node: Solr's default, data/ under the instance directory. */
  String seedDataDir(NodeState node, Seed seed) {
    return cluster.hosts().solrHome(node) + "/" + seed.instanceDir() + "/data";
  }

  /**
   * A replica Solr reported active at {@code active} seconds: waited until it answers with the
   * leader's count, then what Solr downloaded into it.
   */
  private Target settled(
      Options o,
      String shard,
      NodeState node,
      ReplicaStatus added,
      Seed seed,
      double active,
      long t0,
      long leaderDocs,
      String replaced) {
    String core = added == null ? null : added.core();
    Long solrBytes = null;
    Long docs = null;
    String error = null;
    String dir = seed == null ? null : seedDataDir(node, seed);
    if (core != null) {
      docs = coreDocs(node, core);
      // active, and answering with the leader's count: a PULL or TLOG replica that started from an
      // older commit (writes went on) catches up at its next poll of the leader
      long until = System.nanoTime() + Math.min(o.timeout().toNanos(), COUNT_WAIT.toNanos());
      boolean waited = false;
      while (docs < leaderDocs && System.nanoTime() < until) {
        waited = true;
        try {
          Thread.sleep(500);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        docs = coreDocs(node, core);
      }
      if (waited) {
        active = (System.nanoTime() - t0) / 1e9;
      }
      if (dir == null) {
        dir =
            get(
                    node.baseUrl() + "/admin/cores?action=STATUS&wt=json&core=" + enc(core),
                    "STATUS of " + core)
                .path("status")
                .path(core)
                .path("dataDir")
                .asText(null);
      }
      solrBytes = dir == null ? null : downloaded(node, dir);
      if (docs < leaderDocs) {
        error =
            core
                + " has "
                + docs
                + " documents, still fewer than the leader's "
                + leaderDocs
                + " at the start";
      }
    }
    return new Target(
        shard,
        node.id(),
        core,
        added == null ? null : added.name(),
        error == null && core != null ? "active" : "failed",
        seed == null ? 0 : seed.received(),
        seed == null ? 0 : seed.had(),
        seed == null ? 0 : seed.resent(),
        solrBytes,
        seed == null ? null : seed.secondsToData(),
        active,
        docs,
        dir,
        replaced,
        core == null
            ? "ADDREPLICA answered, but no new replica of " + shard + " on " + node.id()
            : error);
  }

  /** Deletes the replicas a run added (DELETEREPLICA, which also removes their data). */
  public void deleteNew(Distribution r) {
    NodeState any = cluster.requireState().solrNodes().get(0);
    for (ShardRun s : r.shards()) {
      for (Target t : s.targets()) {
        if (t.replica() == null || t.replaced() != null) {
          continue; // not added, or in place of one that was there before
        }
        get(
            any.baseUrl()
                + "/admin/collections?action=DELETEREPLICA&wt=json&collection="
                + enc(r.collection())
                + "&shard="
                + enc(s.shard())
                + "&replica="
                + enc(t.replica()),
            "deleting replica " + t.replica());
      }
    }
  }

  /** The core of {@code shard}'s leader now, from CLUSTERSTATUS (null: none). */
  String leaderCore(String collection, String shard) {
    return shardNow(collection, shard).stream()
        .filter(ReplicaStatus::leader)
        .map(ReplicaStatus::core)
        .findFirst()
        .orElse(null);
  }

  /** The replica of {@code shard} on {@code node} not in {@code before}, from CLUSTERSTATUS. */
  private ReplicaStatus newReplica(
      String collection, String shard, NodeState node, Set<String> before) {
    return shardNow(collection, shard).stream()
        .filter(r -> r.node().equals(node.solrNodeName()) && !before.contains(r.name()))
        .findFirst()
        .orElse(null);
  }

  /** The replicas of a collection's shard now, from CLUSTERSTATUS (none when it is gone). */
  private List<ReplicaStatus> shardNow(String collection, String shard) {
    try (SolrAdmin admin = new SolrAdmin(cluster.requireState().solrNodes(), cluster.access())) {
      for (CollectionStatus c : admin.clusterStatus().collections()) {
        for (ShardStatus s : c.shards()) {
          if (c.name().equals(collection) && s.name().equals(shard)) {
            return s.replicas();
          }
        }
      }
    }
    return List.of();
  }

  /**
   * What Solr's IndexFetcher downloaded into a replica's data directory: 0 when it wrote no
   * replication.properties (the replica was in sync), else its last cycle's bytes.
   */
  Long downloaded(NodeState node, String dataDir) {
    String text =
        cluster.hosts().readFile(node, dataDir.replaceAll("/+$", "") + "/replication.properties");
    if (text == null) {
      return 0L;
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException e) {
      return null;
    }
    String v = p.getProperty("lastCycleBytesDownloaded");
    return v == null ? null : Long.parseLong(v.strip());
  }

  Cluster cluster() {
    return cluster;
  }

  Consumer<String> progress() {
    return progress;
  }

  Consumer<Overview.Row> live() {
    return live;
  }

  static ObjectMapper json() {
    return JSON;
  }
}
