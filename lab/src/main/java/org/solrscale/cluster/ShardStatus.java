package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One shard: its state, hash range, searchable documents (-1 when it cannot answer) and replicas.
 */
public record ShardStatus(
    @JsonProperty("name") String name,
    @JsonProperty("state") String state,
    @JsonProperty("range") String range,
    @JsonProperty("docs") long docs,
    @JsonProperty("replicas") List<ReplicaStatus> replicas) {

  public ShardStatus withDocs(long newDocs) {
    return new ShardStatus(name, state, range, newDocs, replicas);
  }
}
