package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.IntervalLog;
import org.solrscale.results.TimelineRow;

/** A number compare judges, read from a summary (per repeat) or per second (timeline, hlog). */
enum Metric {
  QPS("achieved QPS", "req/s", true),
  P50("p50", "ms", false),
  P99("p99", "ms", false),
  P999("p99.9", "ms", false),
  MAX("max", "ms", false),
  ERRORS("errors", "", false),
  /** An index step's documents per second (not a bench metric: see {@link #BENCH}). */
  DOCS("indexing", "docs/s", true);

  /** What compare judges of a bench step and the results table shows, in order. */
  static final List<Metric> BENCH = List.of(QPS, P50, P99, P999, MAX, ERRORS);

  final String label;
  final String unit;
  final boolean higherIsBetter;

  Metric(String label, String unit, boolean higherIsBetter) {
    this.label = label;
    this.unit = unit;
    this.higherIsBetter = higherIsBetter;
  }

  /** The whole measured phase's value. */
  double of(BenchSummary s) {
    return switch (this) {
      case QPS -> s.throughput() == null ? 0 : s.throughput().achieved();
      case P50 -> latency(s.latencyMs(), "p50");
      case P99 -> latency(s.latencyMs(), "p99");
      case P999 -> latency(s.latencyMs(), "p99.9");
      case MAX -> latency(s.latencyMs(), "max");
      case ERRORS -> s.errors() == null ? 0 : s.errors().total();
      case DOCS -> 0;
    };
  }

  private static double latency(Map<String, Double> m, String key) {
    return m == null || m.get(key) == null ? 0 : m.get(key);
  }

  /**
   * One value per measured second. The last second is left out when there are three or more (it is
   * usually cut short); seconds without a request have no latency.
   */
  double[] perSecond(List<TimelineRow> timeline, IntervalLog log) {
    List<Double> out = new ArrayList<>();
    if (this == P999) {
      List<IntervalLog.Entry> entries = log.tagged("latency");
      for (int i = 0; i < entries.size(); i++) {
        Histogram h = entries.get(i).histogram();
        if (h.getTotalCount() > 0 && !(i == entries.size() - 1 && entries.size() >= 3)) {
          out.add(h.getValueAtPercentile(99.9) / 1000.0);
        }
      }
      return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
    List<TimelineRow> rows =
        timeline.stream().filter(r -> !r.warmup() && r.seconds() >= Seconds.MIN_SECONDS).toList();
    if (rows.size() >= 3) {
      rows = rows.subList(0, rows.size() - 1);
    }
    for (TimelineRow r : rows) {
      switch (this) {
        case QPS -> out.add(r.qps());
        case ERRORS -> out.add((double) r.errors());
        case DOCS -> {}
        default -> {
          if (r.requests() > 0) {
            out.add(
                this == P50 ? r.latencyP50Ms() : this == P99 ? r.latencyP99Ms() : r.latencyMaxMs());
          }
        }
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
