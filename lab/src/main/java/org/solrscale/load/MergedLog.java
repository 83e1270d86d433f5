package org.solrscale.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.solrscale.results.HlogTail;
import org.solrscale.spec.SolrscaleException;

/**
 * The merged latency.hlog of a bench on several drivers, written while they run: each driver's
 * interval log comes line by line (streamed back over SSH as the driver writes it), and a second is
 * written, its histograms added per tag over all drivers, once every driver has closed it (its
 * {@code #live} comment came, or a later second did, or the driver ended). After each second comes
 * one {@code #live} comment for all drivers: requests sent and failures by kind added up, CPU the
 * drivers' cores added up. So {@code watch} and {@code --live} follow the merged run as they follow
 * a run on one driver. Seconds are by whole seconds since the common start, as {@link DriverMerge}
 * counts them. Thread-safe.
 */
public final class MergedLog implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One second being gathered: each tag's histogram, and the drivers' live comments added up. */
  private static final class Second {
    final Map<String, Histogram> tags = new LinkedHashMap<>();
    long endMs;
    double cpuCores;
    long sent;
    boolean live;
    final Map<String, Long> errors = new TreeMap<>();
    final Map<String, Long> warmupErrors = new TreeMap<>();
  }

  private final long startAtMs;
  private final List<Long> shifts;
  private final List<HlogTail> parsers = new ArrayList<>();
  private final long[] lines;
  private final long[] lastSecond;
  private final boolean[] closedLast;
  private final boolean[] ended;
  private final TreeMap<Long, Second> open = new TreeMap<>();
  private final Map<String, Long> written = new TreeMap<>();
  private final PrintStream stream;
  private final HistogramLogWriter log;
  private long writtenUpTo = Long.MIN_VALUE;
  private long late;

  /**
   * Starts {@code file}. {@code starts} is when each driver was told to start, by its host's clock;
   * {@code startAtMs} the same moment by this machine's.
   */
  public MergedLog(Path file, List<Long> starts, long startAtMs) {
    this.startAtMs = startAtMs;
    this.shifts = starts.stream().map(s -> startAtMs - s).toList();
    int n = starts.size();
    lines = new long[n];
    lastSecond = new long[n];
    closedLast = new boolean[n];
    ended = new boolean[n];
    java.util.Arrays.fill(lastSecond, Long.MIN_VALUE);
    for (int i = 0; i < n; i++) {
      parsers.add(HlogTail.parser());
    }
    try {
      Files.createDirectories(file.getParent());
      stream = new PrintStream(Files.newOutputStream(file), false, "UTF-8");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write " + file + ": " + e.getMessage());
    }
    log = new HistogramLogWriter(stream);
    log.outputComment(
        "merged by solrscale from the interval logs of " + n + " drivers, second by second");
    log.outputLogFormatVersion();
    log.outputStartTime(startAtMs);
    log.setBaseTime(startAtMs);
    log.outputLegend();
    stream.flush();
  }

  /** How many lines of driver {@code i}'s log were taken so far. */
  public synchronized long lines(int i) {
    return lines[i];
  }

  /** The next line of driver {@code i}'s interval log. */
  public synchronized void line(int i, String line) {
    lines[i]++;
    HlogTail.Entry e = parsers.get(i).parse(line.strip());
    if (e == null) {
      return;
    }
    if (e.histogram() != null) {
      long begin = e.startMs() + shifts.get(i);
      long second = Math.round((begin - startAtMs) / 1000.0);
      if (second <= writtenUpTo) {
        late += e.histogram().getTotalCount(); // would have to be in a second already written
        return;
      }
      if (second != lastSecond[i]) {
        lastSecond[i] = second;
        closedLast[i] = false;
      }
      Second s = open.computeIfAbsent(second, k -> new Second());
      String tag = e.tag() == null ? "" : e.tag();
      Histogram sum = s.tags.get(tag);
      if (sum == null) {
        sum = new Histogram(e.histogram().getNumberOfSignificantValueDigits());
        sum.setStartTimeStamp(begin);
        s.tags.put(tag, sum);
      }
      sum.add(e.histogram());
      sum.setStartTimeStamp(Math.min(sum.getStartTimeStamp(), begin));
      sum.setEndTimeStamp(Math.max(sum.getEndTimeStamp(), e.endMs() + shifts.get(i)));
    } else if (e.comment().startsWith(RunLog.LIVE_COMMENT) && lastSecond[i] != Long.MIN_VALUE) {
      Second s = open.get(lastSecond[i]);
      if (s != null) {
        live(s, e.comment().substring(RunLog.LIVE_COMMENT.length()), shifts.get(i));
      }
      closedLast[i] = true;
    }
    writeClosed();
  }

  /** Driver {@code i} sent its last line: its seconds are all closed. */
  public synchronized void end(int i) {
    ended[i] = true;
    writeClosed();
  }

  /** Measured histogram counts written so far, by tag. */
  public synchronized Map<String, Long> written() {
    return new TreeMap<>(written);
  }

  /**
   * Histogram counts (all tags) that came for a second already written: none when the drivers' logs
   * came in order.
   */
  public synchronized long late() {
    return late;
  }

  private static void live(Second s, String json, long shift) {
    try {
      JsonNode n = JSON.readTree(json);
      s.live = true;
      s.endMs = Math.max(s.endMs, n.path("end_ms").asLong() + shift);
      s.cpuCores += n.path("cpu_cores").asDouble();
      s.sent += n.path("sent").asLong();
      add(n.path("errors"), s.errors);
      add(n.path("warmup_errors"), s.warmupErrors);
    } catch (IOException e) {
      // a comment that is not the driver's JSON: the second is written without it
    }
  }

  private static void add(JsonNode kinds, Map<String, Long> into) {
    for (Iterator<Map.Entry<String, JsonNode>> it = kinds.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> k = it.next();
      into.merge(k.getKey(), k.getValue().asLong(), Long::sum);
    }
  }

  /** Writes, in order, every second all drivers have closed. */
  private void writeClosed() {
    long upTo = Long.MAX_VALUE;
    for (int i = 0; i < lines.length; i++) {
      if (!ended[i] && lastSecond[i] == Long.MIN_VALUE) {
        return; // a driver not heard from yet
      }
      if (!ended[i]) {
        upTo = Math.min(upTo, closedLast[i] ? lastSecond[i] : lastSecond[i] - 1);
      }
    }
    boolean any = false;
    while (!open.isEmpty() && open.firstKey() <= upTo) {
      Map.Entry<Long, Second> e = open.pollFirstEntry();
      write(e.getValue());
      writtenUpTo = e.getKey();
      any = true;
    }
    if (any) {
      stream.flush();
    }
  }

  private void write(Second s) {
    s.tags.forEach(
        (tag, h) -> {
          h.setTag(tag);
          log.outputIntervalHistogram(h);
          written.merge(tag, h.getTotalCount(), Long::sum);
        });
    if (!s.live) {
      return;
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("end_ms", s.endMs);
    line.put("cpu_cores", Math.round(s.cpuCores * 1000) / 1000.0);
    if (!s.errors.isEmpty()) {
      line.put("errors", s.errors);
    }
    if (!s.warmupErrors.isEmpty()) {
      line.put("warmup_errors", s.warmupErrors);
    }
    line.put("sent", s.sent);
    try {
      log.outputComment(RunLog.LIVE_COMMENT + JSON.writeValueAsString(line));
    } catch (IOException e) {
      throw new IllegalStateException(e); // a map of numbers and strings always serializes
    }
  }

  /** Writes what is still open (every driver ended or not) and closes the file. */
  @Override
  public synchronized void close() {
    java.util.Arrays.fill(ended, true);
    writeClosed();
    stream.close();
  }
}
