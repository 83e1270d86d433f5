package org.solrscale.report;

import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.solrscale.results.BenchSummary;

/**
 * The report's section "Latency against rate": each staircase's latency and achieved rate against
 * its offered rates: where the knee is.
 */
final class KneeSection extends Section {
  @Override
  String id() {
    return "knee";
  }

  @Override
  String title() {
    return "Latency against rate";
  }

  @Override
  String nav() {
    return "latency against rate";
  }

  @Override
  boolean shown() {
    return model.stepKeys().stream()
        .flatMap(k -> model.combinations().stream().flatMap(c -> model.benches(c.id(), k).stream()))
        .anyMatch(b -> b.summary().steps() != null && !b.summary().steps().isEmpty());
  }

  /**
   * Each staircase's latency against its rates, where the knee shows: p50 and p99 of each step
   * (from the intended start) on the left axis, and the achieved rate against the offered one on
   * the right (where they part, the server stopped keeping up); a table of every step below.
   */
  @Override
  void write() {
    for (Page.Overlay o : overlays()) {
      for (var s : o.series()) {
        RunModel.Bench b = s.getValue().get(0);
        List<BenchSummary.Step> steps = b.summary().steps();
        if (steps == null || steps.isEmpty()) {
          continue;
        }
        double[] rate = steps.stream().mapToDouble(BenchSummary.Step::rate).toArray();
        BiFunction<String, String, double[]> latency =
            (m, k) ->
                steps.stream()
                    .mapToDouble(
                        st ->
                            "service".equals(m)
                                ? value(st.serviceTimeMs(), k)
                                : value(st.latencyMs(), k))
                    .toArray();
        String title = "Latency against rate: " + s.getKey() + ", " + o.title();
        figure(
            title,
            "One point per step of the staircase, first repeat: latency from each request's "
                + "intended start (left axis); achieved against offered rate (right axis, dashed): where they "
                + "part, the server no longer kept up.",
            Charts.twoAxes(
                title,
                "offered rate (requests/s)",
                "latency (ms)",
                "requests/s",
                List.of(
                    new Charts.Curve("p50", rate, latency.apply("latency", "p50")),
                    new Charts.Curve("p99", rate, latency.apply("latency", "p99")),
                    new Charts.Curve("p99.9", rate, latency.apply("latency", "p99.9"))),
                List.of(
                    new Charts.Curve(
                        "achieved",
                        rate,
                        steps.stream().mapToDouble(BenchSummary.Step::achieved).toArray()),
                    new Charts.Curve("offered", rate, rate))));
        Html.Table t =
            new Html.Table(
                "stairs",
                "rate /s",
                "achieved /s",
                "seconds",
                "p50 ms",
                "p99 ms",
                "p99.9 ms",
                "service p99 ms",
                "errors",
                "driver CPU",
                "bottleneck");
        for (BenchSummary.Step st : steps) {
          t.row(
              Html.num(st.rate()),
              Html.num(st.achieved()),
              Html.num(st.seconds()),
              Html.num(value(st.latencyMs(), "p50")),
              Html.num(value(st.latencyMs(), "p99")),
              Html.num(value(st.latencyMs(), "p99.9")),
              Html.num(value(st.serviceTimeMs(), "p99")),
              st.errors() == null ? "" : st.errors(),
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
}
