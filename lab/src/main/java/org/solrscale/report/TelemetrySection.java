package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.StepResult;

/**
 * The report's section "Server telemetry": per node while each step of the first repeat ran: CPU,
 * heap, garbage collection, requests, cache hit ratios; ZooKeeper latency.
 */
final class TelemetrySection extends Section {
  @Override
  String id() {
    return "telemetry";
  }

  @Override
  String title() {
    return "Server telemetry";
  }

  @Override
  String nav() {
    return "telemetry";
  }

  @Override
  void write() {
    List<String> metrics = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    for (RunModel.Combination c : model.combinations()) {
      CombinationRun first =
          c.repeats().stream().filter(CombinationRun::done).findFirst().orElse(null);
      if (first == null) {
        continue;
      }
      for (StepResult s : first.steps()) {
        if (s.telemetry() == null) {
          continue;
        }
        s.telemetry()
            .forEach(
                (node, m) -> {
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
        cells.add(
            v == null
                ? ""
                : k.endsWith("ratio")
                    ? String.format(Locale.ROOT, "%.1f %%", v * 100)
                    : Html.num(v));
      }
      t.row(cells.toArray());
    }
    html.append(t.render());
    note(
        "Per node while each step of the first repeat ran: mean CPU (percent of the machine), largest heap "
            + "used, garbage collections and their milliseconds, /select requests per second, cache hit ratios; "
            + "ZooKeeper: mean and largest latency, largest number of outstanding requests, seconds it did "
            + "not serve (electing or not answering, from the share of samples), the share of samples it led, "
            + "how often it became the leader, and its fewest synced followers while it led. CPU and heap "
            + "over time are charted beside each timeline.");
  }
}
