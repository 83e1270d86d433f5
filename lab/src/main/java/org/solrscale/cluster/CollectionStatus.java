package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** One collection as CLUSTERSTATUS reports it, with documents per shard. */
public record CollectionStatus(
    @JsonProperty("name") String name,
    @JsonProperty("configset") String configset,
    @JsonProperty("router") String router,
    @JsonProperty("shards") List<ShardStatus> shards) {

  /** True when every shard has a leader and every replica is active on a live node. */
  public boolean healthy(List<String> liveNodes) {
    for (ShardStatus shard : shards) {
      boolean leader = false;
      for (ReplicaStatus r : shard.replicas()) {
        if (!"active".equals(r.state()) || !liveNodes.contains(r.node())) {
          return false;
        }
        leader |= r.leader();
      }
      if (!leader) {
        return false;
      }
    }
    return true;
  }
}
