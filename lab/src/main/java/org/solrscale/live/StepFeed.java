package org.solrscale.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.solrscale.load.LoadRecorder;
import org.solrscale.load.RunLog;
import org.solrscale.results.HlogTail;
import org.solrscale.results.IndexProgressLog;
import org.solrscale.results.LineTail;

/**
 * One step of a run as it is written: its latency.hlog (interval histograms, and after each second
 * the driver's CPU, sent requests and failures by kind), telemetry.csv and cluster.csv (each node's
 * heap, CPU and whether it answered; the collection's leaders and replica states), faults.jsonl
 * (when each fault began, healed and ended) and step.json (when the step began). Keeps the run
 * totals for /metrics and one point per second for the page. Not thread-safe: its {@link
 * RunFollower} guards it.
 */
final class StepFeed {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One second: when it began, requests done, failed, sent, latency percentiles (ms), lag p99, the
   * driver's CPU, failures by kind, and documents a bulk load had accepted in it.
   */
  record Point(
      long startMs,
      long count,
      long errors,
      long sent,
      double p50,
      double p99,
      double p999,
      double lagP99,
      double cpuCores,
      Map<String, Long> errorKinds,
      double docs) {}

  /** One telemetry or cluster sample at a wall-clock time. */
  record Sample(long atMs, String node, String metric, double value) {}

  /** A fault's window: when it was injected, healed and recovered (0: not yet). */
  record FaultWindow(
      String name, String fault, List<String> nodes, long startMs, long healMs, long endMs) {
    boolean active() {
      return healMs == 0 && endMs == 0;
    }
  }

  final String id;
  final Path dir;
  private final HlogTail hlog;
  private final CsvTail telemetry;
  private final CsvTail cluster;
  private final LineTail faults;
  private final LineTail probeLines;
  private final LineTail historyLines;
  private final LineTail targetLines;
  private final CsvTail indexRows;

  /** A bulk load's documents accepted so far (index-progress.csv), and its rows not yet placed. */
  long indexed;

  private final List<double[]> indexPending = new ArrayList<>();
  private double indexT;
  private double indexA;
  private double lastIndexed; // accepted at the last whole second drawn

  /** An index distribution's targets, the latest report of each (targets.jsonl), by shard/node. */
  final Map<String, JsonNode> targets = new java.util.LinkedHashMap<>();

  /**
   * A chaos run's seconds not yet closed: its history is written as requests are answered, so a
   * second is drawn once the history has gone {@link #HISTORY_CLOSE_S} seconds past it (longer than
   * a request may take by default), or when the run ends.
   */
  private final java.util.TreeMap<Long, HistorySecond> open = new java.util.TreeMap<>();

  static final long HISTORY_CLOSE_S = 12;
  private long historyStartMs;
  private long historyLastSecond = -1;

  /** One second of a chaos run's history: its operations, failures by kind, query latencies. */
  private static final class HistorySecond {
    final Histogram queries = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
    long count;
    final Map<String, Long> kinds = new TreeMap<>();
  }

  /** A capacity search's probes as each was judged (probes.jsonl), in order. */
  final List<JsonNode> probes = new ArrayList<>();

  final Histogram measured = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
  long measuredCount;
  long warmupCount;
  long sent;
  double cpuSeconds;
  double lastLagP99Seconds;
  double lastCpuCores;
  final Map<String, Long> errors = new TreeMap<>();
  final Map<String, Long> warmupErrors = new TreeMap<>();
  final List<Point> points = new ArrayList<>();
  final List<Sample> samples = new ArrayList<>();
  final List<FaultWindow> windows = new ArrayList<>();
  long startedMs;
  boolean finished;

  private Histogram pendingLatency;
  private Histogram pendingLag;
  private long pendingStart;
  private long pendingCount;
  private long pendingErrors;

  StepFeed(String id, Path dir) {
    this.id = id;
    this.dir = dir;
    this.hlog = new HlogTail(dir.resolve("latency.hlog"));
    this.telemetry = new CsvTail(dir.resolve("telemetry.csv"));
    this.cluster = new CsvTail(dir.resolve("cluster.csv"));
    this.faults = new LineTail(dir.resolve("faults.jsonl"));
    this.probeLines = new LineTail(dir.resolve("probes.jsonl"));
    this.historyLines = new LineTail(dir.resolve("history.jsonl"));
    this.targetLines = new LineTail(dir.resolve("targets.jsonl"));
    this.indexRows = new CsvTail(dir.resolve(IndexProgressLog.FILE));
  }

  /** Reads what was written since the last poll; true when anything new came. */
  boolean poll() throws IOException {
    if (startedMs == 0 && Files.isRegularFile(dir.resolve("step.json"))) {
      startedMs = JSON.readTree(dir.resolve("step.json").toFile()).path("started_ms").asLong();
    }
    boolean news = false;
    for (HlogTail.Entry e : hlog.poll()) {
      news = true;
      if (e.histogram() == null) {
        if (e.comment().startsWith(RunLog.LIVE_COMMENT)) {
          live(JSON.readTree(e.comment().substring(RunLog.LIVE_COMMENT.length())));
        }
      } else {
        interval(e);
      }
    }
    news |= samples(telemetry) | samples(cluster);
    for (String line : faults.poll()) {
      if (!line.isEmpty()) {
        fault(JSON.readTree(line));
        news = true;
      }
    }
    for (String line : probeLines.poll()) {
      if (!line.isEmpty()) {
        probes.add(JSON.readTree(line));
        news = true;
      }
    }
    news |= history();
    news |= index();
    for (String line : targetLines.poll()) {
      if (!line.isEmpty()) {
        JsonNode t = JSON.readTree(line);
        targets.put(t.path("shard").asText() + "/" + t.path("node").asText(), t);
        news = true;
      }
    }
    boolean done =
        Files.exists(dir.resolve("summary.json")) || Files.exists(dir.resolve("verdict.json"));
    if (done && !news) {
      flush(null); // the last second, if its comment never came (a log merged from drivers)
      closeHistory(Long.MAX_VALUE);
    }
    finished = done;
    if (startedMs == 0 && !points.isEmpty()) {
      startedMs = points.get(0).startMs();
    }
    return news;
  }

  /**
   * A bulk load's index-progress.csv (seconds since it began, documents accepted by then): each
   * whole second becomes a point with the documents accepted in it, interpolated between the rows
   * around it as compare reads the file ({@link IndexProgressLog#perSecond}). Its rows wait for the
   * step's start (step.json) to be placed in time.
   */
  private boolean index() throws IOException {
    List<List<String>> rows = indexRows.poll();
    int seconds = indexRows.column("seconds");
    int accepted = indexRows.column("accepted");
    for (List<String> r : rows) {
      try {
        double[] row = {Double.parseDouble(r.get(seconds)), Double.parseDouble(r.get(accepted))};
        indexPending.add(row);
        indexed = Math.max(indexed, (long) row[1]);
      } catch (RuntimeException e) {
        // a row this reader does not understand: left out
      }
    }
    if (startedMs == 0 || indexPending.isEmpty()) {
      return !rows.isEmpty();
    }
    for (double[] row : indexPending) {
      double t = row[0];
      double a = row[1];
      if (t <= indexT) {
        continue;
      }
      for (long k = (long) Math.floor(indexT) + 1; k <= t; k++) {
        double atK = indexA + (a - indexA) * (k - indexT) / (t - indexT);
        points.add(
            new Point(
                startedMs + (k - 1) * 1000, 0, 0, 0, 0, 0, 0, 0, 0, Map.of(), atK - lastIndexed));
        lastIndexed = atK;
      }
      indexT = t;
      indexA = a;
    }
    indexPending.clear();
    return true;
  }

  /**
   * A chaos run's history.jsonl: each add and query counts at once in the totals (/metrics), and in
   * the second it was due in, drawn when that second closes.
   */
  private boolean history() throws IOException {
    if (historyStartMs == 0) {
      Path start = dir.resolve(org.solrscale.results.RunProgress.HISTORY_START);
      if (!Files.isRegularFile(start)) {
        return false;
      }
      historyStartMs = JSON.readTree(start.toFile()).path("started_ms").asLong();
      if (historyStartMs == 0) {
        return false;
      }
    }
    boolean news = false;
    for (String line : historyLines.poll()) {
      if (line.isEmpty()) {
        continue;
      }
      JsonNode e = JSON.readTree(line);
      String op = e.path("op").asText();
      if (!op.equals("add") && !op.equals("query")) {
        continue;
      }
      news = true;
      long second = e.path("t_ms").asLong() / 1000;
      HistorySecond s = open.computeIfAbsent(second, k -> new HistorySecond());
      s.count++;
      measuredCount++;
      sent++;
      String outcome = e.path("outcome").asText();
      if (!outcome.equals("ok")) {
        String kind = op + (outcome.equals("info") ? "_unknown" : "_failed");
        s.kinds.merge(kind, 1L, Long::sum);
        errors.merge(kind, 1L, Long::sum);
      }
      if (op.equals("query") && e.hasNonNull("latency_ms")) {
        long us =
            Math.max(
                1,
                Math.min(
                    LoadRecorder.HIGHEST_US, Math.round(e.path("latency_ms").asDouble() * 1000)));
        s.queries.recordValue(us);
        measured.recordValue(us);
      }
      historyLastSecond = Math.max(historyLastSecond, second);
    }
    closeHistory(historyLastSecond - HISTORY_CLOSE_S);
    return news;
  }

  /** Draws the history's seconds up to {@code last}. */
  private void closeHistory(long last) {
    while (!open.isEmpty() && open.firstKey() <= last) {
      Map.Entry<Long, HistorySecond> first = open.pollFirstEntry();
      HistorySecond s = first.getValue();
      long errs = s.kinds.values().stream().mapToLong(Long::longValue).sum();
      points.add(
          new Point(
              historyStartMs + first.getKey() * 1000,
              s.count,
              errs,
              s.count,
              ms(s.queries, 50),
              ms(s.queries, 99),
              ms(s.queries, 99.9),
              0,
              0,
              s.kinds,
              0));
    }
  }

  private void interval(HlogTail.Entry e) {
    String tag = e.tag() == null ? "" : e.tag();
    boolean warmup = tag.startsWith("warmup-");
    String kind = warmup ? tag.substring(7) : tag;
    if (!kind.equals("latency") && !kind.equals("lag")) {
      return;
    }
    if (pendingLatency != null && Math.abs(e.startMs() - pendingStart) > 500) {
      flush(null);
    }
    if (pendingLatency == null) {
      pendingLatency = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
      pendingLag = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
      pendingStart = e.startMs();
      pendingCount = 0;
      pendingErrors = 0;
    }
    Histogram h = e.histogram();
    if (kind.equals("lag")) {
      pendingLag.add(h);
      return;
    }
    pendingLatency.add(h);
    pendingCount += h.getTotalCount();
    if (warmup) {
      warmupCount += h.getTotalCount();
    } else {
      measured.add(h);
      measuredCount += h.getTotalCount();
    }
  }

  /** The second's comment: its CPU, sends and failures by kind; it closes the second. */
  private void live(JsonNode n) {
    double cpu = n.path("cpu_cores").asDouble();
    long s = n.path("sent").asLong();
    Map<String, Long> kinds = new TreeMap<>();
    add(n.path("errors"), errors, kinds);
    add(n.path("warmup_errors"), warmupErrors, kinds);
    sent += s;
    lastCpuCores = cpu;
    long seconds =
        pendingLatency == null ? 1000 : Math.max(1, n.path("end_ms").asLong() - pendingStart);
    cpuSeconds += cpu * Math.min(seconds, 60_000) / 1000.0;
    pendingErrors = kinds.values().stream().mapToLong(Long::longValue).sum();
    flush(new Point(0, 0, 0, s, 0, 0, 0, 0, cpu, kinds, 0));
  }

  private static void add(JsonNode kinds, Map<String, Long> totals, Map<String, Long> second) {
    for (Iterator<Map.Entry<String, JsonNode>> it = kinds.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> k = it.next();
      totals.merge(k.getKey(), k.getValue().asLong(), Long::sum);
      second.merge(k.getKey(), k.getValue().asLong(), Long::sum);
    }
  }

  /** Closes the pending second as a point, with the extras its comment gave (or none). */
  private void flush(Point extras) {
    if (pendingLatency == null) {
      return;
    }
    Histogram l = pendingLatency;
    lastLagP99Seconds =
        pendingLag.getTotalCount() == 0 ? 0 : pendingLag.getValueAtPercentile(99) / 1e6;
    points.add(
        new Point(
            pendingStart,
            pendingCount,
            extras == null ? 0 : pendingErrors,
            extras == null ? 0 : extras.sent(),
            ms(l, 50),
            ms(l, 99),
            ms(l, 99.9),
            lastLagP99Seconds * 1000,
            extras == null ? 0 : extras.cpuCores(),
            extras == null ? Map.of() : extras.errorKinds(),
            0));
    pendingLatency = null;
    pendingLag = null;
  }

  private static double ms(Histogram h, double p) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1000.0;
  }

  private boolean samples(CsvTail csv) throws IOException {
    List<List<String>> rows = csv.poll();
    int second = csv.column("second");
    int node = csv.column("node");
    int metric = csv.column("metric");
    int value = csv.column("value");
    for (List<String> r : rows) {
      if (startedMs == 0 || second < 0 || node < 0 || metric < 0 || value < 0 || r.size() < 4) {
        continue;
      }
      try {
        samples.add(
            new Sample(
                startedMs + Math.round(Double.parseDouble(r.get(second)) * 1000),
                r.get(node),
                r.get(metric),
                Double.parseDouble(r.get(value))));
      } catch (NumberFormatException e) {
        // a row this reader does not understand: left out
      }
    }
    return !rows.isEmpty();
  }

  private void fault(JsonNode e) {
    String name = e.path("name").asText();
    long at = e.path("at_ms").asLong();
    String phase = e.path("phase").asText();
    if (phase.equals("start")) {
      List<String> nodes = new ArrayList<>();
      e.path("nodes").forEach(n -> nodes.add(n.asText()));
      windows.add(new FaultWindow(name, e.path("fault").asText(), nodes, at, 0, 0));
      return;
    }
    for (int i = windows.size() - 1; i >= 0; i--) {
      FaultWindow w = windows.get(i);
      if (w.name().equals(name) && w.endMs() == 0) {
        windows.set(
            i,
            new FaultWindow(
                w.name(),
                w.fault(),
                w.nodes(),
                w.startMs(),
                phase.equals("heal")
                    ? at
                    : w.healMs() == 0 && phase.equals("end") ? at : w.healMs(),
                phase.equals("end") ? at : 0));
        return;
      }
    }
  }
}
