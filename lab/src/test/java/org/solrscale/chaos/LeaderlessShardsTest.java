package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.cluster.ShardStatus;

class LeaderlessShardsTest {
  private static ShardStatus shard(String name, String range, boolean led, String state) {
    return new ShardStatus(
        name,
        "active",
        range,
        0,
        List.of(
            new ReplicaStatus(
                "core_node1", name + "_r1", "127.0.0.1:8983_solr", "solr1", "NRT", state, led),
            new ReplicaStatus(
                "core_node2", name + "_r2", "127.0.0.1:8984_solr", "solr2", "NRT", "down", false)));
  }

  @Test
  void aShardWhoseLeaderIsNotActiveIsLeaderlessAndIdsArePlacedByTheirHash() {
    CollectionStatus c =
        new CollectionStatus(
            "c",
            "default",
            "compositeId",
            List.of(
                shard("shard1", "80000000-ffffffff", true, "active"),
                shard("shard2", "0-7fffffff", true, "down")));
    LossChecker.Leaderless l = LeaderlessShards.of(c).orElseThrow();
    assertThat(l.shards()).containsExactly("shard2");
    // murmurhash3_x86_32 of the id's UTF-8, seed 0 (compositeId for an id without '!'), computed
    // apart from SolrJ: "a" is 0x3c2569b2 (positive: shard2's half), "b" 0x95de7e03 (negative)
    assertThat(l.shardOf("a")).isEqualTo("shard2");
    assertThat(l.shardOf("b")).isNull();
  }

  @Test
  void everyShardLedIsNothingAndAnImplicitRouterPlacesNoId() {
    assertThat(
            LeaderlessShards.of(
                new CollectionStatus(
                    "c",
                    "default",
                    "compositeId",
                    List.of(shard("shard1", "80000000-ffffffff", true, "active")))))
        .isEmpty();
    LossChecker.Leaderless l =
        LeaderlessShards.of(
                new CollectionStatus(
                    "c",
                    "default",
                    "implicit",
                    List.of(
                        shard("east", null, true, "active"), shard("west", null, false, "active"))))
            .orElseThrow();
    assertThat(l.shards()).containsExactly("west");
    assertThat(l.shardOf("anything")).isEqualTo("west");
  }
}
