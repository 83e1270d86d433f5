package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Everything `status` shows about a cluster. {@code error} says why collections are unknown; {@code
 * external} is a SolrCloud solrscale did not start (named by --zk or --url, which is then its
 * name): its nodes are Solr's live nodes, without processes.
 */
public record ClusterReport(
    @JsonProperty("name") String name,
    @JsonProperty("solr_version") String solrVersion,
    @JsonProperty("zk_host") String zkHost,
    @JsonProperty("nodes") List<NodeReport> nodes,
    @JsonProperty("live_nodes") List<String> liveNodes,
    @JsonProperty("collections") List<CollectionStatus> collections,
    @JsonProperty("error") String error,
    @JsonProperty("external") boolean external,
    @JsonProperty("unreachable") List<String> unreachable) {

  public ClusterReport {
    unreachable = unreachable == null ? List.of() : List.copyOf(unreachable);
  }

  /**
   * This report with only {@code collection}, which must be there (else the usage error names those
   * there are).
   */
  public ClusterReport only(String collection) {
    if (error != null) {
      return this; // the collections are unknown: the report says why
    }
    List<CollectionStatus> one =
        collections.stream().filter(c -> c.name().equals(collection)).toList();
    if (one.isEmpty()) {
      throw NoSuchCollection.error(
          collection,
          external ? name : "cluster '" + name + "'",
          collections.stream().map(CollectionStatus::name).toList());
    }
    return new ClusterReport(
        name, solrVersion, zkHost, nodes, liveNodes, one, null, external, unreachable);
  }

  /**
   * True when every node runs (of an external cluster: is live) and every collection is healthy.
   */
  @JsonProperty("healthy")
  public boolean healthy() {
    return error == null
        && nodes.stream().allMatch(n -> external || "running".equals(n.state()))
        && collections.stream().allMatch(c -> c.healthy(liveNodes));
  }
}
