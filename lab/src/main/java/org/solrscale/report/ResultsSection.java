package org.solrscale.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The report's section "Results": a table per bench step: every combination's mean over its
 * finished repeats, with the lowest and highest.
 */
final class ResultsSection extends Section {
  @Override
  String id() {
    return "results";
  }

  @Override
  String title() {
    return "Results";
  }

  @Override
  String nav() {
    return "results";
  }

  @Override
  void write() {
    for (String key : model.stepKeys()) {
      html.append("<h3>").append(Html.escape("Step " + key)).append("</h3>\n");
      boolean closed =
          model.combinations().stream()
              .flatMap(c -> model.benches(c.id(), key).stream())
              .anyMatch(b -> b.summary().msPer1000PerThread() != null);
      List<String> head =
          new ArrayList<>(
              List.of(
                  "id",
                  "combination",
                  "repeats",
                  "requests",
                  "achieved QPS",
                  "p50 ms",
                  "p99 ms",
                  "p99.9 ms",
                  "max ms",
                  "errors"));
      if (closed) {
        head.add("ms per 1000 per thread");
      }
      Html.Table t = new Html.Table("results", head.toArray(String[]::new));
      for (RunModel.Combination c : model.combinations()) {
        List<RunModel.Bench> b = model.benches(c.id(), key);
        if (b.isEmpty()) {
          continue;
        }
        List<String> row =
            new ArrayList<>(
                List.of(
                    Html.escape(c.id()),
                    Html.escape(model.label(c)),
                    b.size() + "/" + c.repeats().size(),
                    Html.num(
                        b.stream().mapToDouble(x -> x.summary().count()).average().orElse(0))));
        for (Metric m : Metric.BENCH) {
          row.add(spread(b.stream().mapToDouble(x -> m.of(x.summary())).toArray()));
        }
        if (closed) {
          row.add(
              spread(
                  b.stream()
                      .filter(x -> x.summary().msPer1000PerThread() != null)
                      .mapToDouble(x -> x.summary().msPer1000PerThread())
                      .toArray()));
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
    double mean = Arrays.stream(v).average().orElse(0);
    String s = Html.num(mean);
    double min = Arrays.stream(v).min().orElse(0);
    double max = Arrays.stream(v).max().orElse(0);
    if (v.length > 1 && min != max) {
      s +=
          " <small>"
              + Html.num(Arrays.stream(v).min().orElse(0))
              + "&ndash;"
              + Html.num(Arrays.stream(v).max().orElse(0))
              + "</small>";
    }
    return s;
  }
}
