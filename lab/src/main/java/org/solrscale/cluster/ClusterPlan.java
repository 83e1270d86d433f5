package org.solrscale.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * What a cluster should be, decided from specs and recorded state alone (no process, no HTTP, no
 * file): where its nodes go, whether an existing cluster can become what a spec asks, and which
 * collections it then holds. Ports and addresses come in from the caller.
 */
final class ClusterPlan {
  static final int SOLR_BASE_PORT = 8983;
  static final int ZK_BASE_PORT = 2181;
  static final int ZK_PEER_BASE_PORT = 2888;
  static final int ZK_ELECTION_BASE_PORT = 3888;

  private ClusterPlan() {}

  /**
   * Places a new cluster's nodes (on this machine, or on its hosts: ZooKeeper servers on distinct
   * hosts that may run zk, Solr nodes in turn on those that may run solr) with their ports: {@code
   * ports} and {@code address} give each host's (null: this machine) free ports and address.
   */
  static List<NodeState> place(
      ClusterSpec spec, Function<String, Ports> ports, Function<String, String> address) {
    List<NodeState> nodes = new ArrayList<>();
    int servers = spec.zookeeper().servers();
    for (int i = 1; i <= servers; i++) {
      String host = spec.onHosts() ? spec.zkHosts().get(i - 1).ssh() : null;
      Ports p = ports.apply(host);
      int slot = spec.onHosts() ? 0 : i - 1; // on hosts each server has a host of its own
      int client = p.next(ZK_BASE_PORT + slot);
      int peer = servers > 1 ? p.next(ZK_PEER_BASE_PORT + slot) : 0;
      int election = servers > 1 ? p.next(ZK_ELECTION_BASE_PORT + slot) : 0;
      nodes.add(
          new NodeState(
              "zk" + i,
              NodeRole.ZK,
              address.apply(host),
              client,
              peer,
              election,
              0,
              spec.zookeeper().heap(),
              spec.onHosts() ? spec.zkHosts().get(i - 1).labels() : Map.of(),
              host,
              null));
    }
    List<Map<String, String>> labels = spec.nodeLabels();
    List<String> heaps = spec.nodeHeaps();
    Map<String, Integer> onHost = new HashMap<>();
    for (int i = 0; i < spec.nodeCount(); i++) {
      String host = spec.onHosts() ? spec.solrHost(i).ssh() : null;
      // on hosts each host's ports count from the base again
      int k = onHost.merge(String.valueOf(host), 1, Integer::sum) - 1;
      int slot = spec.onHosts() ? k : i;
      Ports p = ports.apply(host);
      int port =
          spec.basePort() != null
              ? p.exactly(spec.basePort() + slot, "--base-port")
              : p.next(SOLR_BASE_PORT + slot);
      Map<String, String> nodeLabels = new TreeMap<>();
      if (spec.onHosts()) {
        nodeLabels.putAll(spec.solrHost(i).labels());
      }
      nodeLabels.putAll(labels.get(i));
      nodes.add(
          new NodeState(
              "solr" + (i + 1),
              NodeRole.SOLR,
              address.apply(host),
              port,
              0,
              0,
              0,
              heaps.get(i),
              nodeLabels,
              host,
              spec.tls() ? "https" : null));
    }
    return nodes;
  }

  /**
   * The existing cluster {@code name}, when {@code spec} asks for what it is (its collections are
   * recorded once they are there); else a usage error that says what differs and what to do.
   */
  static ClusterState reconcile(String name, ClusterState existing, ClusterSpec spec) {
    ClusterSpec old = existing.spec();
    if (!old.solrVersion().equals(spec.solrVersion())) {
      throw SolrscaleException.usage(
          "cluster '"
              + name
              + "' runs Solr "
              + old.solrVersion()
              + " and one cluster runs one version (mixed versions are not supported): give Solr "
              + spec.solrVersion()
              + " its own --name, or run: solrscale down --name "
              + name
              + " --purge");
    }
    if (old.nodeCount() != spec.nodeCount()
        || !old.zookeeper().servers().equals(spec.zookeeper().servers())) {
      throw SolrscaleException.usage(
          "cluster '"
              + name
              + "' exists with "
              + old.nodeCount()
              + " nodes, "
              + old.zookeeper().servers()
              + " ZooKeeper(s), Solr "
              + old.solrVersion()
              + "; change it with add-node/remove-node, or run: solrscale down --name "
              + name
              + " --purge");
    }
    if (!old.tls().equals(spec.tls())) {
      throw SolrscaleException.usage(
          "cluster '"
              + name
              + "' exists "
              + (old.tls() ? "with" : "without")
              + " TLS; TLS is chosen when a cluster is created: run solrscale down --name "
              + name
              + " --purge, then up "
              + (spec.tls() ? "with" : "without")
              + " --tls");
    }
    if (!old.auth().equals(spec.auth())) {
      throw SolrscaleException.usage(
          "cluster '"
              + name
              + "' exists with auth "
              + old.auth()
              + "; authentication is chosen when a cluster is created: run solrscale down --name "
              + name
              + " --purge, then up with --auth "
              + spec.auth());
    }
    if (!old.jvmArgs().equals(spec.jvmArgs())) {
      throw SolrscaleException.usage(
          "cluster '"
              + name
              + "' runs with JVM arguments "
              + old.jvmArgs()
              + ", not "
              + spec.jvmArgs()
              + "; they are chosen when a cluster is created: run solrscale down --name "
              + name
              + " --purge, then up with the ones you want");
    }
    return existing;
  }

  /** The collections of {@code old}, each replaced by one of {@code requested} of the same name. */
  static List<CollectionSpec> merged(List<CollectionSpec> old, List<CollectionSpec> requested) {
    List<CollectionSpec> collections = new ArrayList<>(old);
    for (CollectionSpec c : requested) {
      collections.removeIf(o -> o.name().equals(c.name()));
      collections.add(c);
    }
    return collections;
  }

  /**
   * Fails when a collection of cluster {@code cluster} that up was asked for is there with another
   * shape than asked: else up would seem to have made it so.
   */
  static void requireShape(String cluster, CollectionStatus live, CollectionSpec asked) {
    CollectionShape have = CollectionShape.of(live);
    CollectionShape want = CollectionShape.of(asked);
    if (!have.equals(want)) {
      throw SolrscaleException.usage(
          "collection '"
              + asked.name()
              + "' exists with "
              + have.describe()
              + "; up asked for "
              + want.describe()
              + ": delete it first (solrscale collection delete "
              + "--name "
              + cluster
              + " --collection "
              + asked.name()
              + "), or leave out the collection flags "
              + "(or its spec entry) to keep it as it is");
    }
  }

  /**
   * A warning for each shard of the collection whose replicas share a node although some live node
   * holds none of them.
   */
  static List<String> placementWarnings(LiveStatus status, String collection) {
    List<String> warnings = new ArrayList<>();
    status
        .collection(collection)
        .ifPresent(
            cs -> {
              for (ShardStatus s : cs.shards()) {
                long distinct = s.replicas().stream().map(ReplicaStatus::node).distinct().count();
                if (distinct < s.replicas().size() && distinct < status.liveNodes().size()) {
                  warnings.add(
                      "warning: Solr placed replicas of "
                          + collection
                          + "/"
                          + s.name()
                          + " on the same node although another node was free");
                }
              }
            });
    return warnings;
  }

  /** The host that may run Solr with the fewest Solr nodes (the first of those), or null. */
  static String leastLoadedHost(ClusterState state) {
    String best = null;
    long fewest = Long.MAX_VALUE;
    for (HostSpec h : state.spec().hosts()) {
      if (!h.may("solr")) {
        continue;
      }
      long n = state.solrNodes().stream().filter(x -> h.ssh().equals(x.ssh())).count();
      if (n < fewest) {
        fewest = n;
        best = h.ssh();
      }
    }
    return best;
  }
}
