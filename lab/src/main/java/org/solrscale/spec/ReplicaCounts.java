package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Replicas per shard by type. In YAML a plain number means that many NRT replicas. */
public record ReplicaCounts(
    @JsonProperty("nrt") int nrt, @JsonProperty("tlog") int tlog, @JsonProperty("pull") int pull) {

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ReplicaCounts {}

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static ReplicaCounts nrt(int nrt) {
    return new ReplicaCounts(nrt, 0, 0);
  }

  public int total() {
    return nrt + tlog + pull;
  }
}
