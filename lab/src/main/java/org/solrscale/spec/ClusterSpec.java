package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What to deploy: Solr version, nodes with labels, the ZooKeeper ensemble and collections. */
public record ClusterSpec(
    @JsonProperty("name") String name,
    @JsonProperty("solr_version") String solrVersion,
    @JsonProperty("heap") String heap,
    @JsonProperty("jvm_args") List<String> jvmArgs,
    @JsonProperty("host") String host,
    @JsonProperty("base_port") Integer basePort,
    @JsonProperty("nodes") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        List<NodeGroup> nodes,
    @JsonProperty("zookeeper") ZkSpec zookeeper,
    @JsonProperty("collections") List<CollectionSpec> collections,
    @JsonProperty("hosts") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        List<HostSpec> hosts,
    @JsonProperty("solr_per_host") Integer solrPerHost,
    @JsonProperty("auth") String auth,
    @JsonProperty("tls") Boolean tls,
    @JsonProperty("java_home") String javaHome) {

  public static final String DEFAULT_SOLR_VERSION = "9.10.1";
  public static final String DEFAULT_HEAP = "512m";
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** The values of {@code auth}: no authentication, or Solr's BasicAuth with two users. */
  public static final List<String> AUTH_KINDS = List.of("none", "basic");

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ClusterSpec {
    solrVersion = solrVersion == null ? DEFAULT_SOLR_VERSION : solrVersion;
    heap = heap == null ? DEFAULT_HEAP : heap;
    jvmArgs = jvmArgs == null ? List.of() : List.copyOf(jvmArgs);
    host = host == null ? DEFAULT_HOST : host;
    hosts = hosts == null ? List.of() : List.copyOf(hosts);
    if (nodes == null) {
      // on hosts, by default solr_per_host (1) nodes on each host that may run Solr
      int solrHosts = (int) hosts.stream().filter(h -> h.may("solr")).count();
      int perHost = solrPerHost == null ? 1 : solrPerHost;
      nodes = List.of(NodeGroup.ofCount(hosts.isEmpty() ? 1 : Math.max(1, solrHosts * perHost)));
    } else {
      nodes = List.copyOf(nodes);
    }
    zookeeper = zookeeper == null ? ZkSpec.ofServers(1) : zookeeper;
    collections = collections == null ? List.of() : List.copyOf(collections);
    auth = auth == null ? "none" : auth;
    tls = tls != null && tls; // never null: spec.tls() reads as a plain boolean
  }

  /** This spec with TLS on or off. */
  public ClusterSpec withTls(boolean newTls) {
    return new ClusterSpec(
        name,
        solrVersion,
        heap,
        jvmArgs,
        host,
        basePort,
        nodes,
        zookeeper,
        collections,
        hosts,
        solrPerHost,
        auth,
        newTls,
        javaHome);
  }

  /** This spec with the JDK its nodes on this machine run on ({@code --java}); null: found. */
  public ClusterSpec withJavaHome(String newJavaHome) {
    return new ClusterSpec(
        name,
        solrVersion,
        heap,
        jvmArgs,
        host,
        basePort,
        nodes,
        zookeeper,
        collections,
        hosts,
        solrPerHost,
        auth,
        tls,
        newJavaHome);
  }

  /** Whether the cluster's Solr nodes require BasicAuth. */
  public boolean basicAuth() {
    return "basic".equals(auth);
  }

  /** This spec with {@code auth} ("none" or "basic"). */
  public ClusterSpec withAuth(String newAuth) {
    return new ClusterSpec(
        name,
        solrVersion,
        heap,
        jvmArgs,
        host,
        basePort,
        nodes,
        zookeeper,
        collections,
        hosts,
        solrPerHost,
        newAuth,
        tls,
        javaHome);
  }

  /** The labels of every Solr node, in node order (node i+1 gets element i). */
  public List<Map<String, String>> nodeLabels() {
    List<Map<String, String>> labels = new ArrayList<>();
    for (NodeGroup group : nodes) {
      for (int i = 0; i < group.count(); i++) {
        labels.add(group.labels());
      }
    }
    return labels;
  }

  /** The heap of every Solr node, in node order. */
  public List<String> nodeHeaps() {
    List<String> heaps = new ArrayList<>();
    for (NodeGroup group : nodes) {
      for (int i = 0; i < group.count(); i++) {
        heaps.add(group.heap() == null ? heap : group.heap());
      }
    }
    return heaps;
  }

  public int nodeCount() {
    return nodes.stream().mapToInt(NodeGroup::count).sum();
  }

  /** A spec whose nodes run on this machine (no hosts), as the flags of {@code up} make it. */
  public static ClusterSpec local(
      String name,
      String solrVersion,
      String heap,
      String host,
      Integer basePort,
      List<NodeGroup> nodes,
      ZkSpec zookeeper,
      List<CollectionSpec> collections) {
    return new ClusterSpec(
        name,
        solrVersion,
        heap,
        null,
        host,
        basePort,
        nodes,
        zookeeper,
        collections,
        null,
        null,
        null,
        false,
        null);
  }

  public ClusterSpec withName(String newName) {
    return new ClusterSpec(
        newName,
        solrVersion,
        heap,
        jvmArgs,
        host,
        basePort,
        nodes,
        zookeeper,
        collections,
        hosts,
        solrPerHost,
        auth,
        tls,
        javaHome);
  }

  public ClusterSpec withCollections(List<CollectionSpec> newCollections) {
    return new ClusterSpec(
        name,
        solrVersion,
        heap,
        jvmArgs,
        host,
        basePort,
        nodes,
        zookeeper,
        newCollections,
        hosts,
        solrPerHost,
        auth,
        tls,
        javaHome);
  }

  public ClusterSpec withNodes(List<NodeGroup> newNodes) {
    return new ClusterSpec(
        name,
        solrVersion,
        heap,
        jvmArgs,
        host,
        basePort,
        newNodes,
        zookeeper,
        collections,
        hosts,
        solrPerHost,
        auth,
        tls,
        javaHome);
  }

  public ClusterSpec withHosts(List<HostSpec> newHosts, Integer newSolrPerHost) {
    return new ClusterSpec(
        name,
        solrVersion,
        heap,
        jvmArgs,
        host,
        basePort,
        nodes,
        zookeeper,
        collections,
        newHosts,
        newSolrPerHost,
        auth,
        tls,
        javaHome);
  }

  /** Whether the nodes run on hosts over SSH rather than on this machine. */
  public boolean onHosts() {
    return !hosts.isEmpty();
  }

  /** The host by its SSH target. */
  public HostSpec hostNamed(String ssh) {
    return hosts.stream()
        .filter(h -> h.ssh().equals(ssh))
        .findFirst()
        .orElseThrow(() -> SolrscaleException.usage("the cluster has no host '" + ssh + "'"));
  }

  /** The host of each ZooKeeper server, in server order: the hosts that may run zk, one each. */
  public List<HostSpec> zkHosts() {
    List<HostSpec> zk = hosts.stream().filter(h -> h.may("zk")).toList();
    return zk.subList(0, Math.min(zk.size(), zookeeper.servers()));
  }

  /** The host of Solr node {@code i} (0-based): the hosts that may run Solr, in turn. */
  public HostSpec solrHost(int i) {
    List<HostSpec> solr = hosts.stream().filter(h -> h.may("solr")).toList();
    return solr.get(i % solr.size());
  }
}
