package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * One node in a status report: recorded facts plus what the OS and the cluster say now. {@code
 * mode} is the ZooKeeper mode (leader, follower, standalone) or, for Solr, "live" when it is in
 * live_nodes.
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
    @JsonProperty("labels") Map<String, String> labels) {}
