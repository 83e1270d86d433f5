package org.solrscale.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.solrscale.results.BenchSummary;

/**
 * A staircase's steps as a table: each rate's achieved rate, latency, errors and driver verdict.
 */
final class StaircaseTable {
  private StaircaseTable() {}

  static String render(List<BenchSummary.Step> steps) {
    Table t =
        new Table(
            "STEP /s",
            "ACHIEVED /s",
            "SECONDS",
            "p50 ms",
            "p99 ms",
            "p99.9 ms",
            "service p99 ms",
            "ERRORS",
            "DRIVER CPU",
            "BOTTLENECK");
    for (BenchSummary.Step s : steps) {
      t.row(
          num(s.rate()),
          String.format(Locale.ROOT, "%.1f", s.achieved()),
          String.format(Locale.ROOT, "%.1f", s.seconds()),
          ms(s.latencyMs(), "p50"),
          ms(s.latencyMs(), "p99"),
          ms(s.latencyMs(), "p99.9"),
          ms(s.serviceTimeMs(), "p99"),
          s.errors() == null ? "" : s.errors(),
          s.driverCpuPercent() == null ? "" : Math.round(s.driverCpuPercent()) + "%",
          s.bottleneck() == null ? "" : s.bottleneck().replaceFirst(":.*", ""));
    }
    return t.render();
  }

  private static String num(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  private static String ms(Map<String, Double> m, String key) {
    return m == null || m.get(key) == null ? "" : String.format(Locale.ROOT, "%.2f", m.get(key));
  }
}
