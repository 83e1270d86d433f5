package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.LostBatches;
import org.solrscale.results.LostWrite;
import org.solrscale.spec.SolrscaleException;

/** The loss checker against planted histories and planted losses. */
class LossCheckerTest {
  @TempDir Path dir;

  /** 1,200 acknowledged ids in batches of 10, 30 in failed adds, 20 in timed-out ones. */
  Path history() {
    Path f = dir.resolve("history.jsonl");
    try (History h = new History(f)) {
      for (int b = 0; b < 120; b++) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          ids.add("a" + (b * 10 + i));
        }
        h.append(HistoryEvent.add(b * 100L, ids, HistoryEvent.OK, 2, 200, null));
      }
      h.append(
          HistoryEvent.add(
              20_000, List.of("f1", "f2", "f3"), HistoryEvent.FAIL, null, 503, "no leader"));
      for (int i = 0; i < 20; i++) {
        h.append(
            HistoryEvent.add(
                21_000 + i, List.of("t" + i), HistoryEvent.INFO, null, null, "timeout"));
      }
      // a failed add retried with success counts as acknowledged
      h.append(HistoryEvent.add(22_000, List.of("r1"), HistoryEvent.FAIL, null, 503, "no leader"));
      h.append(HistoryEvent.add(22_500, List.of("r1"), HistoryEvent.OK, 1, 200, null));
      h.append(new HistoryEvent(23_000, "query", null, "q=*:*", HistoryEvent.OK, null, 200, null));
    }
    return f;
  }

  /**
   * With shard2 leaderless, ids not found there are unsettled, those not found on shard1 lost. The
   * planted routing puts even-numbered ids on shard2.
   */
  @Test
  void anIdNotFoundOnALeaderlessShardIsUnsettledNotLost() {
    Set<String> index = new HashSet<>();
    for (int i = 0; i < 1200; i++) {
      index.add("a" + i);
    }
    index.add("r1");
    index.removeAll(List.of("a7", "a500", "a502", "a1198")); // one odd (shard1), three even
    LossChecker.Leaderless shard2 =
        new LossChecker.Leaderless() {
          @Override
          public List<String> shards() {
            return List.of("shard2");
          }

          @Override
          public String shardOf(String id) {
            return id.matches("a\\d*[02468]") ? "shard2" : null;
          }
        };
    LossChecker.Verdict v =
        LossChecker.check(
            history(),
            batch -> batch.stream().filter(index::contains).collect(Collectors.toSet()),
            null,
            shard2);
    assertThat(v.findings().lost()).isEqualTo(1L);
    assertThat(v.findings().lostIds()).containsExactly("a7");
    assertThat(v.findings().lostByRf()).isEqualTo(Map.of("2", 1L));
    assertThat(v.findings().found()).isEqualTo(1197L);
    assertThat(v.findings().unsettled().shards()).containsExactly("shard2");
    assertThat(v.findings().unsettled().notFound()).isEqualTo(3);
    assertThat(v.findings().unsettled().ids()).containsExactly("a500", "a502", "a1198");
    assertThat(ChaosRun.unsettled(v.findings()).orElseThrow())
        .startsWith("loss of 3 acknowledged document(s) not found on shard2, which had no leader")
        .contains("(first: a500, a502, a1198)");
    // with every shard led, there is nothing unsettled to say
    LossChecker.Verdict led =
        LossChecker.check(
            history(), batch -> batch.stream().filter(index::contains).collect(Collectors.toSet()));
    assertThat(led.findings().lost()).isEqualTo(4L);
    assertThat(led.findings().unsettled()).isNull();
    assertThat(ChaosRun.unsettled(led.findings())).isEmpty();
  }

  @Test
  void documentsDeletedBehindItsBackAreReportedById() {
    Set<String> index = new HashSet<>();
    for (int i = 0; i < 1200; i++) {
      index.add("a" + i);
    }
    index.add("r1");
    index.addAll(List.of("t3", "t4", "f2")); // some unacknowledged writes did land
    index.removeAll(List.of("a7", "a500", "a1199")); // the planted loss
    LossChecker.Verdict v =
        LossChecker.check(
            history(), batch -> batch.stream().filter(index::contains).collect(Collectors.toSet()));
    assertThat(v.findings().acknowledged()).isEqualTo(1201);
    assertThat(v.findings().found()).isEqualTo(1198L);
    assertThat(v.findings().lost()).isEqualTo(3L);
    assertThat(v.findings().lostIds()).containsExactly("a7", "a500", "a1199");
    assertThat(v.findings().unacknowledgedFound()).isEqualTo(3L);
    assertThat(v.findings().lostByRf()).containsExactly(Map.entry("2", 3L));
    // the writes that carried them: a7 in the first batch, a500 in the 51st, a1199 in the last
    assertThat(v.findings().lostWrites())
        .extracting(LostWrite::timeMs)
        .containsExactly(0L, 5000L, 11_900L);
    assertThat(v.findings().lostWrites().get(1).lostIds()).containsExactly("a500");
    assertThat(v.findings().lostWrites().get(1).batch()).isEqualTo(10);
    assertThat(v.findings().lostWrites().get(1).rf()).isEqualTo(2);
    assertThat(v.ok()).isFalse();
  }

  @Test
  void wholeAndPartialLostBatchesNameSolr5939AndAcksAreCountedByRf() {
    Set<String> index = new HashSet<>();
    for (int i = 0; i < 1200; i++) {
      index.add("a" + i);
    }
    index.add("r1");
    for (int i = 300; i < 310; i++) {
      index.remove("a" + i); // the whole 31st batch
    }
    index.removeAll(List.of("a41", "a45")); // two ids of the 5th
    LossChecker.Verdict v =
        LossChecker.check(
            history(), batch -> batch.stream().filter(index::contains).collect(Collectors.toSet()));
    assertThat(v.findings().lost()).isEqualTo(12L);
    assertThat(v.findings().lostBatches()).isEqualTo(new LostBatches(2, 1, 1, 2));
    assertThat(v.findings().lostBatches().knownDefect())
        .startsWith("lost ids came in 2 acknowledged write(s) (1 lost whole, 1 in part)")
        .contains("SOLR-5939")
        .endsWith("docs/findings/solr-5939.md");
    // 1,200 ids acknowledged with rf=2, the retried r1 with rf=1
    assertThat(v.findings().acknowledgedByRf())
        .containsExactly(Map.entry("1", 1L), Map.entry("2", 1200L));
    // a lost single-document write is no batch: no SOLR-5939 line
    index.add("a41");
    index.add("a45");
    for (int i = 300; i < 310; i++) {
      index.add("a" + i);
    }
    index.remove("r1");
    LossChecker.Verdict single =
        LossChecker.check(
            history(), batch -> batch.stream().filter(index::contains).collect(Collectors.toSet()));
    assertThat(single.findings().lostBatches()).isEqualTo(new LostBatches(1, 1, 0, 0));
    assertThat(single.findings().lostBatches().knownDefect()).isNull();
  }

  @Test
  void anAnswerBelowMinRfIsNotAnAcknowledgement() {
    assertThat(ChaosWorkload.belowMinRf(1, 2)).isTrue();
    assertThat(ChaosWorkload.belowMinRf(2, 2)).isFalse();
    // Solr's "could not count" value is at least any min_rf
    assertThat(ChaosWorkload.belowMinRf(Integer.MAX_VALUE, 2)).isFalse();
    assertThat(ChaosWorkload.belowMinRf(null, 2)).isFalse();
    assertThat(ChaosWorkload.belowMinRf(1, null)).isFalse();
  }

  @Test
  void nothingLostIsOk() {
    LossChecker.Verdict v = LossChecker.check(history(), batch -> new HashSet<>(batch));
    assertThat(v.findings().lost()).isZero();
    assertThat(v.ok()).isTrue();
    assertThat(v.findings().unacknowledgedFound()).isEqualTo(23L);
  }

  @Test
  void aCollectionThatCannotBeAskedIsNoVerdict() {
    LossChecker.Verdict v =
        LossChecker.check(
            history(),
            batch -> {
              throw SolrscaleException.failed("undefined field chaos_run_s");
            });
    assertThat(v.findings().acknowledged()).isEqualTo(1201); // what the history says still stands
    assertThat(v.findings().lost()).isNull();
    assertThat(v.findings().found()).isNull();
    assertThat(v.notChecked()).contains("undefined field chaos_run_s");
    assertThat(v.ok()).isFalse();
  }
}
