package org.solrscale.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The loss checker's findings are embedded in the chaos verdict as a record, yet verdict.json keeps
 * them as the verdict's own fields (as every run before this change wrote them), and reads back
 * equal.
 */
class ChaosVerdictJsonTest {
  static final ObjectMapper WRITE = new ObjectMapper();

  static ChaosVerdict verdict(LossVerdict loss, List<String> notChecked) {
    ChaosVerdict.Counts w = new ChaosVerdict.Counts(100, 90, 8, 2, null, null, 1);
    return new ChaosVerdict(
        false,
        notChecked == null ? ChaosVerdict.FAIL : ChaosVerdict.NOT_CHECKED,
        notChecked,
        null,
        loss,
        0,
        12.5,
        true,
        0.9,
        0.8,
        w,
        w,
        Map.of("add HTTP 500", 8L),
        Map.of("before", new ChaosVerdict.Percentiles(10, 5, 9, 9)),
        List.of(),
        List.of());
  }

  @Test
  void theLossFindingsAreTheVerdictsOwnFieldsAndReadBackEqual() throws Exception {
    LossVerdict loss =
        new LossVerdict(
            1000,
            992L,
            8L,
            List.of("a-1", "a-2"),
            3L,
            Map.of("1", 8L),
            Map.of("1", 1000L),
            new LostBatches(1, 0, 1, 1),
            12L,
            List.of(new LostWrite(11_000, 28_117.0, "127.0.0.1:8986", 1, 10, List.of("a-1"))),
            new LossVerdict.Unsettled(List.of("shard2"), 2, List.of("a-3", "a-4")));
    ChaosVerdict v = verdict(loss, null);
    JsonNode json = WRITE.readTree(WRITE.writeValueAsString(v));
    List<String> keys = new ArrayList<>();
    json.fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .doesNotContain("loss")
        .contains(
            "acknowledged",
            "found",
            "lost",
            "lost_ids",
            "unacknowledged_found",
            "lost_by_rf",
            "acknowledged_by_rf",
            "lost_batches",
            "known_defect",
            "partly_replicated",
            "lost_writes",
            "unsettled",
            "divergent_shards");
    assertThat(json.get("lost").asLong()).isEqualTo(8);
    assertThat(json.get("known_defect").asText()).contains("SOLR-5939");
    assertThat(RunDir.JSON.readValue(WRITE.writeValueAsString(v), ChaosVerdict.class)).isEqualTo(v);
  }

  @Test
  void anUncheckedLossLeavesFoundAndLostOutAndItsReasonInTheVerdictsList() throws Exception {
    ChaosVerdict v = verdict(LossVerdict.unchecked(40), List.of("loss: the commit failed"));
    JsonNode json = WRITE.readTree(WRITE.writeValueAsString(v));
    assertThat(json.has("found")).isFalse();
    assertThat(json.has("lost")).isFalse();
    assertThat(json.has("known_defect")).isFalse();
    assertThat(json.get("acknowledged").asLong()).isEqualTo(40);
    assertThat(json.get("not_checked").get(0).asText()).isEqualTo("loss: the commit failed");
    ChaosVerdict back = RunDir.JSON.readValue(WRITE.writeValueAsString(v), ChaosVerdict.class);
    assertThat(back).isEqualTo(v);
    assertThat(back.loss().checked()).isFalse();
  }
}
