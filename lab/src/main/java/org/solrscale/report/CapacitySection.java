package org.solrscale.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.solrscale.capacity.Usl;
import org.solrscale.results.CapacityResult;
import org.solrscale.spec.Slo;

/**
 * The report's section "Capacity": per capacity step, each combination's capacity with its interval
 * and every probe, the latency-throughput curve the probes drew, the scalability law fitted over
 * each sweep of nodes or replicas (with residuals, peak and the largest N held out), and the
 * recommendation for a target with the parameters that made no difference.
 */
final class CapacitySection extends Section {
  private CapacityStudy study;

  @Override
  String id() {
    return "capacity";
  }

  @Override
  String title() {
    return "Capacity";
  }

  @Override
  String nav() {
    return "capacity";
  }

  private CapacityStudy study() {
    if (study == null) {
      study = CapacityStudy.of(model, target());
    }
    return study;
  }

  @Override
  boolean shown() {
    return !study().isEmpty();
  }

  @Override
  void write() {
    CapacityStudy s = study();
    if (!s.findings.isEmpty()) {
      html.append("<ul class=\"findings\">\n");
      for (String f : s.findings) {
        html.append("<li>").append(Html.escape(f)).append("</li>\n");
      }
      html.append("</ul>\n");
    }
    for (var e : s.entries.entrySet()) {
      capacities(e.getKey(), e.getValue());
      curve(e.getKey(), e.getValue());
    }
    for (CapacityStudy.Scaling sc : s.scalings) {
      scaling(sc);
    }
    probes(s);
  }

  private void capacities(String key, List<CapacityStudy.Entry> entries) {
    CapacityResult first = entries.get(0).searches().get(0).summary();
    note(
        String.format(
            Locale.ROOT,
            "Step %s: the highest open-loop rate that met %s, found by doubling then bisection;"
                + " each probe measured at least %,d requests after its warm-up. The interval runs"
                + " from the lowest capacity any repeat found to the highest rate any repeat"
                + " failed at (? when the highest rate tried met the objective).",
            key,
            entries.get(0).slo(),
            first.requestsPerProbe()));
    Html.Table t =
        new Html.Table(
            "capacity",
            "combination",
            "repeats",
            "capacity (req/s)",
            "each repeat",
            "interval",
            "probes",
            "how the search ended");
    for (CapacityStudy.Entry e : entries) {
      List<String> each = new ArrayList<>();
      int probes = 0;
      for (CapacityStudy.Search r : e.searches()) {
        each.add(r.capacity() == null ? "none" : Slo.fmt(r.capacity()));
        probes += r.summary().probes().size();
      }
      t.row(
          model.label(e.combination()),
          e.searches().size(),
          Slo.fmt(e.capacity()),
          String.join(", ", each),
          CapacityStudy.interval(e.low(), e.high()),
          probes,
          e.searches().get(0).summary().ended());
    }
    html.append(t.render());
  }

  /** Achieved rate against the bounded percentile, one line per combination (first repeat). */
  private void curve(String key, List<CapacityStudy.Entry> entries) {
    Slo slo = entries.get(0).objective();
    String pct = slo.highestBound();
    List<Charts.Curve> curves = new ArrayList<>();
    double maxX = 0;
    for (CapacityStudy.Entry e : entries.subList(0, Math.min(entries.size(), Page.MAX_LINES))) {
      List<CapacityResult.Measured> probes = new ArrayList<>();
      e.searches().get(0).summary().probes().forEach(p -> probes.add(p.measured()));
      probes.removeIf(m -> m.latencyMs() == null || m.latencyMs().get(pct) == null);
      probes.sort(Comparator.comparingDouble(CapacityResult.Measured::rate));
      if (probes.isEmpty()) {
        continue;
      }
      double[] x = probes.stream().mapToDouble(CapacityResult.Measured::achieved).toArray();
      double[] y = probes.stream().mapToDouble(m -> m.latencyMs().get(pct)).toArray();
      maxX = Math.max(maxX, Arrays.stream(x).max().orElse(0));
      curves.add(new Charts.Curve(model.label(e.combination()), x, y));
    }
    if (curves.isEmpty()) {
      return;
    }
    double b = slo.latencyMs().get(pct);
    curves.add(
        new Charts.Curve(
            "objective " + pct + " < " + Slo.fmt(b) + " ms",
            new double[] {0, maxX},
            new double[] {b, b},
            null,
            true));
    String title = "Latency against throughput, " + key;
    figure(
        title,
        "Each point is a probe of the capacity search (the first repeat of each combination): the"
            + " rate it achieved and its "
            + pct
            + " latency after its warm-up, on a log scale. Where a line crosses the objective, the"
            + " combination's capacity ends."
            + (entries.size() > Page.MAX_LINES
                ? " Only the first " + Page.MAX_LINES + " combinations are drawn."
                : ""),
        logarithmic(Charts.lines(title, "achieved requests/s", pct + " ms (log scale)", curves)));
  }

  /** A probe past the capacity is seconds slow, one below it milliseconds: both must be seen. */
  private static XYChart logarithmic(XYChart c) {
    c.getStyler().setYAxisMin(null);
    c.getStyler().setYAxisLogarithmic(true);
    return c;
  }

  private void scaling(CapacityStudy.Scaling sc) {
    String name = RunModel.shortName(sc.param());
    String where = model.swept().size() > 1 ? " (" + sc.group() + ")" : "";
    html.append("<h3>")
        .append(Html.escape("Scalability over " + name + where + ", " + sc.key()))
        .append("</h3>\n");
    Usl.Fit f = sc.fit();
    if (!f.ok()) {
      for (String n : sc.notes()) {
        note(n + ".");
      }
      note("No fit of the universal scalability law: " + f.refused() + ".");
      return;
    }
    note(
        String.format(
            Locale.ROOT,
            "Gunther's universal scalability law, X(N) = \u03bb N / (1 + \u03c3 (N - 1) + \u03ba N"
                + " (N - 1)), fitted to every repeat's capacity: \u03bb = %s requests/s (one %s"
                + " alone), contention \u03c3 = %.4f, coherency \u03ba = %.5f; R\u00b2 = %.3f,"
                + " residuals %.1f %% (root mean square). %s",
            Slo.fmt(f.lambda()),
            name.endsWith("s") ? name.substring(0, name.length() - 1) : name,
            f.sigma(),
            f.kappa(),
            f.rSquared(),
            f.relativeRms() * 100,
            f.peakN() == null
                ? "No measurable coherency: the law has no peak, capacity grows towards \u03bb / \u03c3"
                    + (f.sigma() > 0 ? " = " + Slo.fmt(f.lambda() / f.sigma()) + " requests/s" : "")
                    + "."
                : String.format(
                    Locale.ROOT,
                    "Capacity peaks at %s = %.1f (%s requests/s); beyond it adding %s lowers"
                        + " capacity.",
                    name,
                    f.peakN(),
                    Slo.fmt(f.peakCapacity()),
                    name)));
    if (f.note() != null) {
      note("Note: " + f.note() + ".");
    }
    for (String n : sc.notes()) {
      note(n + ".");
    }
    Usl.Holdout h = sc.holdout();
    if (h != null && h.predicted() != null) {
      note(
          String.format(
              Locale.ROOT,
              "Held out: fitted without %s = %s, the law predicts %s requests/s there; %s was"
                  + " measured: a prediction error of %+.1f %%.",
              name,
              Slo.fmt(h.n()),
              Slo.fmt(h.predicted()),
              Slo.fmt(h.measured()),
              h.errorPct()));
    }
    Html.Table t = new Html.Table("usl", name, "measured (req/s)", "law (req/s)", "residual");
    for (int i = 0; i < f.n().length; i++) {
      t.row(
          Slo.fmt(f.n()[i]),
          Slo.fmt(f.measured()[i]),
          Slo.fmt(f.predicted()[i]),
          String.format(Locale.ROOT, "%+.1f %%", f.residualsPct()[i]));
    }
    html.append(t.render());
    double maxN = Arrays.stream(f.n()).max().orElse(1);
    double until = Math.max(maxN * 2, f.peakN() == null ? 0 : Math.min(f.peakN() * 1.5, maxN * 8));
    int points = 60;
    double[] lx = new double[points];
    double[] ly = new double[points];
    for (int i = 0; i < points; i++) {
      lx[i] = 1 + (until - 1) * i / (points - 1);
      ly[i] = f.at(lx[i]);
    }
    String title = "Capacity against " + name + where + ", " + sc.key();
    figure(
        title,
        "Points: each repeat's measured capacity. Dashed: the fitted law, drawn to twice the largest"
            + " measured "
            + name
            + " (or past its peak).",
        Charts.lines(
            title,
            name,
            "capacity, requests/s",
            List.of(
                new Charts.Curve("measured", f.n(), f.measured()),
                new Charts.Curve("universal scalability law", lx, ly, null, true))));
  }

  /** Every probe of every search. */
  private void probes(CapacityStudy s) {
    html.append("<h3>Every probe</h3>\n");
    Html.Table t =
        new Html.Table(
            "probes",
            "step",
            "combination",
            "repeat",
            "rate",
            "achieved",
            "requests",
            "p50 ms",
            "p99 ms",
            "p99.9 ms",
            "errors",
            "verdict");
    for (var e : s.entries.entrySet()) {
      for (CapacityStudy.Entry en : e.getValue()) {
        for (CapacityStudy.Search r : en.searches()) {
          for (CapacityResult.Probe p : r.summary().probes()) {
            CapacityResult.Measured m = p.measured();
            Map<String, Double> lat = m.latencyMs() == null ? Map.of() : m.latencyMs();
            t.row(
                e.getKey(),
                model.label(en.combination()),
                r.repeat(),
                Slo.fmt(m.rate()),
                Html.num(m.achieved()),
                m.count(),
                percentile(lat, "p50"),
                percentile(lat, "p99"),
                percentile(lat, "p99.9"),
                String.format(Locale.ROOT, "%.2f %%", m.errorRate() * 100),
                m.driverBound() != null
                    ? "driver-bound: " + m.driverBound()
                    : p.meets() ? "meets" : "fails: " + (p.why() == null ? "" : p.why()));
          }
        }
      }
    }
    html.append(t.render());
  }

  private static String percentile(Map<String, Double> latency, String p) {
    return latency.get(p) != null ? Html.num(latency.get(p)) : "";
  }
}
