package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * One node in a status report: recorded facts plus what the OS and the cluster say now. {@code
 * mode} is the ZooKeeper mode (leader, follower, standalone) or, for Solr, "live" when it is in
 * live_nodes; {@code url} is a Solr node's base URL (null for ZooKeeper). A node of a cluster
 * solrscale did not start has no pid (0) and its process state is "-". {@code ssh} is the host a
 * node runs on when it runs on one over SSH.
 */
public record NodeReport(
    @JsonProperty("id") String id,
    @JsonProperty("role") NodeRole role,
    @JsonProperty("host") String host,
    @JsonProperty("port") int port,
    @JsonProperty("pid") long pid,
    @JsonProperty("alive") boolean alive,
    @JsonProperty("state") String state,
    @JsonProperty("mode") String mode,
    @JsonProperty("labels") Map<String, String> labels,
    @JsonProperty("url") String url,
    @JsonProperty("ssh") @JsonInclude(JsonInclude.Include.NON_NULL) String ssh) {

  public NodeReport withMode(String newMode) {
    return new NodeReport(id, role, host, port, pid, alive, state, newMode, labels, url, ssh);
  }
}
