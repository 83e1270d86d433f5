package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.results.TailAttribution;

class AttributionTest {
  /** An answer of Solr 9.10.1 with shards.info, as it came (indented). */
  static final String ANSWER =
      """
      {
        "responseHeader":{
          "zkConnected":true,
          "status":0,
          "QTime":31,
          "params":{
            "q":"*:*",
            "shards.info":"true",
            "wt":"json"
          }
        },
        "shards.info":{
          "http://127.0.0.1:8983/solr/g_shard1_replica_n2/":{
            "numFound":0,
            "numFoundExact":true,
            "maxScore":0.0,
            "shardAddress":"http://127.0.0.1:8983/solr/g_shard1_replica_n2",
            "time":22
          },
          "http://127.0.0.1:8983/solr/g_shard2_replica_n1/":{
            "numFound":0,
            "numFoundExact":true,
            "maxScore":0.0,
            "shardAddress":"http://127.0.0.1:8983/solr/g_shard2_replica_n1",
            "time":27
          }
        },
        "response":{
          "numFound":0,
          "start":0,
          "maxScore":0.0,
          "numFoundExact":true,
          "docs":[ ]
        }
      }
      """;

  @Test
  void solrsShardsInfoGivesEachShardsReplicaAndTime() {
    List<Outcome.ShardTime> shards = Attribution.parse(ANSWER);
    assertThat(shards)
        .containsExactly(
            new Outcome.ShardTime(
                "http://127.0.0.1:8983/solr/g_shard1_replica_n2/",
                "http://127.0.0.1:8983/solr/g_shard1_replica_n2",
                22),
            new Outcome.ShardTime(
                "http://127.0.0.1:8983/solr/g_shard2_replica_n1/",
                "http://127.0.0.1:8983/solr/g_shard2_replica_n1",
                27));
    // no shards.info (one shard, short-circuited), or the head cut inside it: nothing
    assertThat(Attribution.parse("{\"response\":{\"numFound\":3}}")).isNull();
    assertThat(Attribution.parse(ANSWER.substring(0, ANSWER.indexOf("\"time\":27")))).isNull();
  }

  @Test
  void theTailIsTheSlowestPercentAndItsSlowestShardIsCounted() {
    Attribution a = new Attribution(1, 1);
    String slow = "http://h3:8983/solr/g_shard2_replica_n4";
    String fast = "http://h1:8983/solr/g_shard1_replica_n1";
    for (int i = 0; i < 1000; i++) {
      boolean hit = i % 10 == 0; // one request in ten uses the slow replica, and is the slowest
      a.add(
          1000 + i,
          hit ? 150 + i % 7 : 20 + i % 5,
          List.of(
              new Outcome.ShardTime("s1", fast, 10 + i % 3),
              new Outcome.ShardTime("s2", hit ? slow : fast, hit ? 140 : 12)),
          // the coordinators alternate; the tail's requests (i % 10 == 0) all went to h2
          i % 2 == 0 ? "http://h2:8983/solr" : "http://h1:8983/solr");
    }
    a.add(2000, 5, null, "http://h1:8983/solr"); // an answer without shards.info
    // the warm-up's requests, sent before the measured time, do not count: slow ones on the fast
    // replica (a cold cache) would otherwise take the tail
    for (int i = 0; i < 50; i++) {
      a.add(i, 900, List.of(new Outcome.ShardTime("s1", fast, 880)), "http://h1:8983/solr");
    }
    a.add(3, 5, null, null);
    a.measuredFrom(1000);
    TailAttribution t = a.result();
    assertThat(t.sampled()).isEqualTo(1000);
    assertThat(t.withoutShardsInfo()).isEqualTo(1);
    assertThat(t.tail()).isEqualTo(10);
    assertThat(t.replicas().get(0).replica()).isEqualTo(slow);
    assertThat(t.replicas().get(0).share()).isEqualTo(1.0);
    assertThat(t.replicas().get(0).shardMsP50()).isEqualTo(140);
    TailAttribution named =
        t.known(
            url -> url.contains("//h3:") ? "solr3" : url.contains("//h2:") ? "solr2" : "solr1",
            node -> "lab-h" + node.substring(4),
            node -> Map.of("dc", node.equals("solr3") ? "west" : "east"));
    assertThat(named.describe())
        .startsWith(
            "tail attribution: solr3 ("
                + slow
                + ") on lab-h3 was the slowest shard's replica in"
                + " 100% of the slowest 1% of 1000 sampled requests (10 of 10, at least 156.0"
                + " ms; their slowest shards took 90% of their time)");
    // the tail's ten requests took 156 ms each on the wire, their slowest shard 140
    assertThat(t.tailExplained()).isCloseTo(140.0 / 156, within(1e-9));
    assertThat(named.groups().get(0))
        .isEqualTo(new TailAttribution.Group("host", "lab-h3", 10, 1.0));
    assertThat(named.groups()).contains(new TailAttribution.Group("label", "dc=west", 10, 1.0));
    assertThat(named.coordinators())
        .containsExactly(
            new TailAttribution.Coordinator("http://h2:8983/solr", "solr2", "lab-h2", 10, 1.0));
    assertThat(named.describeCoordinator())
        .isEqualTo("  sent to solr2 on lab-h2: 100% of the tail (10)");
  }
}
