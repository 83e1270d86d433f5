package org.solrscale.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.ReplayCheck;
import org.solrscale.results.ReplayRequestRow;
import org.solrscale.spec.LoadLoop;
import org.solrscale.spec.SolrscaleException;

/** One bench run: drives the load, keeps the intervals, and writes summary.json. */
public final class Bench {
  /**
   * What to run and where its files go ({@code outDir} may be null); {@code maxErrorRate}: the
   * share of failed requests above which the run measured nothing worth keeping.
   */
  public record Options(
      Workload workload,
      LoadModel model,
      Driver.Bounds bounds,
      long seed,
      long timeoutNanos,
      Path outDir,
      double maxErrorRate) {}

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Bench() {}

  public static BenchSummary run(Options o, Sender sender, Clock clock, Consumer<Interval> progress)
      throws InterruptedException {
    return run(o, sender, clock, progress, i -> false);
  }

  /**
   * As {@link #run(Options, Sender, Clock, Consumer)}, stopping early: once {@code stopAfter} says
   * so of a second just closed, no more requests are sent; those sent finish and count, and the
   * summary is of the time measured.
   */
  public static BenchSummary run(
      Options o,
      Sender sender,
      Clock clock,
      Consumer<Interval> progress,
      java.util.function.Predicate<Interval> stopAfter)
      throws InterruptedException {
    long cpu0 = processCpuNanos();
    long start = clock.nanoTime();
    long startedAtMs = System.currentTimeMillis();
    Driver driver = new Driver(clock, sender, o.workload(), o.model(), o.bounds(), o.seed());
    Consumer<Interval> seen =
        i -> {
          progress.accept(i);
          if (stopAfter.test(i)) {
            driver.stop();
          }
        };
    AnswerCheck check =
        o.model() instanceof LoadModel.Replay r ? new AnswerCheck(r.schedule()) : null;
    LoadRecorder recorder = new LoadRecorder(start, check);
    // Ctrl-C interrupts this thread: the driver stops and nothing below is written, so a
    // truncated measurement never becomes a summary
    try (RunLog log = new RunLog(start, startedAtMs, o.outDir(), seen)) {
      Driver.Result result = driver.run(recorder, start, log, o.timeoutNanos() + 1_000_000_000L);
      long cpu = processCpuNanos() - cpu0;
      BenchSummary s =
          summarize(
              o,
              result,
              log,
              recorder,
              cpu,
              startedAtMs,
              check == null ? null : check.result((LoadModel.Replay) o.model()));
      if (o.outDir() != null) {
        try {
          if (!result.steps().isEmpty()) {
            writeSteps(o.outDir().resolve(STEPS_LOG), result, startedAtMs);
          }
          if (check != null) {
            ReplayRequestRow.TABLE.write(o.outDir().resolve(ReplayRequestRow.FILE), check.rows());
          }
          JSON.writeValue(o.outDir().resolve("summary.json").toFile(), s);
        } catch (IOException e) {
          throw SolrscaleException.usage(
              "cannot write " + o.outDir() + "/summary.json: " + e.getMessage());
        }
      }
      return s;
    }
  }

  /** A staircase's histograms per step, tagged stepK-latency, -service, -lag (K from 1). */
  public static final String STEPS_LOG = "steps.hlog";

  /**
   * Writes each step's latency, service time and schedule lag histograms, so that the steps of
   * several drivers merge exactly.
   */
  private static void writeSteps(Path file, Driver.Result r, long startedAtMs) throws IOException {
    try (PrintStream ps = new PrintStream(Files.newOutputStream(file), false, "UTF-8")) {
      HistogramLogWriter w = new HistogramLogWriter(ps);
      w.outputComment("each step of the staircase: latency, service time, schedule lag (us)");
      w.outputLogFormatVersion();
      w.outputStartTime(startedAtMs);
      w.setBaseTime(startedAtMs);
      w.outputLegend();
      int k = 0;
      for (StepStats.Step step : r.steps()) {
        k++;
        Histogram[] hs = {step.latency(), step.service(), step.lag()};
        String[] names = {"latency", "service", "lag"};
        for (int i = 0; i < hs.length; i++) {
          Histogram copy = hs[i].copy();
          copy.setStartTimeStamp(startedAtMs + (step.startNanos() - r.startNanos()) / 1_000_000);
          copy.setEndTimeStamp(startedAtMs + (step.endNanos() - r.startNanos()) / 1_000_000);
          copy.setTag("step" + k + "-" + names[i]);
          w.outputIntervalHistogram(copy);
        }
      }
    }
  }

  static BenchSummary summarize(
      Options o,
      Driver.Result r,
      RunLog log,
      LoadRecorder rec,
      long cpuNanos,
      long startedAtMs,
      ReplayCheck replay) {
    double measured =
        Math.max(1e-9, (r.endNanos() - Math.min(r.endNanos(), r.warmupEndNanos())) / 1e9);
    double achieved = log.measuredCount() / measured;
    boolean open = !(o.model() instanceof LoadModel.Closed);
    double offered =
        o.model() instanceof LoadModel.Open op
            ? offeredRate(op, r)
            : open
                ? r.scheduled() / Math.max(1e-9, (r.endNanos() - r.startNanos()) / 1e9)
                : achieved;
    Histogram latency = log.latency();
    Histogram lag = log.lag();
    double wall = Math.max(1e-9, (r.endNanos() - r.startNanos()) / 1e9);
    double cpuPercent = cpuNanos / 1e9 / wall * 100;
    Map<String, BenchSummary.ErrorKind> kinds = new LinkedHashMap<>();
    rec.errors()
        .forEach(
            (k, v) ->
                kinds.put(k, new BenchSummary.ErrorKind(v.count.get(), List.copyOf(v.samples))));
    List<BenchSummary.TemplateRow> templates = new ArrayList<>();
    rec.templates()
        .forEach(
            (name, t) ->
                templates.add(
                    new BenchSummary.TemplateRow(
                        name,
                        t.count.get(),
                        t.errors.get(),
                        RunLog.ms(t.latency, 50),
                        RunLog.ms(t.latency, 99),
                        t.count.get() - t.errors.get() > 0
                            ? (double) t.hits.get() / (t.count.get() - t.errors.get())
                            : 0)));
    templates.sort(Comparator.comparingLong(BenchSummary.TemplateRow::count).reversed());
    int cores = Runtime.getRuntime().availableProcessors();
    List<BenchSummary.Step> steps = new ArrayList<>();
    for (StepStats.Step s : r.steps()) {
      steps.add(step(s, r.startNanos(), cores));
    }
    Double per1000 =
        o.model() instanceof LoadModel.Closed c && log.measuredCount() > 0
            ? measured * 1000.0 * c.threads() / log.measuredCount() * 1000
            : null;
    return new BenchSummary(
        (open ? LoadLoop.OPEN : LoadLoop.CLOSED).toString(),
        startedAtMs,
        log.measuredCount(),
        new BenchSummary.Errors(log.measuredErrors(), kinds),
        rec.partial(),
        new BenchSummary.Throughput(offered, achieved),
        BenchSummary.millis(latency),
        BenchSummary.millis(log.service()),
        per1000,
        BenchSummary.values(rec.responseBytes()),
        BenchSummary.values(rec.numFound()),
        BenchSummary.hitBuckets(rec.byHits()),
        templates,
        steps.isEmpty() ? null : steps,
        new BenchSummary.Warmup(log.warmupCount(), (r.warmupEndNanos() - r.startNanos()) / 1e9),
        measured,
        r.unfinished(),
        new BenchSummary.DriverHealth(
            cpuPercent,
            cores,
            BenchSummary.millis(lag),
            steps.isEmpty()
                ? bottleneck(open, offered, achieved, lag, r.issueLag(), cpuPercent, cores)
                : staircaseBottleneck(steps)),
        o.maxErrorRate(),
        failed(log.measuredCount(), log.measuredErrors(), rec, o.maxErrorRate()),
        o.model() instanceof LoadModel.Closed c ? Integer.valueOf(c.threads()) : null,
        o.model() instanceof LoadModel.Open op ? op.rates() : null,
        null,
        replay);
  }

  /** Why a run with these counts measured nothing worth keeping, or null when it did. */
  static String failed(long count, long errors, LoadRecorder rec, double maxErrorRate) {
    if (count == 0) {
      return "no request completed in the measured time";
    }
    double share = (double) errors / count;
    if (share <= maxErrorRate) {
      return null;
    }
    List<String> kinds = new ArrayList<>();
    rec.errors().entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue().count.get(), a.getValue().count.get()))
        .forEach(
            e ->
                kinds.add(
                    e.getKey()
                        + ": "
                        + e.getValue().count.get()
                        + (e.getValue().samples.isEmpty()
                            ? ""
                            : ", e.g. " + e.getValue().samples.get(0))));
    return String.format(
        Locale.ROOT,
        "%s of %,d requests failed (%.1f %%, above the %s %% allowed)%s",
        errors == count ? "all" : String.format(Locale.ROOT, "%,d", errors),
        count,
        share * 100,
        new BigDecimal(maxErrorRate * 100)
            .round(new MathContext(3))
            .stripTrailingZeros()
            .toPlainString(),
        kinds.isEmpty()
            ? ""
            : "; " + String.join("; ", kinds.subList(0, Math.min(3, kinds.size()))));
  }

  /** One step of a staircase over its own seconds. */
  private static BenchSummary.Step step(StepStats.Step s, long runStart, int cores) {
    double secs = Math.max(1e-9, s.seconds());
    double achieved = s.completed() / secs;
    double cpu = s.cpuNanos() < 0 ? -1 : s.cpuNanos() / 1e9 / secs * 100;
    return new BenchSummary.Step(
        s.rate(),
        achieved,
        secs,
        (s.startNanos() - runStart) / 1e9,
        s.scheduled(),
        s.completed(),
        s.errors(),
        BenchSummary.millis(s.latency()),
        BenchSummary.millis(s.service()),
        BenchSummary.millis(s.lag()),
        cpu < 0 ? null : cpu,
        bottleneck(true, s.rate(), achieved, s.lag(), null, Math.max(0, cpu), cores));
  }

  /** Who limited a staircase: nobody, or whoever did at the first step that fell behind. */
  private static String staircaseBottleneck(List<BenchSummary.Step> steps) {
    for (BenchSummary.Step s : steps) {
      if (!s.bottleneck().startsWith("none")) {
        return String.format(
            Locale.ROOT,
            "%s (from the %s/s step on: achieved %.1f/s)",
            s.bottleneck(),
            num(s.rate()),
            s.achieved());
      }
    }
    return "none: the server kept up with every step";
  }

  private static String num(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  private static double offeredRate(LoadModel.Open open, Driver.Result r) {
    if (open.rates().size() == 1) {
      return open.rates().get(0);
    }
    double weighted = 0;
    double secs = 0;
    for (StepStats.Step s : r.steps()) {
      weighted += s.rate() * s.seconds();
      secs += s.seconds();
    }
    return secs > 0 ? weighted / secs : open.rates().get(0);
  }

  /**
   * Who limited the run. The driver is the bottleneck when it used most of the cores it has, or
   * (open loop) it sent requests late itself: {@code issueLag}, its own lateness, when known, else
   * {@code lag}. Requests that went out late only because they waited for a free connection were
   * held up by a server that answered too slowly for the offered rate: the server's doing.
   */
  static String bottleneck(
      boolean open,
      double offered,
      double achieved,
      Histogram lag,
      Histogram issueLag,
      double cpuPercent,
      int cores) {
    boolean busy = cpuPercent >= 0.85 * cores * 100;
    boolean behind = lag.getTotalCount() > 0 && lag.getValueAtPercentile(99) > 10_000;
    if (open && achieved >= 0.95 * offered && !behind) {
      return "none: the server kept up with the offered rate";
    }
    Histogram own = issueLag != null ? issueLag : lag;
    boolean late = own.getTotalCount() > 0 && own.getValueAtPercentile(50) > 10_000;
    if (busy || open && late) {
      return "driver: it used "
          + Math.round(cpuPercent)
          + "% CPU of "
          + cores
          + " cores; its numbers understate what the server can do";
    }
    if (open && issueLag != null && behind) {
      return String.format(
          Locale.ROOT,
          "server: requests waited for a free connection (p50 %.1f ms, p99 %.1f ms): it answered"
              + " too slowly for the offered rate",
          lag.getValueAtPercentile(50) / 1000.0,
          lag.getValueAtPercentile(99) / 1000.0);
    }
    return "server";
  }

  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return 0;
  }
}
