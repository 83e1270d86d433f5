package org.solrscale.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.RanOn;
import org.solrscale.results.RunDir;
import org.solrscale.results.StepResult;

/** The resume logic: what a run recorded is what a second run skips, and a broken file is named. */
class RunRecordTest {
  @TempDir Path dir;

  static CombinationRun result(String id, int repeat, String status) {
    return result(id, repeat, status, null);
  }

  static CombinationRun result(String id, int repeat, String status, RanOn ranOn) {
    return new CombinationRun(
        id,
        Map.of("bench.threads", 2),
        repeat,
        id + "/r" + repeat,
        status,
        null,
        1.5,
        List.of(
            new StepResult(
                1, "wait", "wait", id + "/r" + repeat + "/s1-wait-wait", null, null, null, null)),
        ranOn);
  }

  @Test
  void aSecondRunSeesWhatTheFirstFinished() {
    RunRecord first = new RunRecord(dir, "sweep");
    first.add(result("c001", 1, "done"));
    first.add(result("c001", 2, "done"));
    first.add(result("c002", 1, "failed"));

    RunRecord second = new RunRecord(dir, "sweep"); // as a resumed run reads it
    assertThat(second.done("c001", 1)).isTrue();
    assertThat(second.done("c001", 2)).isTrue();
    assertThat(second.done("c002", 1)).isFalse(); // not done: runs again
    assertThat(second.done("c003", 1)).isFalse();

    second.add(result("c002", 1, "done")); // replaces, does not duplicate
    assertThat(new RunRecord(dir, "sweep").done("c002", 1)).isTrue();
    assertThat(Files.exists(dir.resolve("results.json.tmp"))).isFalse();
  }

  @Test
  void eachRepeatKeepsWhereItRanAcrossAResume() {
    RanOn here = Environment.ranOn("4cfd5c1666c3951cce49f6e462eddeb41bf0c139");
    RanOn elsewhere = new RanOn("0badc0de-0000-4000-8000-000000000000", "d40fc64", "x", 812.0);
    RunRecord first = new RunRecord(dir, "sweep");
    first.add(result("c001", 1, "done", elsewhere));
    new RunRecord(dir, "sweep").add(result("c001", 2, "done", here)); // resumed elsewhere
    List<CombinationRun> read = RunDir.open(dir).results().combinations();
    assertThat(read).extracting(CombinationRun::ranOn).containsExactly(elsewhere, here);
    // the boot id is Linux's own; the score a positive figure of this machine
    assertThat(here.bootId()).isEqualTo(Environment.bootId()).matches("[0-9a-f-]{36}");
    assertThat(here.cpuScore()).isPositive();
    assertThat(Instant.parse(here.started())).isBefore(Instant.now().plusSeconds(1));
    assertThat(RanOn.mixed(read))
        .startsWith("the repeats pooled here ran on 2 machines or boots (0badc0de: 1 repeat, CPU")
        .contains(here.bootId().substring(0, 8) + ": 1 repeat, CPU score ")
        .contains(" and 2 solrscale revisions (d40fc64: 1 repeat, 4cfd5c1: 1 repeat)");
    assertThat(RanOn.mixed(List.of(read.get(1)))).isNull();
    // a repeat from before the record beside two from one boot (a run resumed by a newer solrscale)
    CombinationRun older = result("c001", 3, "done", null);
    assertThat(RanOn.mixed(List.of(older, read.get(1), result("c002", 1, "done", here))))
        .startsWith(
            "the repeats pooled here include 1 repeat with no record of where (run by an older"
                + " solrscale) beside 2 repeats on "
                + here.bootId().substring(0, 8)
                + ": ");
  }

  @Test
  void aBrokenResultsFileIsNamedWithWhatToDo() throws Exception {
    Files.writeString(dir.resolve("results.json"), "{ broken");
    assertThatThrownBy(() -> new RunRecord(dir, "sweep"))
        .hasMessageContaining("results.json cannot be read")
        .hasMessageContaining("move it away");
  }

  @Test
  void resultsCsvQuotesMatrixValuesAndStepNamesThatNeedIt() throws Exception {
    RunRecord record = new RunRecord(dir, "sweep");
    JsonNode summary =
        new ObjectMapper()
            .readTree(
                "{\"count\": 100, \"throughput\": {\"achieved\": 12.345}, \"latency_ms\": {\"p50\": 1.5, \"p99\": 9.25, "
                    + "\"p99.9\": 12, \"max\": 20}, \"errors\": {\"total\": 3}}");
    record.add(
        new CombinationRun(
            "c001",
            Map.of("cluster.jvm_args", List.of("-Da=1,2", "-Db=\"x\"")),
            1,
            "c001/r1",
            "done",
            null,
            2.0,
            List.of(
                new StepResult(
                    1,
                    "bench",
                    "warm, \"cached\"\nsecond",
                    "c001/r1/s1",
                    "done",
                    null,
                    summary,
                    null)),
            null));
    CsvMapper csv = new CsvMapper();
    csv.enable(CsvParser.Feature.WRAP_AS_ARRAY);
    List<List<String>> rows = new ArrayList<>();
    try (MappingIterator<List<String>> it =
        csv.readerForListOf(String.class).readValues(dir.resolve("results.csv").toFile())) {
      it.forEachRemaining(rows::add);
    }
    assertThat(rows.get(0))
        .containsExactly(
            "id",
            "cluster.jvm_args",
            "repeat",
            "status",
            "step",
            "count",
            "achieved",
            "p50",
            "p99",
            "p99.9",
            "max",
            "errors");
    assertThat(rows.get(1))
        .containsExactly(
            "c001",
            "[-Da=1,2, -Db=\"x\"]",
            "1",
            "done",
            "warm, \"cached\"\nsecond",
            "100",
            "12.35",
            "1.5",
            "9.25",
            "12.0",
            "20.0",
            "3");
  }
}
