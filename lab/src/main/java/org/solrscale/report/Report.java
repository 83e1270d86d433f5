package org.solrscale.report;

import org.solrscale.chaos.ChaosVerdict;
import org.solrscale.chaos.FaultRecord;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.XYChart;
import org.solrscale.load.BenchSummary;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.RunDir;
import org.solrscale.results.StepResult;
import org.solrscale.results.TelemetrySample;
import org.solrscale.results.TimelineRow;
import org.solrscale.spec.SolrscaleException;

/**
 * `solrscale report DIR`: one self-contained HTML file (inline CSS and SVG, no script, font or
 * image from elsewhere) made from a run directory, plus every chart as an SVG file in charts/.
 */
public final class Report {
  /** A chart as it appears on the page and in charts/ID.svg. */
  record Figure(String id, String title, String caption, String svg) {}

  private final RunModel model;
  private final List<Figure> figures = new ArrayList<>();
  private final StringBuilder html = new StringBuilder(1 << 20);

  private Report(RunModel model) {
    this.model = model;
  }

  /** Writes DIR/report.html and DIR/charts/*.svg; returns the report's path. */
  public static Path write(Path runDir) {
    return write(runDir, runDir.resolve("report.html"));
  }

  /** Writes the report to out and its charts to charts/ beside it; returns out. */
  public static Path write(Path runDir, Path out) {
    Report r = new Report(new RunModel(RunDir.open(runDir)));
    r.build();
    Path dir = out.toAbsolutePath().getParent();
    try {
      Path charts = dir.resolve("charts");
      Files.createDirectories(charts);
      for (Figure f : r.figures) {
        Files.writeString(charts.resolve(f.id() + ".svg"), f.svg(), StandardCharsets.UTF_8);
      }
      Path tmp = dir.resolve(out.getFileName() + ".tmp");
      Files.writeString(tmp, r.html, StandardCharsets.UTF_8);
      Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write the report to " + dir + ": " + e.getMessage());
    }
    return out;
  }

  /** Ids of the charts, in page order (tests check each is on the page). */
  static List<String> chartIds(Path runDir) {
    Report r = new Report(new RunModel(RunDir.open(runDir)));
    r.build();
    return r.figures.stream().map(Figure::id).toList();
  }

  private void build() {
    String name = model.run().name();
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            + "style-src 'unsafe-inline'; img-src data:\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>").append(Html.escape("solrscale report: " + name)).append("</title>\n<style>")
        .append(css()).append("</style></head>\n<body>\n");
    header();
    section("findings", "Findings", this::findings);
    section("results", "Results", this::resultsTable);
    if (hasChaos()) {
      section("chaos", "Faults and verdicts", this::chaos);
    }
    if (model.combinations().size() > 1 && !model.swept().isEmpty()) {
      section("sweep", "Metrics against the swept parameters", this::sweeps);
    }
    section("latency", "Latency distribution", this::distributions);
    section("hits", "Latency against hits", this::hits);
    if (hasStaircase()) {
      section("knee", "Latency against rate", this::staircases);
    }
    section("cold-start", "Cold start", this::coldStart);
    section("timelines", "Over time", this::timelines);
    section("templates", "Templates", this::templates);
    section("errors", "Errors", this::errors);
    section("other-steps", "Other steps", this::otherSteps);
    section("telemetry", "Server telemetry", this::telemetry);
    section("environment", "Environment", this::environment);
    html.append("<footer>Made by <code>solrscale report ").append(Html.escape(model.run().path()))
        .append("</code>. Every chart is also in <code>charts/</code> as SVG.</footer>\n</body></html>\n");
  }

  private void header() {
    int repeats = model.combinations().stream().mapToInt(c -> c.repeats().size()).max().orElse(0);
    html.append("<header><h1>").append(Html.escape(model.run().name())).append("</h1><p>")
        .append(Html.escape(model.run().path().toAbsolutePath().normalize())).append(" &middot; ")
        .append(model.combinations().size()).append(model.combinations().size() == 1 ? " combination" : " combinations")
        .append(" &times; up to ").append(repeats).append(repeats == 1 ? " repeat" : " repeats");
    if (!model.swept().isEmpty()) {
      html.append(" &middot; swept: ").append(Html.escape(String.join(", ", model.swept())));
    }
    html.append("</p><nav>");
    for (String[] s : new String[][] {{"findings", "findings"}, {"results", "results"}, {"sweep", "sweeps"},
        {"chaos", "faults"}, {"latency", "latency"}, {"hits", "hits"}, {"knee", "latency against rate"},
        {"cold-start", "cold start"}, {"timelines", "over time"},
        {"templates", "templates"}, {"errors", "errors"}, {"telemetry", "telemetry"}, {"environment", "environment"}}) {
      if ((!s[0].equals("sweep") || model.combinations().size() > 1 && !model.swept().isEmpty())
          && (!s[0].equals("chaos") || hasChaos()) && (!s[0].equals("knee") || hasStaircase())) {
        html.append("<a href=\"#").append(s[0]).append("\">").append(s[1]).append("</a> ");
      }
    }
    html.append("</nav></header>\n");
  }

  private void section(String id, String title, Runnable body) {
    html.append("<section id=\"").append(id).append("\"><h2>").append(Html.escape(title)).append("</h2>\n");
    body.run();
    html.append("</section>\n");
  }

  private void note(String text) {
    html.append("<p class=\"note\">").append(Html.escape(text)).append("</p>\n");
  }

  private void figure(String title, String caption, XYChart chart) {
    String id = "chart-" + (figures.size() + 1) + "-" + slug(title);
    String svg;
    try {
      svg = Charts.svg(chart, id);
    } catch (Charts.NotDrawn e) {
      note(title + ": " + e.getMessage() + "; the figures are in the tables and the step's files.");
      return;
    }
    Figure f = new Figure(id, title, caption, svg);
    figures.add(f);
    html.append("<figure class=\"chart\" id=\"").append(id).append("\">")
        .append(Charts.inline(f.svg(), title)).append("<figcaption>").append(Html.escape(caption))
        .append(" <span class=\"file\">charts/").append(id).append(".svg</span></figcaption></figure>\n");
  }

  static String slug(String s) {
    String x = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    return x.length() > 48 ? x.substring(0, 48) : x;
  }

  // ---- findings and tables

  private void findings() {
    Findings f = Findings.of(model);
    html.append("<ul class=\"findings\">\n");
    for (String n : f.notes) {
      html.append("<li>").append(n).append("</li>\n");
    }
    html.append("</ul>\n");
    if (!f.effects.isEmpty()) {
      html.append("<h3>Effect of each parameter (the others fixed)</h3>\n");
      Html.Table t = new Html.Table("effects", "step", "parameter", "change", "with", "achieved QPS", "p50", "p99");
      for (Findings.Effect e : f.effects) {
        t.rawRow(Html.escape(e.step()), Html.escape(e.param()), Html.escape(e.from() + " \u2192 " + e.to()),
            Html.escape(e.at()), effect(e.deltas().get(Metric.QPS)), effect(e.deltas().get(Metric.P50)),
            effect(e.deltas().get(Metric.P99)));
      }
      html.append(t.render());
      if (f.effects.size() >= Findings.MAX_EFFECTS) {
        note("Only the first " + Findings.MAX_EFFECTS + " changes are shown.");
      }
    }
  }

  private static String effect(Comparison.MetricDelta d) {
    String cls = d.regression() ? "worse" : d.verdict().equals("no significant difference")
        || d.verdict().equals("not tested") ? "noise" : "better";
    String text = Html.pct(d.deltaPct()) + (cls.equals("noise") ? " (noise)" : "");
    return "<span class=\"" + cls + "\" title=\"" + Html.escape(d.verdict()
        + (d.p() == null ? "" : String.format(Locale.ROOT, ", p = %.3g", d.p()))) + "\">"
        + Html.escape(text) + "</span>";
  }

  private void resultsTable() {
    for (String key : model.stepKeys()) {
      html.append("<h3>").append(Html.escape("Step " + key)).append("</h3>\n");
      boolean closed = model.combinations().stream().flatMap(c -> model.benches(c.id(), key).stream())
          .anyMatch(b -> b.summary().msPer1000PerThread() != null);
      List<String> head = new ArrayList<>(List.of("id", "combination", "repeats", "requests",
          "achieved QPS", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors"));
      if (closed) {
        head.add("ms per 1000 per thread");
      }
      Html.Table t = new Html.Table("results", head.toArray(String[]::new));
      for (RunModel.Combination c : model.combinations()) {
        List<RunModel.Bench> b = model.benches(c.id(), key);
        if (b.isEmpty()) {
          continue;
        }
        List<String> row = new ArrayList<>(List.of(Html.escape(c.id()), Html.escape(model.label(c)),
            b.size() + "/" + c.repeats().size(),
            Html.num(b.stream().mapToDouble(x -> x.summary().count()).average().orElse(0))));
        for (Metric m : Metric.values()) {
          row.add(spread(b.stream().mapToDouble(x -> m.of(x.summary())).toArray()));
        }
        if (closed) {
          row.add(spread(b.stream().filter(x -> x.summary().msPer1000PerThread() != null)
              .mapToDouble(x -> x.summary().msPer1000PerThread()).toArray()));
        }
        t.rawRow(row.toArray(String[]::new));
      }
      html.append(t.render());
    }
    if (model.stepKeys().isEmpty()) {
      note("No finished bench step in this run.");
    } else {
      note("Mean over the finished repeats; the small numbers are the lowest and highest repeat.");
    }
  }

  private static String spread(double[] v) {
    if (v.length == 0) {
      return "-";
    }
    double mean = java.util.Arrays.stream(v).average().orElse(0);
    String s = Html.num(mean);
    double min = java.util.Arrays.stream(v).min().orElse(0);
    double max = java.util.Arrays.stream(v).max().orElse(0);
    if (v.length > 1 && min != max) {
      s += " <small>" + Html.num(java.util.Arrays.stream(v).min().orElse(0)) + "&ndash;"
          + Html.num(java.util.Arrays.stream(v).max().orElse(0)) + "</small>";
    }
    return s;
  }

  // ---- sweep charts

  /** Combinations ordered by one parameter: as numbers when they are, else as they first appear. */
  static Comparator<RunModel.Combination> byParam(String param, List<RunModel.Combination> all) {
    List<String> order = all.stream().map(c -> String.valueOf(c.params().get(param))).distinct().toList();
    return (a, b) -> {
      Object x = a.params().get(param);
      Object y = b.params().get(param);
      Double dx = number(x);
      Double dy = number(y);
      if (dx != null && dy != null) {
        return Double.compare(dx, dy);
      }
      return Integer.compare(order.indexOf(String.valueOf(x)), order.indexOf(String.valueOf(y)));
    };
  }

  static Double number(Object o) {
    if (o instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return o == null ? null : Double.parseDouble(o.toString());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private void sweeps() {
    for (String key : model.stepKeys()) {
      List<RunModel.Combination> combos = model.combinations().stream()
          .filter(c -> !model.benches(c.id(), key).isEmpty()).toList();
      boolean closed = combos.stream().flatMap(c -> model.benches(c.id(), key).stream())
          .allMatch(b -> b.summary().msPer1000PerThread() != null);
      for (String param : model.swept()) {
        sweepChart(key, param, combos, "achieved QPS", "requests per second", b -> Metric.QPS.of(b.summary()));
        sweepChart(key, param, combos, "p50 latency", "ms", b -> Metric.P50.of(b.summary()));
        sweepChart(key, param, combos, "p99 latency", "ms", b -> Metric.P99.of(b.summary()));
        if (closed) {
          sweepChart(key, param, combos, "time per 1000 requests per thread", "ms",
              b -> b.summary().msPer1000PerThread());
        }
      }
    }
  }

  private void sweepChart(String key, String param, List<RunModel.Combination> combos, String metric,
      String unit, java.util.function.ToDoubleFunction<RunModel.Bench> value) {
    List<RunModel.Combination> sorted = new ArrayList<>(combos);
    sorted.sort(byParam(param, combos));
    List<String> values = sorted.stream().map(c -> String.valueOf(c.params().get(param))).distinct().toList();
    boolean numeric = values.stream().allMatch(v -> number(v) != null);
    String fixed = "";
    if (sorted.stream().map(c -> model.labelWithout(c, param)).distinct().count() > 8) {
      // too many lines: one line per value of the other parameter with the most values, the
      // rest fixed at their first value
      List<String> others = model.swept().stream().filter(q -> !q.equals(param)).toList();
      String line = others.stream().max(Comparator.comparingLong(q -> combos.stream()
          .map(c -> String.valueOf(c.params().get(q))).distinct().count())).orElseThrow();
      List<String> at = new ArrayList<>();
      for (String q : others) {
        if (!q.equals(line)) {
          Object first = combos.stream().sorted(byParam(q, combos)).findFirst().orElseThrow().params().get(q);
          sorted.removeIf(c -> !String.valueOf(c.params().get(q)).equals(String.valueOf(first)));
          at.add(RunModel.shortName(q) + "=" + first);
        }
      }
      fixed = " Other parameters fixed at " + String.join(", ", at) + ".";
    }
    Map<String, List<RunModel.Combination>> lines = new LinkedHashMap<>();
    for (RunModel.Combination c : sorted) {
      lines.computeIfAbsent(model.labelWithout(c, param), k -> new ArrayList<>()).add(c);
    }
    List<Charts.Curve> curves = new ArrayList<>();
    for (var line : lines.entrySet()) {
      int n = line.getValue().size();
      double[] x = new double[n];
      double[] y = new double[n];
      double[] err = new double[n];
      for (int i = 0; i < n; i++) {
        RunModel.Combination c = line.getValue().get(i);
        String v = String.valueOf(c.params().get(param));
        x[i] = numeric ? number(v) : values.indexOf(v);
        double[] r = model.benches(c.id(), key).stream().mapToDouble(value).toArray();
        y[i] = java.util.Arrays.stream(r).average().orElse(0);
        for (double ri : r) {
          err[i] = Math.max(err[i], Math.abs(ri - y[i]));
        }
      }
      curves.add(new Charts.Curve(line.getKey(), x, y, err, false));
    }
    String p = RunModel.shortName(param);
    String title = metric + " against " + p + " (" + key + ")";
    XYChart chart = numeric ? Charts.lines(title, p, unit, curves)
        : Charts.categories(title, p, unit, values, curves);
    figure(title, "One line per value of the other swept parameters; points are the mean of the "
        + "repeats, bars reach the lowest and highest repeat." + fixed, chart);
  }

  // ---- overlays: one line per combination (or per step when there is one combination)

  /** A chart's worth of lines: title suffix and (label, bench) pairs. */
  private record Overlay(String title, List<Map.Entry<String, List<RunModel.Bench>>> series, int total) {
    /** Says so when only some combinations are drawn. */
    String more() {
      return total > series.size() ? " Only the first " + series.size() + " of " + total + " combinations are drawn." : "";
    }
  }

  /** More lines than this on one chart cannot be told apart. */
  static final int MAX_LINES = 12;

  private List<Overlay> overlays() {
    List<Overlay> out = new ArrayList<>();
    if (model.combinations().size() == 1) {
      RunModel.Combination c = model.combinations().get(0);
      List<Map.Entry<String, List<RunModel.Bench>>> s = new ArrayList<>();
      for (String key : model.stepKeys()) {
        if (!model.benches(c.id(), key).isEmpty()) {
          s.add(Map.entry(key, model.benches(c.id(), key)));
        }
      }
      if (!s.isEmpty()) {
        out.add(new Overlay(model.label(c), s, s.size()));
      }
      return out;
    }
    for (String key : model.stepKeys()) {
      List<Map.Entry<String, List<RunModel.Bench>>> s = new ArrayList<>();
      for (RunModel.Combination c : model.combinations()) {
        if (!model.benches(c.id(), key).isEmpty()) {
          s.add(Map.entry(model.label(c), model.benches(c.id(), key)));
        }
      }
      if (!s.isEmpty()) {
        out.add(new Overlay(key, s.size() > MAX_LINES ? s.subList(0, MAX_LINES) : s, s.size()));
      }
    }
    return out;
  }

  private void distributions() {
    boolean any = false;
    for (Overlay o : overlays()) {
      List<Charts.Curve> curves = new ArrayList<>();
      boolean fromLog = true;
      for (var s : o.series()) {
        Histogram merged = null;
        for (RunModel.Bench b : s.getValue()) {
          var h = b.intervals().merged("latency");
          if (h.isPresent()) {
            merged = merged == null ? h.get().copy() : add(merged, h.get());
          }
        }
        Charts.Curve c = merged != null && merged.getTotalCount() > 0 ? percentiles(s.getKey(), merged)
            : summaryPercentiles(s.getKey(), s.getValue().get(0).summary());
        fromLog &= merged != null;
        if (c != null) {
          curves.add(c);
        }
      }
      if (!curves.isEmpty()) {
        any = true;
        figure("Latency by percentile (" + o.title() + ")", fromLog
            ? "From latency.hlog: every measured interval of every repeat, merged." + o.more()
            : "From the summaries' percentiles (a step without latency.hlog)." + o.more(),
            Charts.distribution("Latency by percentile (" + o.title() + ")", curves));
      }
    }
    if (!any) {
      note("No latency recorded.");
    }
  }

  private static Histogram add(Histogram sum, Histogram h) {
    sum.add(h);
    return sum;
  }

  static Charts.Curve percentiles(String label, Histogram h) {
    List<double[]> points = new ArrayList<>();
    for (HistogramIterationValue v : h.percentiles(5)) {
      if (v.getPercentileLevelIteratedTo() >= 100) {
        break;
      }
      points.add(new double[] {Charts.percentileX(v.getPercentileLevelIteratedTo()),
          h.highestEquivalentValue(v.getValueIteratedTo()) / 1000.0});
    }
    points.add(new double[] {Charts.percentileX(100 * (1 - 1.0 / Math.max(2, h.getTotalCount()))),
        h.getMaxValue() / 1000.0});
    return new Charts.Curve(label, points.stream().mapToDouble(p -> p[0]).toArray(),
        points.stream().mapToDouble(p -> p[1]).toArray());
  }

  static Charts.Curve summaryPercentiles(String label, BenchSummary s) {
    if (s.latencyMs() == null || s.count() == 0) {
      return null;
    }
    double[] ps = {50, 75, 90, 95, 99, 99.9};
    String[] keys = {"p50", "p75", "p90", "p95", "p99", "p99.9"};
    List<double[]> points = new ArrayList<>();
    for (int i = 0; i < ps.length; i++) {
      Double v = s.latencyMs().get(keys[i]);
      if (v != null) {
        points.add(new double[] {Charts.percentileX(ps[i]), v});
      }
    }
    return points.isEmpty() ? null : new Charts.Curve(label, points.stream().mapToDouble(p -> p[0]).toArray(),
        points.stream().mapToDouble(p -> p[1]).toArray());
  }

  private void hits() {
    boolean any = false;
    for (Overlay o : overlays()) {
      Map<Long, String> buckets = new java.util.TreeMap<>();
      for (var s : o.series()) {
        BenchSummary b = s.getValue().get(0).summary();
        if (b.latencyByHits() != null) {
          b.latencyByHits().forEach(h -> buckets.put(h.min(), h.min() == h.max() ? String.valueOf(h.min())
              : h.min() + "-" + h.max()));
        }
      }
      if (buckets.isEmpty()) {
        continue;
      }
      List<Long> mins = new ArrayList<>(buckets.keySet());
      List<Charts.Curve> curves = new ArrayList<>();
      boolean withP99 = o.series().size() <= 3;
      for (var s : o.series()) {
        BenchSummary b = s.getValue().get(0).summary();
        if (b.latencyByHits() == null || b.latencyByHits().isEmpty()) {
          continue;
        }
        double[] x = b.latencyByHits().stream().mapToDouble(h -> mins.indexOf(h.min())).toArray();
        curves.add(new Charts.Curve(s.getKey() + (withP99 ? " p50" : ""), x,
            b.latencyByHits().stream().mapToDouble(BenchSummary.HitBucket::p50).toArray()));
        if (withP99) {
          curves.add(new Charts.Curve(s.getKey() + " p99", x,
              b.latencyByHits().stream().mapToDouble(BenchSummary.HitBucket::p99).toArray(), null, true));
        }
      }
      any = true;
      String title = "Latency against number of hits (" + o.title() + ")";
      figure(title, "Requests grouped by numFound in powers of two; first repeat of each." + o.more(),
          Charts.categories(title, "hits (numFound)", "latency (ms)", new ArrayList<>(buckets.values()), curves));
    }
    if (!any) {
      note("No latency by hits recorded (the summaries have no latency_by_hits).");
    }
  }

  private boolean hasStaircase() {
    return model.stepKeys().stream().flatMap(k -> model.combinations().stream().flatMap(c -> model.benches(c.id(), k).stream()))
        .anyMatch(b -> b.summary().steps() != null && !b.summary().steps().isEmpty());
  }

  /**
   * Each staircase's latency against its rates, where the knee shows: p50 and p99 of each step
   * (from the intended start) on the left axis, and the achieved rate against the offered one on
   * the right (where they part, the server stopped keeping up); a table of every step below.
   */
  private void staircases() {
    for (Overlay o : overlays()) {
      for (var s : o.series()) {
        RunModel.Bench b = s.getValue().get(0);
        List<BenchSummary.Step> steps = b.summary().steps();
        if (steps == null || steps.isEmpty()) {
          continue;
        }
        double[] rate = steps.stream().mapToDouble(BenchSummary.Step::rate).toArray();
        java.util.function.BiFunction<String, String, double[]> latency = (m, k) -> steps.stream()
            .mapToDouble(st -> "service".equals(m) ? value(st.serviceTimeMs(), k) : value(st.latencyMs(), k)).toArray();
        String title = "Latency against rate: " + s.getKey() + ", " + o.title();
        figure(title, "One point per step of the staircase, first repeat: latency from each request's "
            + "intended start (left axis); achieved against offered rate (right axis, dashed): where they "
            + "part, the server no longer kept up.",
            Charts.twoAxes(title, "offered rate (requests/s)", "latency (ms)", "requests/s",
                List.of(new Charts.Curve("p50", rate, latency.apply("latency", "p50")),
                    new Charts.Curve("p99", rate, latency.apply("latency", "p99")),
                    new Charts.Curve("p99.9", rate, latency.apply("latency", "p99.9"))),
                List.of(new Charts.Curve("achieved", rate, steps.stream().mapToDouble(BenchSummary.Step::achieved).toArray()),
                    new Charts.Curve("offered", rate, rate))));
        Html.Table t = new Html.Table("stairs", "rate /s", "achieved /s", "seconds", "p50 ms", "p99 ms", "p99.9 ms",
            "service p99 ms", "errors", "driver CPU", "bottleneck");
        for (BenchSummary.Step st : steps) {
          t.row(Html.num(st.rate()), Html.num(st.achieved()), Html.num(st.seconds()), Html.num(value(st.latencyMs(), "p50")),
              Html.num(value(st.latencyMs(), "p99")), Html.num(value(st.latencyMs(), "p99.9")),
              Html.num(value(st.serviceTimeMs(), "p99")), st.errors() == null ? "" : st.errors(),
              st.driverCpuPercent() == null ? "" : Math.round(st.driverCpuPercent()) + " %",
              st.bottleneck() == null ? "" : st.bottleneck());
        }
        html.append(t.render());
      }
    }
  }

  private static double value(Map<String, Double> m, String key) {
    return m == null || m.get(key) == null ? 0 : m.get(key);
  }

  private void coldStart() {
    boolean any = false;
    for (Overlay o : overlays()) {
      List<Charts.Curve> curves = new ArrayList<>();
      boolean perThread = true;
      for (var s : o.series()) {
        RunModel.Bench b = s.getValue().get(0);
        perThread &= b.threads() != null;
      }
      for (var s : o.series()) {
        RunModel.Bench b = s.getValue().get(0);
        if (!"closed".equals(b.summary().loadModel())) {
          continue;
        }
        List<TimelineRow> rows = Seconds.of(b.timeline());
        List<double[]> points = new ArrayList<>();
        long done = 0;
        for (TimelineRow r : rows) {
          done += r.requests();
          if (r.qps() > 0) {
            double per1000 = 1000 / r.qps() * (perThread ? b.threads() : 1);
            points.add(new double[] {done, per1000});
          }
        }
        if (points.size() >= 2) {
          curves.add(new Charts.Curve(s.getKey(), points.stream().mapToDouble(p -> p[0]).toArray(),
              points.stream().mapToDouble(p -> p[1]).toArray()));
        }
      }
      if (!curves.isEmpty()) {
        any = true;
        String title = "Cold start (" + o.title() + ")";
        figure(title, "Closed loop, first repeat, warm-up included: each point is one second (the second "
            + "the warm-up ended in counted whole; a last part-second left out). "
            + "A cold cache shows as a high start that falls." + o.more(),
            Charts.lines(title, "requests done", perThread ? "seconds per 1000 requests per thread"
                : "seconds per 1000 requests", curves));
      }
    }
    if (!any) {
      note("No closed-loop bench step with a timeline: the cold-start curve needs one.");
    }
  }

  private void timelines() {
    boolean any = false;
    boolean fold = model.combinations().size() > 4;
    List<RunModel.Combination> drawn = model.combinations().size() > MAX_LINES
        ? model.combinations().subList(0, MAX_LINES) : model.combinations();
    if (drawn.size() < model.combinations().size()) {
      note("Over-time charts of the first " + drawn.size() + " of " + model.combinations().size()
          + " combinations; every step's timeline.csv and telemetry.csv are in its directory.");
    }
    for (RunModel.Combination c : drawn) {
      StringBuilder before = new StringBuilder();
      int start = html.length();
      for (String key : model.stepKeys()) {
        List<RunModel.Bench> b = model.benches(c.id(), key);
        if (b.isEmpty() || b.get(0).timeline().isEmpty()) {
          continue;
        }
        List<TimelineRow> rows = Seconds.of(b.get(0).timeline());
        if (rows.isEmpty()) {
          continue; // shorter than a second: nothing to draw over time
        }
        double[] warm = null;
        List<TimelineRow> w = rows.stream().filter(TimelineRow::warmup).toList();
        if (!w.isEmpty()) {
          double end = rows.stream().filter(r -> !r.warmup()).mapToDouble(TimelineRow::second).min()
              .orElse(w.get(w.size() - 1).second() + 1);
          warm = new double[] {w.get(0).second(), end};
        }
        String title = "Over time: " + model.label(c) + ", " + key;
        List<Charts.Shade> shades = faultShades(model.run().stepDir(b.get(0).step()));
        figure(title, "First repeat" + (b.size() > 1 ? " of " + b.size() : "")
            + "; latency percentiles per second (left axis) and throughput (right axis); a last part-second is left out"
            + (warm == null ? "." : "; the warm-up is shaded grey.")
            + (shades.isEmpty() ? "" : " Faults are shaded red, from injection until recovered."),
            Charts.timeline(title, rows.stream().mapToDouble(TimelineRow::second).toArray(),
                rows.stream().mapToDouble(TimelineRow::latencyP50Ms).toArray(),
                rows.stream().mapToDouble(TimelineRow::latencyP99Ms).toArray(),
                rows.stream().mapToDouble(TimelineRow::qps).toArray(), warm, shades));
        any = true;
        serverOverTime(c, key, b.get(0));
      }
      if (fold && html.length() > start) {
        before.append("<details").append(c == model.combinations().get(0) ? " open" : "").append("><summary>")
            .append(Html.escape(c.id() + ": " + model.label(c))).append("</summary>\n");
        html.insert(start, before);
        html.append("</details>\n");
      }
    }
    if (!any) {
      note("No timeline.csv in this run.");
    }
  }

  private void templates() {
    boolean any = false;
    for (String key : model.stepKeys()) {
      Html.Table t = new Html.Table("templates", "combination", "template", "requests", "errors",
          "p50 ms", "p99 ms", "mean hits");
      for (RunModel.Combination c : model.combinations()) {
        List<RunModel.Bench> b = model.benches(c.id(), key);
        if (b.isEmpty() || b.get(0).summary().templates() == null) {
          continue;
        }
        for (BenchSummary.TemplateRow r : b.get(0).summary().templates()) {
          t.row(model.label(c), r.template(), r.count(), r.errors(), Html.num(r.p50()), Html.num(r.p99()),
              Html.num(r.meanHits()));
        }
      }
      if (!t.isEmpty()) {
        any = true;
        html.append("<h3>").append(Html.escape("Step " + key)).append(" (first repeat)</h3>\n").append(t.render());
      }
    }
    if (!any) {
      note("No per-template figures recorded.");
    }
  }

  private void errors() {
    Html.Table t = new Html.Table("errors", "combination", "repeat", "step", "kind", "count", "sample");
    for (RunModel.Combination c : model.combinations()) {
      for (String key : model.stepKeys()) {
        for (RunModel.Bench b : model.benches(c.id(), key)) {
          BenchSummary.Errors e = b.summary().errors();
          if (e == null || e.byKind() == null) {
            continue;
          }
          e.byKind().forEach((kind, v) -> t.row(c.id() + " " + model.label(c), b.repeat(), key, kind,
              v.count(), v.samples() == null || v.samples().isEmpty() ? "" : v.samples().get(0)));
        }
      }
    }
    if (t.isEmpty()) {
      note("No errors: every request of every measured phase succeeded.");
    } else {
      html.append(t.render());
    }
  }

  private boolean hasChaos() {
    return model.combinations().stream().flatMap(c -> c.repeats().stream())
        .flatMap(r -> r.steps().stream()).anyMatch(s -> "chaos".equals(s.kind()));
  }

  /** Faults recorded beside a step (faults.json), as shaded intervals. */
  private static List<Charts.Shade> faultShades(java.nio.file.Path stepDir) {
    List<Charts.Shade> out = new ArrayList<>();
    for (FaultRecord f : faults(stepDir)) {
      if (f.injected()) {
        out.add(new Charts.Shade(f.fault() + " " + String.join(",", f.nodes()), f.startS(), f.until()));
      }
    }
    return out;
  }

  private static List<FaultRecord> faults(java.nio.file.Path stepDir) {
    java.nio.file.Path file = stepDir.resolve("faults.json");
    if (!java.nio.file.Files.isRegularFile(file)) {
      return List.of();
    }
    try {
      return List.of(RunDir.JSON.readValue(file.toFile(), FaultRecord[].class));
    } catch (java.io.IOException e) {
      throw SolrscaleException.usage(file + ": not a faults file: " + e.getMessage());
    }
  }

  /** Per chaos step: the verdict, a row per fault, the behaviours checked, and the timeline. */
  private void chaos() {
    Html.Table runs = new Html.Table("chaos", "combination", "repeat", "step", "verdict", "acknowledged",
        "found", "lost", "divergent shards", "recovery s", "availability", "during faults");
    Html.Table faults = new Html.Table("faults", "combination", "repeat", "step", "fault", "nodes",
        "start s", "healed s", "recovery s", "availability", "writes ok/failed/unknown",
        "queries ok/failed", "behaviours", "note");
    Html.Table lostWrites = new Html.Table("lost-writes", "combination", "repeat", "step", "due s",
        "answered after s", "answered by", "rf", "batch", "lost ids");
    List<Runnable> charts = new ArrayList<>();
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          if (!"chaos".equals(s.kind())) {
            continue;
          }
          JsonNode sum = model.run().summary(s);
          if (sum == null) {
            continue;
          }
          ChaosVerdict v;
          try {
            v = RunDir.JSON.treeToValue(sum, ChaosVerdict.class);
          } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw SolrscaleException.usage(model.run().path() + ": step " + s.label() + " in " + s.dir()
                + " has no chaos verdict: " + e.getOriginalMessage());
          }
          runs.row(c.id(), r.repeat(), s.label(), v.ok() ? "pass" : ChaosVerdict.NOT_CHECKED.equals(v.verdict())
                  ? "not checked: " + String.join("; ", v.notChecked() == null ? List.of() : v.notChecked()) : "FAIL",
              v.acknowledged(), v.found() == null ? "not checked" : v.found(),
              v.lost() == null ? "not checked" : v.lost() + (v.lostIds() == null || v.lostIds().isEmpty() ? ""
                  : " (" + String.join(", ", v.lostIds().subList(0, Math.min(5, v.lostIds().size()))) + ")"),
              v.divergentShards() + (v.shards() != null && v.shards().stream().anyMatch(x -> x.agree() == null)
                  ? " (some not checked)" : ""), v.recoverySeconds() == null ? (v.recovered() ? "" : "not recovered")
                  : Html.num(v.recoverySeconds()), pct(v.availability()),
              v.availabilityDuringFaults() == null ? "" : pct(v.availabilityDuringFaults()));
          for (org.solrscale.chaos.LossChecker.LostWrite w : v.lostWrites() == null
              ? List.<org.solrscale.chaos.LossChecker.LostWrite>of() : v.lostWrites()) {
            lostWrites.row(c.id(), r.repeat(), s.label(), Html.num(w.timeMs() / 1000.0),
                w.latencyMs() == null ? "" : Html.num(w.latencyMs() / 1000.0), w.node() == null ? "" : w.node(),
                w.rf() == null ? "" : w.rf(), w.batch(), String.join(", ", w.lostIds()));
          }
          for (ChaosVerdict.FaultVerdict fv : v.faults()) {
            FaultRecord f = fv.fault();
            String behaviours = fv.behaviours() == null ? "" : fv.behaviours().stream()
                .map(b -> (b.pass() == null ? "not reached: " : b.pass() ? "held: " : "FAILED: ") + b.expected() + " (" + b.observed() + ")")
                .collect(java.util.stream.Collectors.joining("; "));
            faults.row(c.id(), r.repeat(), s.label(), f.fault() + (f.target() == null ? "" : " " + f.target()),
                f.nodes() == null ? "" : String.join(",", f.nodes()),
                f.startS() == null ? "" : Html.num(f.startS()), f.healS() == null ? "" : Html.num(f.healS()),
                f.recoverySeconds() == null ? "" : Html.num(f.recoverySeconds()),
                fv.availability() == null ? "" : pct(fv.availability()),
                fv.writes() == null ? "" : fv.writes().ok() + "/" + fv.writes().failed() + "/" + fv.writes().unknown(),
                fv.queries() == null ? "" : fv.queries().ok() + "/" + fv.queries().failed(),
                behaviours, f.note() == null ? "" : f.note());
          }
          if (r.repeat() == 1) {
            charts.add(() -> chaosTimeline(c, s));
          }
        }
      }
    }
    html.append(runs.render());
    note("Lost = acknowledged writes the healed collection does not hold. A shard diverges when its "
        + "replicas, each read alone (distrib=false), differ in documents. Recovery runs from healing "
        + "until every replica is active again.");
    if (!lostWrites.isEmpty()) {
      note("Acknowledged writes that lost documents: when each was due, how long Solr took to answer, "
          + "which node answered, and the replication factor it reported.");
      html.append(lostWrites.render());
    }
    if (!faults.isEmpty()) {
      html.append(faults.render());
    }
    charts.forEach(Runnable::run);
  }

  private static String pct(double share) {
    return String.format(Locale.ROOT, "%.1f %%", share * 100);
  }

  private void chaosTimeline(RunModel.Combination c, StepResult s) {
    List<TimelineRow> rows = model.run().timeline(s);
    if (rows.isEmpty()) {
      return;
    }
    String title = "Faults over time: " + model.label(c) + ", " + s.label();
    figure(title, "Query latency per second (left axis) and writes plus queries per second (right axis); "
        + "faults are shaded red, from injection until recovered.",
        Charts.timeline(title, rows.stream().mapToDouble(TimelineRow::second).toArray(),
            rows.stream().mapToDouble(TimelineRow::latencyP50Ms).toArray(),
            rows.stream().mapToDouble(TimelineRow::latencyP99Ms).toArray(),
            rows.stream().mapToDouble(TimelineRow::qps).toArray(), null,
            faultShades(model.run().stepDir(s))));
  }

  private void otherSteps() {
    Html.Table t = new Html.Table("steps", "combination", "repeat", "step", "kind", "summary");
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          if (s.isBench() || "chaos".equals(s.kind())) {
            continue;
          }
          JsonNode sum = model.run().summary(s);
          t.row(c.id(), r.repeat(), s.label(), s.kind(), sum == null ? "" : compact(sum));
        }
      }
    }
    if (t.isEmpty()) {
      note("No steps other than bench.");
    } else {
      html.append(t.render());
    }
  }

  private static String compact(JsonNode n) {
    List<String> parts = new ArrayList<>();
    n.fields().forEachRemaining(e -> {
      if (e.getValue().isValueNode() && !e.getValue().isNull()) {
        String v = e.getValue().isFloatingPointNumber() ? Html.num(e.getValue().asDouble()) : e.getValue().asText();
        parts.add(e.getKey() + " " + v);
      }
    });
    return String.join(", ", parts);
  }

  /** CPU and heap of every node while the step ran, from its telemetry.csv. */
  private void serverOverTime(RunModel.Combination c, String key, RunModel.Bench b) {
    List<TelemetrySample> samples = model.run().telemetry(b.step());
    Map<String, List<TelemetrySample>> cpu = new java.util.TreeMap<>();
    Map<String, List<TelemetrySample>> heap = new java.util.TreeMap<>();
    for (TelemetrySample t : samples) {
      if (t.metric().equals("cpu")) {
        cpu.computeIfAbsent(t.node(), k -> new ArrayList<>()).add(t);
      } else if (t.metric().equals("heap_used")) {
        heap.computeIfAbsent(t.node(), k -> new ArrayList<>()).add(t);
      }
    }
    if (cpu.isEmpty() && heap.isEmpty()) {
      return;
    }
    List<Charts.Curve> left = new ArrayList<>();
    cpu.forEach((node, t) -> left.add(new Charts.Curve(node + " CPU %",
        t.stream().mapToDouble(TelemetrySample::second).toArray(),
        t.stream().mapToDouble(x -> x.value() * 100).toArray())));
    List<Charts.Curve> right = new ArrayList<>();
    heap.forEach((node, t) -> right.add(new Charts.Curve(node + " heap MB",
        t.stream().mapToDouble(TelemetrySample::second).toArray(),
        t.stream().mapToDouble(x -> x.value() / 1e6).toArray())));
    String title = "Server: " + model.label(c) + ", " + key;
    figure(title, "Telemetry of the same repeat: process CPU of each Solr node (solid, left axis, "
        + "percent of the machine) and heap used (dashed, right axis), seconds since the step began.",
        Charts.twoAxes(title, "seconds since start", "CPU (%)", "heap used (MB)", left, right));
  }

  private void telemetry() {
    List<String> metrics = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    for (RunModel.Combination c : model.combinations()) {
      CombinationRun first = c.repeats().stream().filter(CombinationRun::done).findFirst().orElse(null);
      if (first == null) {
        continue;
      }
      for (StepResult s : first.steps()) {
        if (s.telemetry() == null) {
          continue;
        }
        s.telemetry().forEach((node, m) -> {
          m.keySet().stream().filter(k -> !metrics.contains(k)).forEach(metrics::add);
          rows.add(new Object[] {model.label(c), s.label(), node, m});
        });
      }
    }
    if (rows.isEmpty()) {
      note("No server telemetry recorded in this run.");
      return;
    }
    List<String> head = new ArrayList<>(List.of("combination", "step", "node"));
    metrics.forEach(k -> head.add(k.replace('_', ' ')));
    Html.Table t = new Html.Table("telemetry", head.toArray(String[]::new));
    for (Object[] r : rows) {
      @SuppressWarnings("unchecked")
      Map<String, Double> m = (Map<String, Double>) r[3];
      List<Object> cells = new ArrayList<>(List.of(r[0], r[1], r[2]));
      for (String k : metrics) {
        Double v = m.get(k);
        cells.add(v == null ? "" : k.endsWith("ratio") ? String.format(Locale.ROOT, "%.1f %%", v * 100) : Html.num(v));
      }
      t.row(cells.toArray());
    }
    html.append(t.render());
    note("Per node while each step of the first repeat ran: mean CPU (percent of the machine), largest heap "
        + "used, garbage collections and their milliseconds, /select requests per second, cache hit ratios; "
        + "ZooKeeper: mean and largest latency, largest number of outstanding requests. CPU and heap over "
        + "time are charted beside each timeline.");
  }

  private void environment() {
    var env = model.run().environment();
    if (env.isEmpty()) {
      note("No environment.json in this run.");
    } else {
      Html.Table t = new Html.Table("env", "what", "value");
      env.get().fields().forEachRemaining(e -> {
        JsonNode v = e.getValue();
        if (e.getKey().equals("nodes")) {
          return; // a table of their own, below
        }
        if (e.getKey().equals("memory_bytes") && v.isNumber()) {
          t.row("memory", String.format(Locale.ROOT, "%.1f GiB", v.asDouble() / (1L << 30)));
        } else if (v.isValueNode()) {
          t.row(e.getKey().replace('_', ' '), v.asText());
        } else {
          t.row(e.getKey().replace('_', ' '), v.toString());
        }
      });
      html.append(t.render());
      nodes(env.get().path("nodes"));
    }
    Path scenario = model.run().path().resolve("scenario.yaml");
    if (Files.isRegularFile(scenario)) {
      try (InputStream in = Files.newInputStream(scenario)) {
        html.append("<details><summary>scenario.yaml</summary><pre>")
            .append(Html.escape(new String(in.readAllBytes(), StandardCharsets.UTF_8))).append("</pre></details>\n");
      } catch (IOException e) {
        note("scenario.yaml cannot be read: " + e.getMessage());
      }
    }
  }

  /** Per node its JVM, heap, collector and notable flags; the full command lines folded away. */
  private void nodes(JsonNode nodes) {
    if (!nodes.isArray() || nodes.isEmpty()) {
      return;
    }
    Html.Table t = new Html.Table("nodes", "node", "role", "java", "heap", "GC", "flags");
    StringBuilder full = new StringBuilder();
    for (JsonNode n : nodes) {
      List<String> args = new ArrayList<>();
      n.path("jvm_args").forEach(a -> args.add(a.asText()));
      JvmFlags f = JvmFlags.of(args);
      t.row(n.path("id").asText(), n.path("role").asText(), f.java(), f.heap(), f.gc(), String.join(" ", f.notable()));
      full.append(n.path("id").asText()).append(":\n  ").append(String.join(" \\\n    ", args)).append("\n\n");
    }
    html.append(t.render());
    html.append("<details><summary>Full command lines</summary><pre>").append(Html.escape(full.toString().strip()))
        .append("</pre></details>\n");
  }

  private static String css() {
    return """
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#222;
          margin:0 auto;max-width:1180px;padding:0 20px 40px}
        header{border-bottom:1px solid #ddd;margin-bottom:8px}
        h1{font-size:26px;margin:22px 0 4px}h2{font-size:20px;margin:28px 0 8px;border-bottom:1px solid #eee}
        h3{font-size:16px;margin:18px 0 6px}
        nav a{margin-right:10px;color:#0072B2;text-decoration:none}
        table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}
        th,td{padding:3px 9px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
        th{background:#f6f6f6;font-weight:600}
        td small{color:#777}
        table.results td:nth-child(n+3),table.templates td:nth-child(n+3){text-align:right;font-variant-numeric:tabular-nums}
        figure.chart{display:inline-block;width:48%;min-width:420px;margin:6px 1% 14px 0;vertical-align:top}
        figure.chart svg{width:100%;height:auto;display:block}
        figcaption{font-size:12px;color:#555}
        .file{color:#999}
        .note{color:#555;font-style:italic}
        .sig,.worse{color:#b3261e;font-weight:600}.better{color:#1b7f3b;font-weight:600}.noise{color:#777}
        ul.findings li{margin:4px 0}
        pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
        footer{margin-top:30px;color:#888;font-size:12px}
        @media (max-width:900px){figure.chart{width:100%;min-width:0}}
        """;
  }
}
