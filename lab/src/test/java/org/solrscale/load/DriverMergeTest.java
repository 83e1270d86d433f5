package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.IntervalLog;
import org.solrscale.results.TimelineRow;

/**
 * Two drivers' interval logs merge to exactly the histogram of all their samples: planted values,
 * one driver's host clock 7 s ahead of the other's.
 */
class DriverMergeTest {
  static final long START = 1_800_000_000_000L;

  /** A driver's run directory: per second, {@code perSecond} planted latencies (and services). */
  static List<Long> plant(
      Path dir, long hostStart, int seconds, int perSecond, long seed, long offset)
      throws Exception {
    Files.createDirectories(dir);
    Random rnd = new Random(seed);
    List<Long> all = new ArrayList<>();
    List<TimelineRow> rows = new ArrayList<>();
    try (PrintStream ps = new PrintStream(Files.newOutputStream(dir.resolve("latency.hlog")))) {
      HistogramLogWriter w = new HistogramLogWriter(ps);
      w.outputLogFormatVersion();
      w.outputStartTime(hostStart);
      w.setBaseTime(hostStart);
      for (int s = 0; s < seconds; s++) {
        Histogram lat = new Histogram(3600_000_000L, 3);
        Histogram svc = new Histogram(3600_000_000L, 3);
        for (int i = 0; i < perSecond; i++) {
          long v = offset + rnd.nextInt(200_000);
          lat.recordValue(v);
          svc.recordValue(v / 2);
          all.add(v);
        }
        // a driver's ticks are a few ms off the agreed start, as real ones are
        long begin = hostStart + s * 1000L + 3 + seed;
        for (Object[] t : new Object[][] {{"latency", lat}, {"service", svc}}) {
          Histogram h = (Histogram) t[1];
          h.setStartTimeStamp(begin);
          h.setEndTimeStamp(begin + 1000);
          h.setTag((String) t[0]);
          w.outputIntervalHistogram(h);
        }
        // what the live view reads after each second (RunLog writes the same)
        w.outputComment(
            RunLog.LIVE_COMMENT
                + "{\"end_ms\":"
                + (begin + 1000)
                + ",\"cpu_cores\":0.25,\"errors\":{\"timeout\":1},\"sent\":"
                + perSecond
                + "}");
        rows.add(
            new TimelineRow(
                s, false, perSecond, 1, perSecond, 0, 0, 0, 0, 0, 1000L * perSecond, 1));
      }
    }
    TimelineRow.TABLE.write(dir.resolve("timeline.csv"), rows);
    Histogram lat = new Histogram(3600_000_000L, 3);
    all.forEach(lat::recordValue);
    BenchSummary s =
        new BenchSummary(
            "open",
            hostStart,
            all.size(),
            new BenchSummary.Errors(
                seconds, Map.of("timeout", new BenchSummary.ErrorKind(seconds, List.of("slow")))),
            seconds + 1,
            new BenchSummary.Throughput(perSecond, perSecond),
            BenchSummary.millis(lat),
            BenchSummary.millis(lat),
            null,
            null,
            null,
            List.of(),
            List.of(),
            null,
            new BenchSummary.Warmup(0, 0),
            seconds,
            0,
            new BenchSummary.DriverHealth(12, 2, Map.of("p99", 0.1), "server"),
            0.5,
            null,
            null,
            List.of((double) perSecond),
            null,
            null);
    new ObjectMapper().writeValue(dir.resolve("summary.json").toFile(), s);
    return all;
  }

  @Test
  void twoDriversMergeToTheHistogramOfAllTheirSamples(@TempDir Path dir) throws Exception {
    long ahead = 7_000; // driver b's host clock
    List<Long> a = plant(dir.resolve("a"), START, 10, 50, 1, 1_000);
    List<Long> b = plant(dir.resolve("b"), START + ahead, 10, 70, 2, 50_000);
    Path out = dir.resolve("merged");
    Files.createDirectories(out);
    BenchSummary s =
        DriverMerge.merge(
            List.of(
                new DriverMerge.Driver("h1", dir.resolve("a")),
                new DriverMerge.Driver("h2", dir.resolve("b"))),
            List.of(START, START + ahead),
            out,
            START,
            0.5);

    Histogram expected = new Histogram(3600_000_000L, 3);
    a.forEach(expected::recordValue);
    b.forEach(expected::recordValue);
    Histogram merged =
        IntervalLog.read(out.resolve("latency.hlog")).merged("latency").orElseThrow();
    assertThat(merged.getTotalCount()).isEqualTo(1200);
    for (double p : new double[] {50, 90, 99, 99.9, 100}) {
      assertThat(merged.getValueAtPercentile(p))
          .as("p" + p)
          .isEqualTo(expected.getValueAtPercentile(p));
    }
    assertThat(merged).isEqualTo(expected); // every bucket's count, not only some percentiles
    assertThat(s.count()).isEqualTo(1200);
    assertThat(s.latencyMs()).isEqualTo(BenchSummary.millis(expected));
    assertThat(s.errors().total()).isEqualTo(20);
    assertThat(s.errors().byKind().get("timeout").count()).isEqualTo(20);
    assertThat(s.partial()).isEqualTo(22); // each driver's partial answers (seconds + 1) added
    assertThat(s.rates()).containsExactly(120.0);
    assertThat(s.drivers()).extracting(BenchSummary.DriverRun::host).containsExactly("h1", "h2");
    assertThat(s.drivers().get(1).bottleneck()).isEqualTo("server");

    // per second: both drivers' intervals of the same second, whatever their host clocks say
    IntervalLog log = IntervalLog.read(out.resolve("latency.hlog"));
    assertThat(log.tagged("latency")).hasSize(10);
    assertThat(log.tagged("latency"))
        .allSatisfy(e -> assertThat(e.histogram().getTotalCount()).isEqualTo(120));
    List<TimelineRow> rows = TimelineRow.TABLE.read(out.resolve("timeline.csv"));
    assertThat(rows).hasSize(10);
    assertThat(rows).allSatisfy(r -> assertThat(r.requests()).isEqualTo(120));
  }

  @Test
  void aSummaryThatDisagreesWithItsLogIsRefusedNotMerged(@TempDir Path dir) throws Exception {
    plant(dir.resolve("a"), START, 3, 10, 1, 1_000);
    plant(dir.resolve("b"), START, 3, 10, 2, 1_000);
    Files.delete(dir.resolve("b/latency.hlog"));
    Files.writeString(dir.resolve("b/latency.hlog"), "");
    Path out = Files.createDirectories(dir.resolve("merged"));
    assertThatThrownBy(
            () ->
                DriverMerge.merge(
                    List.of(
                        new DriverMerge.Driver("h1", dir.resolve("a")),
                        new DriverMerge.Driver("h2", dir.resolve("b"))),
                    List.of(START, START),
                    out,
                    START,
                    0.5))
        .hasMessageContaining("the merge would not be exact");
  }

  @Test
  void aStaircaseOnTwoDriversMergesStepByStep(@TempDir Path dir) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<Histogram> expected =
        List.of(new Histogram(3600_000_000L, 3), new Histogram(3600_000_000L, 3));
    List<DriverMerge.Driver> drivers = new ArrayList<>();
    for (int d = 0; d < 2; d++) {
      Path run = dir.resolve("d" + d);
      plant(run, START, 4, 10, d, 1_000);
      Random rnd = new Random(d);
      List<BenchSummary.Step> steps = new ArrayList<>();
      try (PrintStream ps = new PrintStream(Files.newOutputStream(run.resolve(Bench.STEPS_LOG)))) {
        HistogramLogWriter w = new HistogramLogWriter(ps);
        w.outputLogFormatVersion();
        w.outputStartTime(START);
        w.setBaseTime(START);
        for (int k = 0; k < 2; k++) {
          Histogram lat = new Histogram(3600_000_000L, 3);
          for (int i = 0; i < 20 * (k + 1); i++) {
            lat.recordValue(1_000 + rnd.nextInt(100_000 * (k + 1)));
          }
          expected.get(k).add(lat);
          for (String tag : List.of("latency", "service", "lag")) {
            Histogram h = lat.copy();
            h.setStartTimeStamp(START + 2000L * k);
            h.setEndTimeStamp(START + 2000L * (k + 1));
            h.setTag("step" + (k + 1) + "-" + tag);
            w.outputIntervalHistogram(h);
          }
          steps.add(
              new BenchSummary.Step(
                  10.0 * (k + 1),
                  9.5 * (k + 1),
                  2,
                  2.0 * k,
                  20L * (k + 1),
                  19L * (k + 1),
                  (long) d,
                  BenchSummary.millis(lat),
                  BenchSummary.millis(lat),
                  BenchSummary.millis(lat),
                  40.0,
                  d == 1 && k == 1 ? "server (latency grew)" : "none"));
        }
      }
      ObjectNode summary = (ObjectNode) json.readTree(run.resolve("summary.json").toFile());
      summary.set("steps", json.valueToTree(steps));
      json.writeValue(run.resolve("summary.json").toFile(), summary);
      drivers.add(new DriverMerge.Driver("h" + (d + 1), run));
    }
    Path out = Files.createDirectories(dir.resolve("merged"));
    BenchSummary s = DriverMerge.merge(drivers, List.of(START, START), out, START, 0.5);
    assertThat(s.steps()).hasSize(2);
    assertThat(s.rates()).containsExactly(20.0, 40.0);
    for (int k = 0; k < 2; k++) {
      BenchSummary.Step step = s.steps().get(k);
      assertThat(step.rate()).isEqualTo(20.0 * (k + 1));
      assertThat(step.achieved()).isEqualTo(19.0 * (k + 1));
      assertThat(step.scheduled()).isEqualTo(40L * (k + 1));
      assertThat(step.errors()).isEqualTo(1L);
      assertThat(step.latencyMs()).isEqualTo(BenchSummary.millis(expected.get(k)));
    }
    assertThat(s.steps().get(0).bottleneck()).isEqualTo("none");
    assertThat(s.steps().get(1).bottleneck()).isEqualTo("h2: server (latency grew)");
  }
}
