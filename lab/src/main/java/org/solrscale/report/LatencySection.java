package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.solrscale.results.BenchSummary;

/**
 * The report's section "Latency distribution": the latency distribution by percentile, from every
 * repeat's latency.hlog merged.
 */
final class LatencySection extends Section {
  @Override
  String id() {
    return "latency";
  }

  @Override
  String title() {
    return "Latency distribution";
  }

  @Override
  String nav() {
    return "latency";
  }

  @Override
  void write() {
    boolean any = false;
    for (Page.Overlay o : overlays()) {
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
        Charts.Curve c =
            merged != null && merged.getTotalCount() > 0
                ? percentiles(s.getKey(), merged)
                : summaryPercentiles(s.getKey(), s.getValue().get(0).summary());
        fromLog &= merged != null;
        if (c != null) {
          curves.add(c);
        }
      }
      if (!curves.isEmpty()) {
        any = true;
        figure(
            "Latency by percentile (" + o.title() + ")",
            fromLog
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
      points.add(
          new double[] {
            Charts.percentileX(v.getPercentileLevelIteratedTo()),
            h.highestEquivalentValue(v.getValueIteratedTo()) / 1000.0
          });
    }
    points.add(
        new double[] {
          Charts.percentileX(100 * (1 - 1.0 / Math.max(2, h.getTotalCount()))),
          h.getMaxValue() / 1000.0
        });
    return new Charts.Curve(
        label,
        points.stream().mapToDouble(p -> p[0]).toArray(),
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
    return points.isEmpty()
        ? null
        : new Charts.Curve(
            label,
            points.stream().mapToDouble(p -> p[0]).toArray(),
            points.stream().mapToDouble(p -> p[1]).toArray());
  }
}
