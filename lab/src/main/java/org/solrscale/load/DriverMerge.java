package org.solrscale.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.ReplayCheck;
import org.solrscale.results.TimelineRow;
import org.solrscale.spec.LoadLoop;
import org.solrscale.spec.SolrscaleException;

/**
 * Merges what several drivers of one bench run recorded into one run directory, exactly: their
 * interval histograms are added per tag and per second since the common start (histogram addition,
 * never averaged percentiles), so the merged latency.hlog holds every sample of every driver, and
 * the merged totals are the sums of all intervals. Each driver's own summary stays beside it
 * ({@code drivers/HOST/}) and is listed with its own verdict in the merged summary.
 */
public final class DriverMerge {
  /** One driver's run directory (summary.json, latency.hlog, timeline.csv) and its host. */
  public record Driver(String host, Path dir) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private DriverMerge() {}

  /** A tag's intervals of all drivers added up, by whole seconds since {@code startAtMs}. */
  static Map<String, TreeMap<Long, Histogram>> intervals(
      List<Path> logs, List<Long> starts, long startAtMs) {
    Map<String, TreeMap<Long, Histogram>> byTag = new LinkedHashMap<>();
    for (int i = 0; i < logs.size(); i++) {
      Path log = logs.get(i);
      long shift = startAtMs - starts.get(i); // from the driver host's clock to this machine's
      try {
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        for (EncodableHistogram h;
            (h = reader.nextIntervalHistogram(-Double.MAX_VALUE, Double.MAX_VALUE)) != null; ) {
          if (!(h instanceof Histogram hist)) {
            continue;
          }
          long begin = h.getStartTimeStamp() + shift;
          long end = h.getEndTimeStamp() + shift;
          long second = Math.round((begin - startAtMs) / 1000.0);
          Histogram sum =
              byTag
                  .computeIfAbsent(h.getTag() == null ? "" : h.getTag(), t -> new TreeMap<>())
                  .computeIfAbsent(
                      second, s -> new Histogram(hist.getNumberOfSignificantValueDigits()));
          sum.add(hist);
          sum.setStartTimeStamp(
              sum.getStartTimeStamp() == 0 ? begin : Math.min(sum.getStartTimeStamp(), begin));
          sum.setEndTimeStamp(Math.max(sum.getEndTimeStamp(), end));
        }
      } catch (FileNotFoundException e) {
        throw SolrscaleException.failed("a driver wrote no " + log);
      }
    }
    return byTag;
  }

  /** Every interval of one tag added up. */
  static Histogram total(Map<String, TreeMap<Long, Histogram>> byTag, String tag) {
    Histogram sum = new Histogram(3);
    byTag.getOrDefault(tag, new TreeMap<>()).values().forEach(sum::add);
    return sum;
  }

  /**
   * Writes the merged latency.hlog, timeline.csv and summary.json into {@code out} and returns the
   * summary. {@code starts} is when each driver was told to start, by its host's clock; {@code
   * startAtMs} the same moment by this machine's.
   */
  public static BenchSummary merge(
      List<Driver> drivers, List<Long> starts, Path out, long startAtMs, double maxErrorRate)
      throws IOException {
    return merge(drivers, starts, out, startAtMs, maxErrorRate, null);
  }

  /**
   * As {@link #merge(List, List, Path, long, double)}, with the latency.hlog {@code live} wrote
   * while the drivers ran: the rest of each driver's log (what its stream had not yet brought) is
   * given to it, and it is kept when it holds exactly what the drivers' own logs hold, tag by tag;
   * else the log is written again from the drivers' logs.
   */
  public static BenchSummary merge(
      List<Driver> drivers,
      List<Long> starts,
      Path out,
      long startAtMs,
      double maxErrorRate,
      MergedLog live)
      throws IOException {
    List<BenchSummary> each = new ArrayList<>();
    for (Driver d : drivers) {
      Path f = d.dir().resolve("summary.json");
      if (!Files.isRegularFile(f)) {
        throw SolrscaleException.failed("driver on " + d.host() + " wrote no summary (" + f + ")");
      }
      each.add(JSON.readValue(f.toFile(), BenchSummary.class));
    }
    Map<String, TreeMap<Long, Histogram>> byTag =
        intervals(
            drivers.stream().map(d -> d.dir().resolve("latency.hlog")).toList(), starts, startAtMs);
    if (live == null || !finish(live, drivers, byTag)) {
      writeLog(byTag, out.resolve("latency.hlog"), startAtMs);
    }
    writeTimeline(drivers, byTag, out.resolve("timeline.csv"));
    BenchSummary merged = summary(drivers, each, byTag, startAtMs, maxErrorRate);
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("summary.json").toFile(), merged);
    return merged;
  }

  /** Gives {@code live} the rest of each driver's log and closes it; true when it is exact. */
  private static boolean finish(
      MergedLog live, List<Driver> drivers, Map<String, TreeMap<Long, Histogram>> byTag)
      throws IOException {
    for (int i = 0; i < drivers.size(); i++) {
      try (var lines = Files.lines(drivers.get(i).dir().resolve("latency.hlog"))) {
        int d = i;
        lines.skip(live.lines(i)).forEach(l -> live.line(d, l));
      }
      live.end(i);
    }
    live.close();
    Map<String, Long> expected = new TreeMap<>();
    byTag.forEach((tag, seconds) -> expected.put(tag, total(byTag, tag).getTotalCount()));
    return live.late() == 0 && expected.equals(live.written());
  }

  private static void writeLog(
      Map<String, TreeMap<Long, Histogram>> byTag, Path file, long startAtMs) throws IOException {
    try (PrintStream ps = new PrintStream(Files.newOutputStream(file))) {
      HistogramLogWriter w = new HistogramLogWriter(ps);
      w.outputComment("merged by solrscale from the interval logs of several drivers");
      w.outputLogFormatVersion();
      w.outputStartTime(startAtMs);
      w.setBaseTime(startAtMs);
      w.outputLegend();
      List<Histogram> all = new ArrayList<>();
      byTag.forEach(
          (tag, seconds) ->
              seconds
                  .values()
                  .forEach(
                      h -> {
                        h.setTag(tag);
                        all.add(h);
                      }));
      all.sort((a, b) -> Long.compare(a.getStartTimeStamp(), b.getStartTimeStamp()));
      all.forEach(w::outputIntervalHistogram);
    }
  }

  /** Per second: counts summed from the drivers' timelines, percentiles from merged histograms. */
  private static void writeTimeline(
      List<Driver> drivers, Map<String, TreeMap<Long, Histogram>> byTag, Path file)
      throws IOException {
    Map<String, TimelineRow> rows = new TreeMap<>();
    for (Driver d : drivers) {
      Path f = d.dir().resolve("timeline.csv");
      if (!Files.isRegularFile(f)) {
        continue;
      }
      for (TimelineRow r : TimelineRow.TABLE.read(f)) {
        String key = String.format("%08.0f|%s", r.second(), r.phase());
        TimelineRow sum = rows.get(key);
        rows.put(
            key,
            sum == null
                ? r
                : new TimelineRow(
                    sum.second(),
                    sum.phase(),
                    sum.requests() + r.requests(),
                    sum.errors() + r.errors(),
                    sum.qps() + r.qps(),
                    0,
                    0,
                    0,
                    0,
                    0,
                    sum.bytes() + r.bytes(),
                    Math.max(sum.seconds(), r.seconds()),
                    null,
                    null,
                    null));
      }
    }
    List<TimelineRow> merged = new ArrayList<>();
    for (TimelineRow r : rows.values()) {
      boolean warm = TimelineRow.WARMUP.equals(r.phase());
      long second = Math.round(r.second());
      Histogram lat =
          byTag.getOrDefault(warm ? "warmup-latency" : "latency", new TreeMap<>()).get(second);
      Histogram svc =
          byTag.getOrDefault(warm ? "warmup-service" : "service", new TreeMap<>()).get(second);
      merged.add(
          new TimelineRow(
              r.second(),
              r.phase(),
              r.requests(),
              r.errors(),
              r.qps(),
              RunLog.ms(orEmpty(lat), 50),
              RunLog.ms(orEmpty(lat), 99),
              orEmpty(lat).getMaxValue() / 1000.0,
              RunLog.ms(orEmpty(svc), 50),
              RunLog.ms(orEmpty(svc), 99),
              r.bytes(),
              r.seconds(),
              null,
              null,
              null));
    }
    TimelineRow.TABLE.write(file, merged);
  }

  private static Histogram orEmpty(Histogram h) {
    return h == null ? new Histogram(3) : h;
  }

  private static BenchSummary summary(
      List<Driver> drivers,
      List<BenchSummary> each,
      Map<String, TreeMap<Long, Histogram>> byTag,
      long startAtMs,
      double maxErrorRate) {
    Histogram latency = total(byTag, "latency");
    Histogram service = total(byTag, "service");
    long count = 0;
    long errors = 0;
    long partial = 0;
    long unfinished = 0;
    long warmupCount = 0;
    double warmupSeconds = 0;
    double seconds = 0;
    double offered = 0;
    double achieved = 0;
    int threads = 0;
    double rate = 0;
    Map<String, BenchSummary.ErrorKind> kinds = new TreeMap<>();
    List<BenchSummary.DriverRun> runs = new ArrayList<>();
    for (int i = 0; i < each.size(); i++) {
      BenchSummary s = each.get(i);
      count += s.count();
      errors += s.errors().total();
      partial += s.partial();
      unfinished += s.unfinished();
      warmupCount += s.warmup() == null ? 0 : s.warmup().count();
      warmupSeconds = Math.max(warmupSeconds, s.warmup() == null ? 0 : s.warmup().seconds());
      seconds = Math.max(seconds, s.seconds());
      offered += s.throughput().offered();
      achieved += s.throughput().achieved();
      threads += s.threads() == null ? 0 : s.threads();
      Double driverRate = s.rates() == null || s.rates().isEmpty() ? null : s.rates().get(0);
      rate += driverRate == null ? 0 : driverRate;
      s.errors()
          .byKind()
          .forEach(
              (k, v) ->
                  kinds.merge(
                      k,
                      v,
                      (a, b) -> {
                        List<String> samples = new ArrayList<>(a.samples());
                        b.samples().stream().filter(x -> samples.size() < 3).forEach(samples::add);
                        return new BenchSummary.ErrorKind(a.count() + b.count(), samples);
                      }));
      runs.add(
          new BenchSummary.DriverRun(
              drivers.get(i).host(),
              s.threads(),
              driverRate,
              s.count(),
              s.errors().total(),
              s.throughput().achieved(),
              s.latencyMs(),
              s.driver() == null ? null : s.driver().cpuPercent(),
              s.driver() == null ? null : s.driver().bottleneck(),
              s.failed()));
    }
    if (latency.getTotalCount() != count) {
      throw SolrscaleException.failed(
          "the drivers' interval logs hold "
              + latency.getTotalCount()
              + " measured requests but their summaries "
              + count
              + "; the merge would not be exact");
    }
    boolean open = LoadLoop.parse(each.get(0).loadModel()) == LoadLoop.OPEN;
    List<BenchSummary.Step> steps = steps(drivers, each);
    List<Double> rates = List.of(rate);
    if (steps != null) {
      rates = steps.stream().map(BenchSummary.Step::rate).toList();
    }
    Double per1000 = !open && count > 0 ? seconds * 1000.0 * threads / count * 1000 : null;
    String failed = null;
    if (count == 0) {
      failed = "no request completed in the measured time";
    } else if ((double) errors / count > maxErrorRate) {
      failed =
          String.format(
              Locale.ROOT,
              "%,d of %,d requests failed (%.1f %%, above the %s %% allowed), over %d drivers",
              errors,
              count,
              100.0 * errors / count,
              maxErrorRate * 100,
              drivers.size());
    }
    return new BenchSummary(
        each.get(0).loadModel(),
        startAtMs,
        count,
        new BenchSummary.Errors(errors, kinds),
        partial,
        new BenchSummary.Throughput(offered, achieved),
        BenchSummary.millis(latency),
        BenchSummary.millis(service),
        per1000,
        null, // response sizes and hits are kept by each driver: percentiles do not add
        null,
        List.of(),
        List.of(),
        steps,
        new BenchSummary.Warmup(warmupCount, warmupSeconds),
        seconds,
        unfinished,
        null, // each driver's health is its own, in drivers
        maxErrorRate,
        failed,
        open ? null : threads,
        open && each.get(0).replay() == null ? rates : null,
        runs,
        ReplayCheck.merge(each.stream().map(BenchSummary::replay).toList()));
  }

  /**
   * The steps of a staircase all drivers ran (each its share of every rate, from the same start):
   * counts and rates added, latency, service time and lag from the steps' histograms added (each
   * driver's steps.hlog), and who limited a step by each driver's own verdict; null for no
   * staircase.
   */
  static List<BenchSummary.Step> steps(List<Driver> drivers, List<BenchSummary> each) {
    int n = each.stream().mapToInt(s -> s.steps() == null ? 0 : s.steps().size()).max().orElse(0);
    if (n == 0) {
      return null;
    }
    List<Path> logs = drivers.stream().map(d -> d.dir().resolve(Bench.STEPS_LOG)).toList();
    Map<String, TreeMap<Long, Histogram>> byTag =
        intervals(logs, logs.stream().map(l -> 0L).toList(), 0);
    List<BenchSummary.Step> out = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      double rate = 0;
      double achieved = 0;
      double seconds = 0;
      Double startS = null;
      long scheduled = 0;
      long completed = 0;
      long errors = 0;
      List<String> limited = new ArrayList<>();
      for (int i = 0; i < each.size(); i++) {
        List<BenchSummary.Step> own = each.get(i).steps();
        if (own == null || k >= own.size()) {
          continue;
        }
        BenchSummary.Step st = own.get(k);
        rate += st.rate();
        achieved += st.achieved();
        seconds = Math.max(seconds, st.seconds());
        startS = startS == null ? st.startS() : startS;
        scheduled += st.scheduled() == null ? 0 : st.scheduled();
        completed += st.completed() == null ? 0 : st.completed();
        errors += st.errors() == null ? 0 : st.errors();
        if (st.bottleneck() != null && !st.bottleneck().startsWith("none")) {
          limited.add(drivers.get(i).host() + ": " + st.bottleneck());
        }
      }
      String tag = "step" + (k + 1) + "-";
      out.add(
          new BenchSummary.Step(
              rate,
              achieved,
              seconds,
              startS,
              scheduled,
              completed,
              errors,
              BenchSummary.millis(total(byTag, tag + "latency")),
              BenchSummary.millis(total(byTag, tag + "service")),
              BenchSummary.millis(total(byTag, tag + "lag")),
              null, // each driver's CPU is its own
              limited.isEmpty() ? "none" : String.join("; ", limited)));
    }
    return out;
  }
}
