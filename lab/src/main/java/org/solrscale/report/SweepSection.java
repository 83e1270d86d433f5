package org.solrscale.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;

/**
 * The report's section "Metrics against the swept parameters": for a sweep: p50, p99, achieved QPS
 * (and a closed loop's time per 1000 requests per thread) against each swept parameter.
 */
final class SweepSection extends Section {
  @Override
  String id() {
    return "sweep";
  }

  @Override
  String title() {
    return "Metrics against the swept parameters";
  }

  @Override
  String nav() {
    return "sweeps";
  }

  @Override
  boolean shown() {
    return model.combinations().size() > 1 && !model.swept().isEmpty();
  }

  @Override
  void write() {
    for (String key : model.stepKeys()) {
      List<RunModel.Combination> combos =
          model.combinations().stream().filter(c -> !model.benches(c.id(), key).isEmpty()).toList();
      boolean closed =
          combos.stream()
              .flatMap(c -> model.benches(c.id(), key).stream())
              .allMatch(b -> b.summary().msPer1000PerThread() != null);
      for (String param : model.swept()) {
        sweepChart(
            key,
            param,
            combos,
            "achieved QPS",
            "requests per second",
            b -> Metric.QPS.of(b.summary()));
        sweepChart(key, param, combos, "p50 latency", "ms", b -> Metric.P50.of(b.summary()));
        sweepChart(key, param, combos, "p99 latency", "ms", b -> Metric.P99.of(b.summary()));
        if (closed) {
          sweepChart(
              key,
              param,
              combos,
              "time per 1000 requests per thread",
              "ms",
              b -> b.summary().msPer1000PerThread());
        }
      }
    }
  }

  private void sweepChart(
      String key,
      String param,
      List<RunModel.Combination> combos,
      String metric,
      String unit,
      ToDoubleFunction<RunModel.Bench> value) {
    List<RunModel.Combination> sorted = new ArrayList<>(combos);
    sorted.sort(Report.byParam(param, combos));
    List<String> values =
        sorted.stream().map(c -> String.valueOf(c.params().get(param))).distinct().toList();
    boolean numeric = values.stream().allMatch(v -> Report.number(v) != null);
    String fixed = "";
    if (sorted.stream().map(c -> model.labelWithout(c, param)).distinct().count() > 8) {
      // too many lines: one line per value of the other parameter with the most values, the
      // rest fixed at their first value
      List<String> others = model.swept().stream().filter(q -> !q.equals(param)).toList();
      String line =
          others.stream()
              .max(
                  Comparator.comparingLong(
                      q ->
                          combos.stream()
                              .map(c -> String.valueOf(c.params().get(q)))
                              .distinct()
                              .count()))
              .orElseThrow();
      List<String> at = new ArrayList<>();
      for (String q : others) {
        if (!q.equals(line)) {
          Object first =
              combos.stream()
                  .sorted(Report.byParam(q, combos))
                  .findFirst()
                  .orElseThrow()
                  .params()
                  .get(q);
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
        x[i] = numeric ? Report.number(v) : values.indexOf(v);
        double[] r = model.benches(c.id(), key).stream().mapToDouble(value).toArray();
        y[i] = Arrays.stream(r).average().orElse(0);
        for (double ri : r) {
          err[i] = Math.max(err[i], Math.abs(ri - y[i]));
        }
      }
      curves.add(new Charts.Curve(line.getKey(), x, y, err, false));
    }
    String p = RunModel.shortName(param);
    String title = metric + " against " + p + " (" + key + ")";
    XYChart chart =
        numeric
            ? Charts.lines(title, p, unit, curves)
            : Charts.categories(title, p, unit, values, curves);
    figure(
        title,
        "One line per value of the other swept parameters; points are the mean of the "
            + "repeats, bars reach the lowest and highest repeat."
            + fixed,
        chart);
  }
}
