package org.solrscale.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run directory's CSV files: what is written reads back the same, names with commas, quotes and
 * line breaks too.
 */
class CsvTableTest {
  @TempDir Path dir;

  @Test
  void namesWithCommasQuotesAndLineBreaksRoundTrip() throws Exception {
    List<TelemetrySample> rows =
        List.of(
            new TelemetrySample(0.0, "solr1", "cpu", 0.25),
            new TelemetrySample(2.1, "node,\"east\"\nrack 2", "heap,used", 1.5e8),
            new TelemetrySample(4.2, "", "gc_ms", 0));
    Path file = dir.resolve("telemetry.csv");
    TelemetrySample.TABLE.write(file, rows);
    assertThat(Files.readAllLines(file).get(0)).isEqualTo("second,node,metric,value");
    assertThat(TelemetrySample.read(file)).isEqualTo(rows);
  }

  @Test
  void aTimelineReadsBackAndOlderFilesWithFewerColumnsStillRead() throws Exception {
    TimelineRow bench =
        new TimelineRow(3.0, true, 40, 1, 40.0, 5.125, 9.5, 12.0, 4.0, 8.0, 81920, 1.0);
    TimelineRow chaos =
        new TimelineRow(
            4.0, TimelineRow.MEASURED, 25, 2, 25.0, 7.0, 9.0, 11.0, 0, 0, 0, 1.0, 20L, 2L, 180L);
    Path file = dir.resolve("timeline.csv");
    TimelineRow.TABLE.write(file, List.of(bench, chaos));
    assertThat(Timeline.read(file)).containsExactly(bench, chaos);
    // a file written before the seconds and chaos columns: they read as their defaults
    Path old = dir.resolve("old.csv");
    Files.writeString(
        old,
        "second,phase,requests,errors,qps,latency_p50_ms,latency_p99_ms,latency_max_ms\n"
            + "1,warmup,10,0,10,5,9,12\n0,measured,20,0,20,4,8,9\n");
    List<TimelineRow> read = Timeline.read(old);
    assertThat(read).extracting(TimelineRow::second).containsExactly(0.0, 1.0);
    assertThat(read.get(1).warmup()).isTrue();
    assertThat(read.get(0).seconds()).isEqualTo(1.0);
    assertThat(read.get(0).writes()).isNull();
  }
}
