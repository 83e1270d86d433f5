package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.solrscale.results.TelemetrySample;
import org.solrscale.results.TimelineRow;

/**
 * The report's section "Over time": latency and throughput per second of every bench step, with the
 * server's CPU and heap beside it.
 */
final class TimelinesSection extends Section {
  @Override
  String id() {
    return "timelines";
  }

  @Override
  String title() {
    return "Over time";
  }

  @Override
  String nav() {
    return "over time";
  }

  @Override
  void write() {
    boolean any = false;
    boolean fold = model.combinations().size() > 4;
    List<RunModel.Combination> drawn =
        model.combinations().size() > Page.MAX_LINES
            ? model.combinations().subList(0, Page.MAX_LINES)
            : model.combinations();
    if (drawn.size() < model.combinations().size()) {
      note(
          "Over-time charts of the first "
              + drawn.size()
              + " of "
              + model.combinations().size()
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
          // the measured time starts with the first measured second from the warm-up's last on
          // (older runs wrote an empty second inside the warm-up as measured)
          double last = w.get(w.size() - 1).second();
          double end =
              rows.stream()
                  .filter(r -> !r.warmup() && r.second() >= last)
                  .mapToDouble(TimelineRow::second)
                  .min()
                  .orElse(last + 1);
          warm = new double[] {w.get(0).second(), Math.max(end, w.get(0).second() + 0.5)};
        }
        String title = "Over time: " + model.label(c) + ", " + key;
        List<Charts.Shade> shades = faultShades(model.run().stepDir(b.get(0).step()));
        figure(
            title,
            "First repeat"
                + (b.size() > 1 ? " of " + b.size() : "")
                + "; latency percentiles per second (left axis) and throughput (right axis); a last part-second is left out"
                + (warm == null ? "." : "; the warm-up is shaded grey.")
                + (shades.isEmpty()
                    ? ""
                    : " Faults are shaded red, from injection until recovered."),
            Charts.timeline(
                title,
                rows.stream().mapToDouble(TimelineRow::second).toArray(),
                rows.stream().mapToDouble(TimelineRow::latencyP50Ms).toArray(),
                rows.stream().mapToDouble(TimelineRow::latencyP99Ms).toArray(),
                rows.stream().mapToDouble(TimelineRow::qps).toArray(),
                warm,
                shades));
        any = true;
        serverOverTime(c, key, b.get(0));
      }
      if (fold && html.length() > start) {
        before
            .append("<details")
            .append(c == model.combinations().get(0) ? " open" : "")
            .append("><summary>")
            .append(Html.escape(c.id() + ": " + model.label(c)))
            .append("</summary>\n");
        html.insert(start, before);
        html.append("</details>\n");
      }
    }
    if (!any) {
      note("No timeline.csv in this run.");
    }
  }

  /** CPU and heap of every node while the step ran, from its telemetry.csv. */
  private void serverOverTime(RunModel.Combination c, String key, RunModel.Bench b) {
    List<TelemetrySample> samples = model.run().telemetry(b.step());
    Map<String, List<TelemetrySample>> cpu = new TreeMap<>();
    Map<String, List<TelemetrySample>> heap = new TreeMap<>();
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
    cpu.forEach(
        (node, t) ->
            left.add(
                new Charts.Curve(
                    node + " CPU %",
                    t.stream().mapToDouble(TelemetrySample::second).toArray(),
                    t.stream().mapToDouble(x -> x.value() * 100).toArray())));
    List<Charts.Curve> right = new ArrayList<>();
    heap.forEach(
        (node, t) ->
            right.add(
                new Charts.Curve(
                    node + " heap MB",
                    t.stream().mapToDouble(TelemetrySample::second).toArray(),
                    t.stream().mapToDouble(x -> x.value() / 1e6).toArray())));
    String title = "Server: " + model.label(c) + ", " + key;
    figure(
        title,
        "Telemetry of the same repeat: process CPU of each Solr node (solid, left axis, "
            + "percent of the machine) and heap used (dashed, right axis), seconds since the step began.",
        Charts.twoAxes(title, "seconds since start", "CPU (%)", "heap used (MB)", left, right));
  }
}
