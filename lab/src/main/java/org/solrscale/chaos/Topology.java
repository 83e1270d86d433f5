package org.solrscale.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What faults aim at: which Solr nodes host each shard's replicas (and which leads it), the
 * overseer, the ZooKeeper servers, and for a cluster on hosts the host of each node and each host's
 * labels. Node ids throughout (solr1, zk2).
 */
record Topology(
    Map<String, List<String>> replicaNodes,
    Map<String, String> leaders,
    List<String> solrNodes,
    List<String> zkNodes,
    String overseer,
    Map<String, String> hostOf,
    Map<String, Map<String, String>> hostLabels) {

  /** A topology of nodes on this machine (no hosts). */
  Topology(
      Map<String, List<String>> replicaNodes,
      Map<String, String> leaders,
      List<String> solrNodes,
      List<String> zkNodes,
      String overseer) {
    this(replicaNodes, leaders, solrNodes, zkNodes, overseer, Map.of(), Map.of());
  }

  Topology {
    hostOf = Map.copyOf(hostOf);
    hostLabels = Map.copyOf(hostLabels);
    Map<String, List<String>> copy = new LinkedHashMap<>();
    replicaNodes.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    replicaNodes = copy;
    leaders = Map.copyOf(leaders);
    solrNodes = List.copyOf(solrNodes);
    zkNodes = List.copyOf(zkNodes);
  }

  /** Every node hosting a replica of {@code shard}, or an error naming the shards there are. */
  List<String> nodesOf(String shard) {
    List<String> nodes = replicaNodes.get(shard);
    if (nodes == null) {
      throw new IllegalArgumentException(
          "no shard '"
              + shard
              + "'; the shards are "
              + String.join(", ", new ArrayList<>(replicaNodes.keySet())));
    }
    return nodes;
  }
}
