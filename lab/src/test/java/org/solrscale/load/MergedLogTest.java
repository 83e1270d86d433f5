package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.HlogTail;
import org.solrscale.results.IntervalLog;

/**
 * The merged log written while drivers run: a second appears once every driver closed it, holds all
 * drivers' samples of that second, and the whole log ends equal to the one merged afterwards from
 * the drivers' own logs.
 */
class MergedLogTest {
  static final long START = DriverMergeTest.START;

  private static List<HlogTail.Entry> read(Path file) throws Exception {
    List<HlogTail.Entry> out = new ArrayList<>();
    HlogTail p = HlogTail.parser();
    for (String l : Files.readAllLines(file)) {
      HlogTail.Entry e = p.parse(l);
      if (e != null) {
        out.add(e);
      }
    }
    return out;
  }

  private static long seconds(Path file, String tag) throws Exception {
    return read(file).stream().filter(e -> tag.equals(e.tag())).count();
  }

  @Test
  void aSecondIsWrittenOnceEveryDriverClosedIt(@TempDir Path dir) throws Exception {
    long ahead = 7_000; // driver b's host clock
    List<Long> a = DriverMergeTest.plant(dir.resolve("a"), START, 10, 50, 1, 1_000);
    List<Long> b = DriverMergeTest.plant(dir.resolve("b"), START + ahead, 10, 70, 2, 50_000);
    List<String> la = Files.readAllLines(dir.resolve("a/latency.hlog"));
    List<String> lb = Files.readAllLines(dir.resolve("b/latency.hlog"));
    Path file = dir.resolve("merged/latency.hlog");
    MergedLog log = new MergedLog(file, List.of(START, START + ahead), START);
    // driver a is 5 seconds ahead of b in what it has sent: each second is 3 lines (2 tags and
    // the live comment), after a header of 2
    int header = 2;
    for (int i = 0; i < header + 5 * 3; i++) {
      log.line(0, la.get(i));
    }
    assertThat(seconds(file, "latency")).as("b has sent nothing yet").isZero();
    for (int i = 0; i < header + 2 * 3; i++) {
      log.line(1, lb.get(i));
    }
    assertThat(seconds(file, "latency")).as("both closed seconds 0 and 1").isEqualTo(2);
    log.line(1, lb.get(header + 2 * 3)); // b's second 2 begun, not closed
    assertThat(seconds(file, "latency")).isEqualTo(2);
    List<HlogTail.Entry> sofar = read(file);
    assertThat(sofar.stream().filter(e -> "latency".equals(e.tag())))
        .allSatisfy(e -> assertThat(e.histogram().getTotalCount()).isEqualTo(120));
    List<JsonNode> comments =
        sofar.stream()
            .filter(e -> e.comment() != null && e.comment().startsWith(RunLog.LIVE_COMMENT))
            .map(e -> json(e.comment().substring(RunLog.LIVE_COMMENT.length())))
            .toList();
    assertThat(comments).hasSize(2);
    assertThat(comments)
        .allSatisfy(
            c -> {
              assertThat(c.path("sent").asLong()).isEqualTo(120);
              assertThat(c.path("errors").path("timeout").asLong()).isEqualTo(2);
              assertThat(c.path("cpu_cores").asDouble()).isEqualTo(0.5);
            });

    // the rest comes from the fetched logs, and the merge keeps the file as it was written
    Files.createDirectories(dir.resolve("merged"));
    DriverMerge.merge(
        List.of(
            new DriverMerge.Driver("h1", dir.resolve("a")),
            new DriverMerge.Driver("h2", dir.resolve("b"))),
        List.of(START, START + ahead),
        dir.resolve("merged"),
        START,
        0.5,
        log);
    assertThat(Files.readAllLines(file).get(0)).contains("second by second");
    Histogram expected = new Histogram(3600_000_000L, 3);
    a.forEach(expected::recordValue);
    b.forEach(expected::recordValue);
    assertThat(IntervalLog.read(file).merged("latency").orElseThrow()).isEqualTo(expected);
    assertThat(seconds(file, "latency")).isEqualTo(10);
    assertThat(log.late()).isZero();
  }

  @Test
  void aLogThatCameOutOfOrderIsWrittenAgainFromTheDriversLogs(@TempDir Path dir) throws Exception {
    List<Long> a = DriverMergeTest.plant(dir.resolve("a"), START, 4, 10, 1, 1_000);
    List<Long> b = DriverMergeTest.plant(dir.resolve("b"), START, 4, 10, 2, 1_000);
    Path file = dir.resolve("merged/latency.hlog");
    MergedLog log = new MergedLog(file, List.of(START, START), START);
    log.end(1); // b said it ended before a line of it came
    Files.readAllLines(dir.resolve("a/latency.hlog")).forEach(l -> log.line(0, l));
    log.end(0);
    Files.createDirectories(dir.resolve("merged"));
    DriverMerge.merge(
        List.of(
            new DriverMerge.Driver("h1", dir.resolve("a")),
            new DriverMerge.Driver("h2", dir.resolve("b"))),
        List.of(START, START),
        dir.resolve("merged"),
        START,
        0.5,
        log);
    assertThat(log.late()).isEqualTo(80); // b's latencies and services, for seconds written
    assertThat(Files.readAllLines(file).get(0)).doesNotContain("second by second");
    Histogram expected = new Histogram(3600_000_000L, 3);
    a.forEach(expected::recordValue);
    b.forEach(expected::recordValue);
    assertThat(IntervalLog.read(file).merged("latency").orElseThrow()).isEqualTo(expected);
  }

  private static JsonNode json(String s) {
    try {
      return new ObjectMapper().readTree(s);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
