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
    @JsonProperty("collections") List<CollectionSpec> collections) {

  public static final String DEFAULT_SOLR_VERSION = "9.10.0";
  public static final String DEFAULT_HEAP = "512m";
  public static final String DEFAULT_HOST = "127.0.0.1";

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ClusterSpec {
    solrVersion = solrVersion == null ? DEFAULT_SOLR_VERSION : solrVersion;
    heap = heap == null ? DEFAULT_HEAP : heap;
    jvmArgs = jvmArgs == null ? List.of() : List.copyOf(jvmArgs);
    host = host == null ? DEFAULT_HOST : host;
    nodes = nodes == null ? List.of(NodeGroup.ofCount(1)) : List.copyOf(nodes);
    zookeeper = zookeeper == null ? ZkSpec.ofServers(1) : zookeeper;
    collections = collections == null ? List.of() : List.copyOf(collections);
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

  public ClusterSpec withName(String newName) {
    return new ClusterSpec(
        newName, solrVersion, heap, jvmArgs, host, basePort, nodes, zookeeper, collections);
  }

  public ClusterSpec withCollections(List<CollectionSpec> newCollections) {
    return new ClusterSpec(
        name, solrVersion, heap, jvmArgs, host, basePort, nodes, zookeeper, newCollections);
  }

  public ClusterSpec withNodes(List<NodeGroup> newNodes) {
    return new ClusterSpec(
        name, solrVersion, heap, jvmArgs, host, basePort, newNodes, zookeeper, collections);
  }
}
