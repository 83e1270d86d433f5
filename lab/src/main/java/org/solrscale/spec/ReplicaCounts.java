package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Replicas per shard by type. In YAML a plain number means that many NRT replicas. */
public record ReplicaCounts(
    @JsonProperty("nrt") int nrt, @JsonProperty("tlog") int tlog, @JsonProperty("pull") int pull) {

  /** From YAML, where a missing count means none of that type. */
  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  static ReplicaCounts of(
      @JsonProperty("nrt") Integer nrt,
      @JsonProperty("tlog") Integer tlog,
      @JsonProperty("pull") Integer pull) {
    return new ReplicaCounts(
        nrt == null ? 0 : nrt, tlog == null ? 0 : tlog, pull == null ? 0 : pull);
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static ReplicaCounts nrt(int nrt) {
    return new ReplicaCounts(nrt, 0, 0);
  }

  public int total() {
    return nrt + tlog + pull;
  }
}
