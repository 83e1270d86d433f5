package org.solrscale.cluster;

import java.util.List;
import java.util.Optional;

/**
 * The SolrCloud a workload runs against: a cluster solrscale started (whose nodes it can stop,
 * start and restart, for faults and restarts), or any other through its live nodes (the workload
 * and the checks only). Exactly one of the two is set.
 */
public record Target(Cluster managed, ExternalCluster external, Access access) {
  public Target {
    if (access == null) {
      throw new IllegalArgumentException("a target needs its access (Access.NONE: none)");
    }
    if ((managed == null) == (external == null)) {
      throw new IllegalArgumentException(
          "a target is a cluster solrscale started or an external one");
    }
  }

  /** A cluster solrscale started, talked to as its admin (when it has users). */
  public static Target of(Cluster cluster) {
    return new Target(cluster, null, cluster.access());
  }

  /** A cluster solrscale started, talked to as {@code access} (its reader, say). */
  public static Target of(Cluster cluster, Access access) {
    return new Target(cluster, null, access);
  }

  public static Target of(ExternalCluster cluster) {
    return new Target(null, cluster, cluster.access());
  }

  /** The cluster solrscale started, if it is one (node faults and restarts need it). */
  public Optional<Cluster> cluster() {
    return Optional.ofNullable(managed);
  }

  /** "cluster 'lab'" or "--zk HOST:PORT", for messages. */
  public String describe() {
    return managed != null ? "cluster '" + managed.name() + "'" : external.where();
  }

  /** Base URLs of the Solr nodes to send to: the running ones, or the live ones. */
  public List<String> solrUrls() {
    return managed != null
        ? managed.solrUrls()
        : external.solrNodes().stream().map(NodeState::baseUrl).toList();
  }

  /** Every collection with its shards and replicas (no document counts). */
  public List<CollectionStatus> collections() {
    return managed != null ? managed.status(false).collections() : external.status().collections();
  }

  /**
   * The nodes to scrape telemetry from: all of a solrscale cluster's, an external one's live Solr
   * nodes.
   */
  public List<NodeState> nodes() {
    return managed != null ? managed.requireState().nodes() : external.solrNodes();
  }

  /** Fails with the one no-such-collection wording when the target lacks {@code collection}. */
  public void requireCollection(String collection) {
    List<String> names = collections().stream().map(CollectionStatus::name).toList();
    if (!names.contains(collection)) {
      throw NoSuchCollection.error(collection, describe(), names);
    }
  }
}
