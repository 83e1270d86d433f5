package org.solrscale.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.solrscale.results.CsvTable;
import org.solrscale.results.TimelineRow;
import org.solrscale.spec.SolrscaleException;

/**
 * Takes the intervals as they close: merges the measured ones into run totals (losslessly: the
 * histograms add up), writes them to an HdrHistogram interval log and a CSV timeline when there is
 * an output directory, and passes them on for the live progress line.
 */
public final class RunLog implements Consumer<List<Interval>>, AutoCloseable {
  private final long startNanos;
  private final long startedAtMs;
  private final Histogram latency = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
  private final Histogram service = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
  private final Histogram lag = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
  private final Consumer<Interval> progress;
  private HistogramLogWriter log;
  private PrintStream logStream;
  private CsvTable<TimelineRow>.RowWriter csv;
  private long warmupCount;
  private long measuredCount;
  private long measuredErrors;
  private long measuredBytes;

  /** {@code startedAtMs} is the wall-clock time of {@code startNanos}, for the log's timestamps. */
  public RunLog(long startNanos, long startedAtMs, Path outDir, Consumer<Interval> progress) {
    this.startNanos = startNanos;
    this.startedAtMs = startedAtMs;
    this.progress = progress;
    if (outDir != null) {
      try {
        Files.createDirectories(outDir);
        logStream =
            new PrintStream(Files.newOutputStream(outDir.resolve("latency.hlog")), false, "UTF-8");
        log = new HistogramLogWriter(logStream);
        log.outputComment(
            "solrscale bench: latency from the intended start, service time from the "
                + "actual send, schedule lag; microseconds; tags warmup-* are left out of the summary");
        log.outputLogFormatVersion();
        log.outputStartTime(startedAtMs);
        log.setBaseTime(startedAtMs);
        log.outputLegend();
        csv = TimelineRow.TABLE.open(outDir.resolve("timeline.csv"));
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot write to " + outDir + ": " + e.getMessage());
      }
    }
  }

  /**
   * The comment that follows each second's histograms in latency.hlog: what the live view needs
   * beside them (readers of the log skip comments).
   */
  public static final String LIVE_COMMENT = "live ";

  private static final ObjectMapper JSON = new ObjectMapper();
  private long cpuNanos = Bench.processCpuNanos();
  private long cpuAt = System.nanoTime();

  @Override
  public synchronized void accept(List<Interval> intervals) {
    for (Interval i : intervals) {
      if (i.warmup()) {
        warmupCount += i.count();
      } else {
        latency.add(i.latency());
        service.add(i.service());
        lag.add(i.lag());
        measuredCount += i.count();
        measuredErrors += i.errors();
        measuredBytes += i.bytes();
      }
      write(i);
      progress.accept(i);
    }
    live(intervals);
  }

  /**
   * After each second's histograms: the driver's CPU (cores, since the last second), the requests
   * it sent and its failures by kind, as a JSON comment, then flushed, so that {@code watch}
   * follows the run as it is written.
   */
  private void live(List<Interval> intervals) {
    if (log == null || intervals.isEmpty()) {
      return;
    }
    long cpu = Bench.processCpuNanos();
    long now = System.nanoTime();
    Map<String, Object> line = new LinkedHashMap<>();
    Interval last = intervals.get(intervals.size() - 1);
    line.put("end_ms", startedAtMs + (last.endNanos() - startNanos) / 1_000_000);
    line.put("cpu_cores", round((cpu - cpuNanos) / (double) Math.max(1, now - cpuAt)));
    cpuNanos = cpu;
    cpuAt = now;
    long sent = 0;
    for (Interval i : intervals) {
      sent += i.sent();
      if (!i.errorKinds().isEmpty()) {
        line.put(i.warmup() ? "warmup_errors" : "errors", i.errorKinds());
      }
    }
    line.put("sent", sent);
    try {
      log.outputComment(LIVE_COMMENT + JSON.writeValueAsString(line));
    } catch (IOException e) {
      throw new IllegalStateException(e); // a map of numbers and strings always serializes
    }
    logStream.flush();
  }

  private void write(Interval i) {
    if (log == null) {
      return;
    }
    double start = (i.startNanos() - startNanos) / 1e9;
    double end = (i.endNanos() - startNanos) / 1e9;
    for (Object[] h :
        new Object[][] {{"latency", i.latency()}, {"service", i.service()}, {"lag", i.lag()}}) {
      Histogram copy = ((Histogram) h[1]).copy();
      copy.setStartTimeStamp(startedAtMs + Math.round(start * 1000));
      copy.setEndTimeStamp(startedAtMs + Math.round(end * 1000));
      copy.setTag((i.warmup() ? "warmup-" : "") + h[0]);
      log.outputIntervalHistogram(copy);
    }
    csv.write(
        new TimelineRow(
            round(start),
            i.warmup(),
            i.count(),
            i.errors(),
            round(i.count() / Math.max(1e-9, i.seconds())),
            ms(i.latency(), 50),
            ms(i.latency(), 99),
            i.latency().getMaxValue() / 1000.0,
            ms(i.service(), 50),
            ms(i.service(), 99),
            i.bytes(),
            round(i.seconds())));
  }

  /** Milliseconds to the microsecond, seconds to the millisecond: what the file needs. */
  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  static double ms(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
  }

  public synchronized Histogram latency() {
    return latency.copy();
  }

  public synchronized Histogram service() {
    return service.copy();
  }

  public synchronized Histogram lag() {
    return lag.copy();
  }

  public synchronized long warmupCount() {
    return warmupCount;
  }

  public synchronized long measuredCount() {
    return measuredCount;
  }

  public synchronized long measuredErrors() {
    return measuredErrors;
  }

  public synchronized long measuredBytes() {
    return measuredBytes;
  }

  @Override
  public synchronized void close() {
    if (log != null) {
      logStream.close();
      csv.close();
    }
  }
}
