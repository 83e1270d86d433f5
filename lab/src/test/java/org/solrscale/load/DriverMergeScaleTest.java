package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What merging many drivers' logs costs the coordinator (docs/scale.md): D drivers, each a minute
 * of interval histograms at 1,000 requests/s with the three tags a driver writes (latency, service,
 * lag), merged by {@link DriverMerge#intervals}. Prints the bytes a driver sends per second and the
 * merge's time per driver-second; asserts only that every sample is kept (timing is a figure for
 * the docs, not a test).
 */
class DriverMergeScaleTest {
  static final int SECONDS = 60;
  static final int RATE = 1000;
  static final List<String> TAGS = List.of("latency", "service", "lag");

  static Path driverLog(Path dir, int driver, long start) throws Exception {
    Path log = dir.resolve("d" + driver + ".hlog");
    Random rnd = new Random(driver);
    try (PrintStream out = new PrintStream(Files.newOutputStream(log))) {
      HistogramLogWriter w = new HistogramLogWriter(out);
      w.outputLogFormatVersion();
      w.outputStartTime(start);
      w.setBaseTime(start);
      w.outputLegend();
      for (int s = 0; s < SECONDS; s++) {
        for (String tag : TAGS) {
          Histogram h = new Histogram(3);
          for (int i = 0; i < RATE; i++) {
            // microseconds, log-normal around 8 ms with a long tail, as the lab's searches
            h.recordValue((long) (8000 * Math.exp(0.8 * rnd.nextGaussian())));
          }
          h.setStartTimeStamp(start + s * 1000L);
          h.setEndTimeStamp(start + (s + 1) * 1000L);
          h.setTag(tag);
          w.outputIntervalHistogram(h);
        }
      }
    }
    return log;
  }

  @Test
  void mergingKeepsEverySampleAndItsCostGrowsWithDriverSeconds(@TempDir Path dir) throws Exception {
    long start = 1_800_000_000_000L;
    List<Path> logs = new ArrayList<>();
    for (int d = 0; d < 64; d++) {
      logs.add(driverLog(dir, d, start));
    }
    long bytesPerDriverSecond = Files.size(logs.get(0)) / SECONDS;
    DriverMerge.intervals(logs.subList(0, 4), Collections.nCopies(4, start), start); // warm-up
    for (int drivers : List.of(4, 16, 64)) {
      long t0 = System.nanoTime();
      Map<String, TreeMap<Long, Histogram>> byTag =
          DriverMerge.intervals(
              logs.subList(0, drivers), Collections.nCopies(drivers, start), start);
      double ms = (System.nanoTime() - t0) / 1e6;
      for (String tag : TAGS) {
        assertThat(DriverMerge.total(byTag, tag).getTotalCount())
            .as(tag)
            .isEqualTo((long) drivers * SECONDS * RATE);
        assertThat(byTag.get(tag)).hasSize(SECONDS); // one histogram per second, whatever D
      }
      System.out.printf(
          "merge of %d drivers x %d s (%,d bytes a driver sends per second): %.0f ms,"
              + " %.3f ms per driver-second%n",
          drivers, SECONDS, bytesPerDriverSecond, ms, ms / (drivers * SECONDS));
    }
  }
}
