package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.TimelineRow;

/** Availability, latency phases and the documented behaviours, judged from planted histories. */
class HistoryStatsTest {
  static HistoryEvent add(long t, boolean ok, Integer status) {
    return new HistoryEvent(
        t,
        "add",
        List.of("a" + t),
        null,
        ok ? HistoryEvent.OK : HistoryEvent.FAIL,
        ok ? 2 : null,
        status,
        ok ? null : "Cannot talk to ZooKeeper - Updates are disabled.",
        5.0,
        null,
        null,
        null,
        "127.0.0.1:8983");
  }

  static HistoryEvent query(
      long t, String kind, boolean ok, Boolean partial, Boolean zk, double ms) {
    return new HistoryEvent(
        t,
        "query",
        null,
        kind,
        ok ? HistoryEvent.OK : HistoryEvent.FAIL,
        null,
        ok ? 200 : 503,
        ok ? null : "no servers hosting shard",
        ms,
        partial,
        zk,
        ok ? 10L : null,
        "127.0.0.1:8984");
  }

  static FaultRecord fault(String kind, List<String> nodes, double start, double heal, double end) {
    return new FaultRecord(kind, kind, null, nodes, start, heal, end, end - heal, null);
  }

  @Test
  void quorumLossBehavioursHoldWhenUpdatesAreRefusedAndQueriesGoOn() {
    List<HistoryEvent> es = new ArrayList<>();
    for (long t = 0; t < 60_000; t += 500) {
      // Solr goes on accepting updates until 90 % of the 30 s session timeout has passed
      boolean lost = t >= 37_000 && t < 50_000;
      es.add(add(t, !lost, lost ? 503 : 200));
      es.add(query(t + 100, "plain", true, false, !lost, lost ? 50 : 5));
    }
    HistoryStats s = new HistoryStats(es);
    FaultRecord f = fault("zk-quorum", List.of("zk1", "zk2"), 10, 50, 51);
    ChaosVerdict.FaultVerdict v = s.judge(f, FaultSchedulingTest.topology());
    assertThat(v.behaviours()).hasSize(2).allMatch(b -> b.pass());
    assertThat(v.behaviours().get(0).observed())
        .contains("first 503 27.0 s after the quorum was lost");
    assertThat(v.writes().failed()).isEqualTo(26);
    assertThat(v.errors())
        .containsKey("add HTTP 503: Cannot talk to ZooKeeper - Updates are disabled.");
    assertThat(s.availability(e -> true)).isEqualTo(214.0 / 240);

    // a quorum loss shorter than that cannot show the behaviour: not reached, neither pass nor fail
    ChaosVerdict.FaultVerdict shortLoss =
        s.judge(
            fault("zk-quorum", List.of("zk1", "zk2"), 0, 10, 11), FaultSchedulingTest.topology());
    assertThat(shortLoss.behaviours()).hasSize(1);
    assertThat(shortLoss.behaviours().get(0).pass()).isNull();
    assertThat(shortLoss.behaviours().get(0).observed())
        .contains("not reached")
        .contains("20 of 20");
    var phases = s.phases(List.of(f));
    assertThat(phases.keySet()).containsExactly("before", "during", "after");
    assertThat(phases.get("during").max()).isEqualTo(50.0, Assertions.within(0.1));
    assertThat(phases.get("before").max()).isEqualTo(5.0, Assertions.within(0.1));

    // one update acknowledged well inside the window: the behaviour did not hold
    es.add(add(45_250, true, 200));
    assertThat(
            new HistoryStats(es)
                .judge(f, FaultSchedulingTest.topology())
                .behaviours()
                .get(0)
                .pass())
        .isFalse();
  }

  @Test
  void aShardWithNoLiveReplicaFailsPlainQueriesAndGivesPartialTolerantOnes() {
    List<HistoryEvent> es = new ArrayList<>();
    for (long t = 0; t < 30_000; t += 500) {
      boolean down = t >= 10_000 && t < 20_000;
      es.add(query(t, "plain", !down, false, true, 5));
      es.add(query(t + 250, "tolerant", true, down, true, 5));
    }
    HistoryStats s = new HistoryStats(es);
    // solr2 + solr3 hold every replica of shard2
    FaultRecord both = fault("kill", List.of("solr2", "solr3"), 10, 20, 25);
    assertThat(HistoryStats.shardDown(both, FaultSchedulingTest.topology())).isTrue();
    ChaosVerdict.FaultVerdict v = s.judge(both, FaultSchedulingTest.topology());
    assertThat(v.behaviours())
        .extracting(ChaosVerdict.Behaviour::expected)
        .containsExactly(
            "queries without shards.tolerant fail",
            "shards.tolerant queries answer with partialResults:true");
    assertThat(v.behaviours()).allMatch(b -> b.pass());
    // one node down leaves a replica of every shard: nothing is expected to fail
    FaultRecord one = fault("kill", List.of("solr2"), 10, 20, 25);
    assertThat(s.judge(one, FaultSchedulingTest.topology()).behaviours()).isEmpty();
  }

  @Test
  void theTimelineHasARowPerSecond() {
    List<HistoryEvent> es =
        List.of(
            add(0, true, 200), add(2500, false, 503), query(2600, "plain", true, false, true, 7));
    List<TimelineRow> rows = new HistoryStats(es).timeline();
    assertThat(rows).hasSize(3); // seconds 0, 1 and 2 (the header is the file's, not a row)
    TimelineRow last = rows.get(2);
    assertThat(last.second()).isEqualTo(2);
    assertThat(last.requests()).isEqualTo(2);
    assertThat(last.errors()).isEqualTo(1);
    assertThat(last.latencyP50Ms()).isBetween(7.0, 7.1);
    assertThat(last.writes()).isEqualTo(1);
    assertThat(last.writeErrors()).isEqualTo(1);
  }
}
