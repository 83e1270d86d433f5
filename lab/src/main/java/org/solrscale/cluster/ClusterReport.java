package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** Everything `status` shows about a cluster. {@code error} says why collections are unknown. */
public record ClusterReport(
    @JsonProperty("name") String name,
    @JsonProperty("solr_version") String solrVersion,
    @JsonProperty("zk_host") String zkHost,
    @JsonProperty("nodes") List<NodeReport> nodes,
    @JsonProperty("live_nodes") List<String> liveNodes,
    @JsonProperty("collections") List<CollectionStatus> collections,
    @JsonProperty("error") String error) {

  /** True when every node runs and every collection is healthy. */
  @JsonProperty("healthy")
  public boolean healthy() {
    return error == null
        && nodes.stream().allMatch(n -> "running".equals(n.state()))
        && collections.stream().allMatch(c -> c.healthy(liveNodes));
  }
}
