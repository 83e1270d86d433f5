package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.solrscale.results.ReplayCheck;
import org.solrscale.results.TimelineRow;

/**
 * The report's section "Replay": for each replay of a log, the answer check (equal hits, how far
 * the others differ, the ten that differ most), latency against the logged QTime (a scatter chart
 * and the requests slower than the factor), and the offered rate over time against the achieved.
 */
final class ReplaySection extends Section {
  @Override
  String id() {
    return "replay";
  }

  @Override
  String title() {
    return "Replay";
  }

  @Override
  String nav() {
    return "replay";
  }

  @Override
  boolean shown() {
    for (String key : model.stepKeys()) {
      for (RunModel.Combination c : model.combinations()) {
        if (model.benches(c.id(), key).stream().anyMatch(b -> b.summary().replay() != null)) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  void write() {
    for (String key : model.stepKeys()) {
      Html.Table check =
          new Html.Table(
              "replay-check",
              "combination",
              "log",
              "speed",
              "scheduled",
              "answered",
              "failed",
              "checked",
              "equal hits",
              "differ",
              "verdict");
      List<RunModel.Bench> replays = new ArrayList<>();
      for (RunModel.Combination c : model.combinations()) {
        for (RunModel.Bench b : model.benches(c.id(), key)) {
          ReplayCheck r = b.summary().replay();
          if (r == null) {
            continue;
          }
          if (b.repeat() == model.benches(c.id(), key).get(0).repeat()) {
            replays.add(b);
          }
          check.row(
              model.label(c) + " r" + b.repeat(),
              r.file(),
              num(r.speed()) + "x",
              r.scheduled(),
              r.answered(),
              r.failed(),
              r.checked(),
              String.format(Locale.ROOT, "%.2f %%", r.equalShare() * 100),
              r.checked() - r.equal(),
              r.flagged()
                  ? "FLAGGED: the lab's index does not answer like production's"
                  : r.checked() == 0 ? "nothing to check" : "answers as production did");
        }
      }
      if (replays.isEmpty()) {
        continue;
      }
      html.append("<h3>")
          .append(Html.escape("Step " + key + ": the answer check"))
          .append("</h3>\n");
      html.append(
          "<p>Each request's first answer here against the hits its log line says production"
              + " returned. More than 1 % differing flags the replay: its latencies then describe"
              + " another index.</p>\n");
      html.append(check.render());
      for (RunModel.Bench b : replays) {
        write(key, b);
      }
    }
  }

  private void write(String key, RunModel.Bench b) {
    ReplayCheck r = b.summary().replay();
    String who = b.combination() + " r" + b.repeat() + " " + key;
    if (!r.mostDifferent().isEmpty()) {
      Html.Table t =
          new Html.Table("replay-differ", "log line", "kind", "logged hits", "hits here", "params");
      for (ReplayCheck.Differing d : r.mostDifferent()) {
        t.row(d.source(), d.kind(), d.logged(), d.replayed(), d.params());
      }
      StringBuilder by = new StringBuilder();
      r.differences()
          .forEach(
              (k, v) -> {
                if (v > 0) {
                  by.append(by.length() > 0 ? ", " : "").append(k).append(": ").append(v);
                }
              });
      html.append("<h4>")
          .append(Html.escape(who + ": the requests that differ most"))
          .append("</h4>\n<p>")
          .append(Html.escape("By how far, as a share of the logged hits: " + by + "."))
          .append("</p>\n")
          .append(t.render());
    }
    if (!r.scatter().isEmpty()) {
      double[] x = r.scatter().stream().mapToDouble(p -> p[0]).toArray();
      double[] y = r.scatter().stream().mapToDouble(p -> p[1]).toArray();
      String title = "Latency here against logged QTime (" + who + ")";
      figure(
          title,
          String.format(
              Locale.ROOT,
              "One point per request (%,d of %,d with a QTime). QTime is Solr's own time: it leaves"
                  + " out the network, Jetty's queue and writing the response, so points sit above"
                  + " the diagonal even when nothing is wrong. %,d requests took more than %sx"
                  + " their QTime here.",
              r.scatter().size(),
              r.withQtime(),
              r.slower(),
              num(r.slowerFactor())),
          Charts.scatter(title, "logged QTime (ms)", "latency here (ms)", "requests", x, y));
    }
    if (!r.slowest().isEmpty()) {
      Html.Table t =
          new Html.Table(
              "replay-slower", "log line", "kind", "QTime ms", "here ms", "ratio", "params");
      for (ReplayCheck.Slower w : r.slowest()) {
        t.row(
            w.source(),
            w.kind(),
            w.qtimeMs(),
            Html.num(w.latencyMs()),
            Html.num(w.latencyMs() / Math.max(1, w.qtimeMs())),
            w.params());
      }
      html.append("<h4>")
          .append(
              Html.escape(
                  who + ": slower here than " + num(r.slowerFactor()) + "x their QTime (worst 10)"))
          .append("</h4>\n")
          .append(t.render());
    }
    List<Integer> offered = r.offeredPerSecond();
    List<TimelineRow> timeline = b.timeline();
    if (offered != null && !offered.isEmpty() && !timeline.isEmpty()) {
      double[] ox = new double[offered.size()];
      double[] oy = new double[offered.size()];
      for (int i = 0; i < offered.size(); i++) {
        ox[i] = i;
        oy[i] = offered.get(i);
      }
      double[] ax = timeline.stream().mapToDouble(TimelineRow::second).toArray();
      double[] ay = timeline.stream().mapToDouble(TimelineRow::qps).toArray();
      String title = "Offered and achieved rate (" + who + ")";
      figure(
          title,
          "Offered: the log's requests due in each second of the replay (first pass). Achieved:"
              + " requests completed in each second (timeline.csv).",
          Charts.lines(
              title,
              "second",
              "requests/s",
              List.of(
                  new Charts.Curve("offered (the log)", ox, oy),
                  new Charts.Curve("achieved", ax, ay, null, true))));
    }
  }

  private static String num(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
