package org.solrscale.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a scenario step is checked against before anything starts: the Solr nodes and ZooKeeper
 * servers of the cluster it runs on, the collections there when it runs (name to shard count, null
 * when a split made it unknown; the map is null when the cluster is not solrscale's and its
 * collections are only known at run time), and the collection steps use when they name none.
 */
public record StepContext(
    int solrNodes,
    int zkServers,
    Map<String, Integer> collections,
    String defaultCollection,
    List<HostSpec> hosts) {

  public StepContext {
    hosts = hosts == null ? List.of() : List.copyOf(hosts);
  }

  /** A context without hosts (nodes on this machine, or a cluster of someone else's). */
  public StepContext(
      int solrNodes, int zkServers, Map<String, Integer> collections, String defaultCollection) {
    this(solrNodes, zkServers, collections, defaultCollection, null);
  }

  /** solr1, solr2, ... */
  public List<String> solrNodeIds() {
    return ids("solr", solrNodes);
  }

  /** zk1, zk2, ... */
  public List<String> zkNodeIds() {
    return ids("zk", zkServers);
  }

  /** Whether the collections are known before the run (they are not for an external cluster). */
  public boolean knowsCollections() {
    return collections != null;
  }

  private static List<String> ids(String prefix, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(prefix + i);
    }
    return out;
  }
}
