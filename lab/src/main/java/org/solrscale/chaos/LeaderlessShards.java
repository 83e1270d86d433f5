package org.solrscale.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.solr.common.cloud.CompositeIdRouter;
import org.apache.solr.common.cloud.DocRouter;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.cluster.ShardStatus;

/**
 * The shards of a collection without an active leader, and which of them an id routes to, as Solr's
 * compositeId router decides (SolrJ's own hash and ranges). Under another router, or a shard
 * without a range, an id cannot be placed: then every id is counted as possibly on the leaderless
 * shards, since a loss that cannot be told from an uncommitted write is not reported as a loss.
 */
final class LeaderlessShards implements LossChecker.Leaderless {
  private static final CompositeIdRouter ROUTER = new CompositeIdRouter();

  private final List<String> shards;

  /** shard to its hash range; empty when ids cannot be placed. */
  private final Map<String, DocRouter.Range> ranges;

  private LeaderlessShards(List<String> shards, Map<String, DocRouter.Range> ranges) {
    this.shards = List.copyOf(shards);
    this.ranges = ranges;
  }

  /** The collection's leaderless shards as it is now, or empty when every shard has a leader. */
  static Optional<LossChecker.Leaderless> of(CollectionStatus c) {
    List<String> none = new ArrayList<>();
    Map<String, DocRouter.Range> ranges = new LinkedHashMap<>();
    boolean placeable = List.of("compositeId", "null").contains(String.valueOf(c.router()));
    for (ShardStatus s : c.shards()) {
      if (s.replicas().stream().noneMatch(LeaderlessShards::activeLeader)) {
        none.add(s.name());
      }
      if (s.range() == null || s.range().isBlank()) {
        placeable = false;
      } else {
        ranges.put(s.name(), ROUTER.fromString(s.range()));
      }
    }
    return none.isEmpty()
        ? Optional.empty()
        : Optional.of(new LeaderlessShards(none, placeable ? ranges : Map.of()));
  }

  private static boolean activeLeader(ReplicaStatus r) {
    return r.leader() && "active".equals(r.state());
  }

  @Override
  public List<String> shards() {
    return shards;
  }

  @Override
  public String shardOf(String id) {
    if (ranges.isEmpty()) {
      return String.join(" or ", shards); // cannot be placed: possibly on any of them
    }
    int hash = ROUTER.sliceHash(id, null, null, null);
    for (Map.Entry<String, DocRouter.Range> e : ranges.entrySet()) {
      if (e.getValue().includes(hash)) {
        return shards.contains(e.getKey()) ? e.getKey() : null;
      }
    }
    return null;
  }
}
