package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;

/** One replica as CLUSTERSTATUS reports it. */
public record ReplicaStatus(
    @JsonProperty("name") String name,
    @JsonProperty("core") String core,
    @JsonProperty("node") String node,
    @JsonProperty("node_id") String nodeId,
    @JsonProperty("type") String type,
    @JsonProperty("state") String state,
    @JsonProperty("leader") boolean leader) {}
