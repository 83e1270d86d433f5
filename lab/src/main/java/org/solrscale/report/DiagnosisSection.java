package org.solrscale.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.Diagnosis;
import org.solrscale.results.StepResult;
import org.solrscale.results.TimelineRow;

/**
 * The report's section "Diagnosis": for every profiled step of each combination's first repeat, the
 * lock each node waited on most, allocation, GC and the hottest method side by side; then per step
 * its findings, allocation and waiting over time (beside throughput for a bench step), the locks
 * and hot methods, and links to the flame graphs.
 */
final class DiagnosisSection extends Section {
  private static final int ROWS = 5;

  @Override
  String id() {
    return "diagnosis";
  }

  @Override
  String title() {
    return "Diagnosis";
  }

  @Override
  String nav() {
    return "diagnosis";
  }

  @Override
  boolean shown() {
    return !profiled().isEmpty();
  }

  private record Profiled(RunModel.Combination combination, StepResult step, Diagnosis d) {}

  private List<Profiled> profiled() {
    List<Profiled> out = new ArrayList<>();
    for (RunModel.Combination c : model.combinations()) {
      Optional<CombinationRun> first =
          c.repeats().stream().filter(CombinationRun::done).findFirst();
      if (first.isEmpty()) {
        continue;
      }
      for (StepResult s : first.get().steps()) {
        Path dir = model.run().stepDir(s);
        if (dir != null) {
          Diagnosis.read(dir).ifPresent(d -> out.add(new Profiled(c, s, d)));
        }
      }
    }
    return out;
  }

  @Override
  void write() {
    List<Profiled> all = profiled();
    Html.Table t =
        new Html.Table(
            "diagnosis",
            "combination",
            "step",
            "node",
            "lock waited on most",
            "share of waiting threads' time",
            "allocation MB/s (mean)",
            "GC pauses ms",
            "hottest method");
    for (Profiled p : all) {
      for (Diagnosis.Node n : p.d().nodes()) {
        Diagnosis.Lock top = n.locks().isEmpty() ? null : n.locks().get(0);
        t.row(
            model.label(p.combination()),
            p.step().label(),
            n.node(),
            top == null ? "none over " + p.d().lockThresholdMs() + " ms" : top.label(),
            top == null ? "" : percent(top.share()),
            Html.num(n.meanAllocationMbPerSecond()),
            Html.num(n.gcPauseMs()),
            n.hotMethods().isEmpty()
                ? ""
                : n.hotMethods().get(0).method()
                    + " ("
                    + percent(n.hotMethods().get(0).selfPercent() / 100)
                    + ")");
      }
    }
    html.append(t.render());
    note(
        "Each profiled step of the first repeat, per Solr node, from its Java Flight Recorder"
            + " recording: the lock (monitor or java.util.concurrent lock, where it was taken) its"
            + " threads waited on longest and the share of those threads' time spent waiting on"
            + " it; the mean allocation rate; the time paused for GC; the method most CPU samples"
            + " were in. Waits shorter than the recording's threshold are not counted.");
    for (Profiled p : all) {
      step(p);
    }
  }

  private void step(Profiled p) {
    String title = model.label(p.combination()) + ", " + p.step().label();
    html.append("<h3>").append(Html.escape(title)).append("</h3>\n<ul class=\"findings\">");
    p.d().findings().forEach(f -> html.append("<li>").append(Html.escape(f)).append("</li>"));
    html.append("</ul>\n");
    Path stepDir = model.run().stepDir(p.step());
    StringBuilder links = new StringBuilder("<p>Flame graphs (CPU): ");
    for (Diagnosis.Node n : p.d().nodes()) {
      String href = model.run().path().relativize(stepDir.resolve(n.flameGraph())).toString();
      links
          .append("<a href=\"")
          .append(Html.escape(href))
          .append("\">")
          .append(Html.escape(n.node()))
          .append("</a> ");
    }
    html.append(links)
        .append("; recordings: ")
        .append(Html.escape(Diagnosis.FILE))
        .append(" and NODE.jfr beside it (open with JDK Mission Control or jfr print).</p>\n");
    charts(p, title);
    Html.Table locks =
        new Html.Table(
            "locks", "node", "lock", "from", "waited s", "waits", "threads", "share", "stack");
    Html.Table hot = new Html.Table("hot", "node", "method", "self %", "total %");
    for (Diagnosis.Node n : p.d().nodes()) {
      n.locks().stream()
          .limit(ROWS)
          .forEach(
              l ->
                  locks.row(
                      n.node(),
                      l.label(),
                      l.from(),
                      Html.num(l.waitMs() / 1000),
                      l.waits(),
                      l.threads(),
                      percent(l.share()),
                      String.join(" < ", l.stack().subList(0, Math.min(6, l.stack().size())))));
      n.hotMethods().stream()
          .limit(ROWS)
          .forEach(
              m ->
                  hot.row(
                      n.node(), m.method(), Html.num(m.selfPercent()), Html.num(m.totalPercent())));
    }
    if (!locks.isEmpty()) {
      html.append(locks.render());
    }
    if (!hot.isEmpty()) {
      html.append(hot.render());
    }
  }

  /** Allocation (and throughput) over time; waiting on the top lock and GC pauses over time. */
  private void charts(Profiled p, String title) {
    List<Charts.Curve> alloc = new ArrayList<>();
    List<Charts.Curve> waits = new ArrayList<>();
    List<Charts.Curve> gc = new ArrayList<>();
    for (Diagnosis.Node n : p.d().nodes()) {
      List<Double> a = n.allocationMbPerSecond();
      alloc.add(new Charts.Curve(n.node() + " allocation", seconds(a.size()), array(a)));
      if (!n.locks().isEmpty()) {
        Diagnosis.Lock l = n.locks().get(0);
        double[] y = array(l.waitMsPerSecond());
        for (int i = 0; i < y.length; i++) {
          y[i] /= 1000; // threads waiting, on average over the second
        }
        waits.add(
            new Charts.Curve(n.node() + " " + Diagnosis.simple(l.lock()), seconds(y.length), y));
      }
      double[] pause = new double[(int) Math.ceil(p.d().seconds()) + 1];
      for (Diagnosis.Pause g : n.gcPauses()) {
        int s = (int) Math.floor(g.t());
        if (s >= 0 && s < pause.length) {
          pause[s] += g.ms();
        }
      }
      gc.add(new Charts.Curve(n.node() + " GC pause", seconds(pause.length), pause));
    }
    List<Charts.Curve> throughput = new ArrayList<>();
    List<TimelineRow> rows = model.run().timeline(p.step());
    if (!rows.isEmpty()) {
      List<TimelineRow> whole = Seconds.of(rows);
      throughput.add(
          new Charts.Curve(
              "throughput",
              whole.stream().mapToDouble(TimelineRow::second).toArray(),
              whole.stream().mapToDouble(TimelineRow::qps).toArray()));
    }
    figure(
        "Allocation: " + title,
        "MB allocated per second on each node (allocation samples' weights)"
            + (throughput.isEmpty()
                ? ""
                : "; throughput in requests per second, dashed, right axis")
            + "; seconds since the recordings began, just before the step's load.",
        Charts.twoAxes("Allocation: " + title, "seconds", "MB/s", "requests/s", alloc, throughput));
    figure(
        "Waiting and GC: " + title,
        "Threads waiting on each node's most contended lock, on average over each second (left"
            + " axis); milliseconds paused for GC in each second (dashed, right axis).",
        Charts.twoAxes(
            "Waiting and GC: " + title, "seconds", "threads waiting", "GC pause ms", waits, gc));
  }

  private static double[] seconds(int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i;
    }
    return x;
  }

  private static double[] array(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.0f %%", 100 * share);
  }
}
