package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.LossVerdict;

/**
 * chaos's text output says what its --json says: the same figures for the same verdict, every
 * reason a run was no test, and a headline that is PASS only for a pass.
 */
class ChaosOutputTest {
  static ChaosVerdict verdict(String verdict, List<String> notTested, List<FaultRecord> faults) {
    ChaosVerdict.Counts w = new ChaosVerdict.Counts(1200, 1187, 9, 4, null, null, 1);
    ChaosVerdict.Counts q = new ChaosVerdict.Counts(300, 296, 4, 0, 0L, 0L, null);
    return new ChaosVerdict(
        verdict.equals(ChaosVerdict.PASS),
        verdict,
        null,
        notTested,
        new LossVerdict(
            11_870,
            11_870L,
            0L,
            List.of(),
            13L,
            Map.of(),
            Map.of("1", 11_870L),
            null,
            0L,
            List.of(),
            null),
        0,
        null,
        true,
        0.9913,
        faults.stream().anyMatch(FaultRecord::injected) ? 0.975 : null,
        w,
        q,
        Map.of("add HTTP 503: no servers hosting shard", 9L),
        Map.of("all", new ChaosVerdict.Percentiles(296, 4.25, 31.5, 88.0)),
        List.of(
            new ChaosVerdict.ShardAgreement(
                "shard1",
                true,
                List.of(new ChaosVerdict.ReplicaCount("core_node2", "solr2", 5_900, 5_900, null)),
                null)),
        faults.stream()
            .map(
                f ->
                    new ChaosVerdict.FaultVerdict(
                        f, f.injected() ? 0.975 : null, null, null, null, List.of()))
            .toList());
  }

  static String print(ChaosVerdict v) {
    PrintStream old = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      ChaosCommand.print(v, Path.of("/tmp/runs/chaos-1"));
      return out.toString(StandardCharsets.UTF_8);
    } finally {
      System.setOut(old);
    }
  }

  @Test
  void aRunThatWasNoTestSaysWhyAndNeverPass() throws Exception {
    FaultRecord refused =
        new FaultRecord(
            "kill",
            "kill",
            "leader-of:shard1",
            List.of(),
            null,
            null,
            null,
            null,
            "not injected: refused by a safety rule: kill solr2 refused: shard1 has 1 live"
                + " replica, on solr2; kill needs 2 live replicas of shard1, so one stays up, or use"
                + " --unsafe");
    ChaosVerdict v =
        verdict(
            ChaosVerdict.NOT_TESTED,
            List.of(
                "fault 'kill' (kill leader-of:shard1) was not injected: refused by a safety rule:"
                    + " kill solr2 refused"),
            List.of(refused));
    String text = print(v);
    JsonNode json = Terminal.JSON.readTree(Terminal.JSON.writeValueAsString(v));
    assertThat(text)
        .contains(
            String.format(
                Locale.ROOT,
                "acknowledged %,d, found %,d, lost %,d",
                json.get("acknowledged").asLong(),
                json.get("found").asLong(),
                json.get("lost").asLong()))
        .contains(
            String.format(
                Locale.ROOT,
                "availability %.1f %% overall",
                json.get("availability").asDouble() * 100))
        .contains(
            String.format(
                Locale.ROOT,
                "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d)",
                json.at("/latency_ms/all/p50").asDouble(),
                json.at("/latency_ms/all/p99").asDouble(),
                json.at("/latency_ms/all/max").asDouble(),
                json.at("/latency_ms/all/count").asLong()))
        .contains("replicas: " + json.get("shards").size() + " shard(s) checked, 0 divergent")
        .contains("  not tested: " + json.get("not_tested").get(0).asText())
        .contains("fault kill: " + json.at("/faults/0/fault/note").asText())
        .contains("NOT TESTED (no verdict: the fault did not make a test): details in")
        .doesNotContain("PASS");
    assertThat(json.get("ok").asBoolean()).isFalse();
    assertThat(json.get("verdict").asText()).isEqualTo("not tested");
  }

  @Test
  void aPassWithoutAFaultSaysItWasTheWorkloadAlone() {
    assertThat(print(verdict(ChaosVerdict.PASS, null, List.of())))
        .contains("PASS (no fault: the workload and the checks alone): details in");
    FaultRecord held =
        new FaultRecord("kill", "kill", "solr2", List.of("solr2"), 10.0, 25.0, 31.0, 6.0, null);
    String text = print(verdict(ChaosVerdict.PASS, null, List.of(held)));
    assertThat(text.lines().filter(l -> l.startsWith("PASS: details in"))).hasSize(1);
    assertThat(text).contains("availability 99.1 % overall, 97.5 % during faults");
  }
}
