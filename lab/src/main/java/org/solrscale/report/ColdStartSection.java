package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.solrscale.results.TimelineRow;

/**
 * The report's section "Cold start": a closed loop's time per 1000 requests as the run went on: a
 * cold cache shows as a high start that falls.
 */
final class ColdStartSection extends Section {
  @Override
  String id() {
    return "cold-start";
  }

  @Override
  String title() {
    return "Cold start";
  }

  @Override
  String nav() {
    return "cold start";
  }

  @Override
  void write() {
    boolean any = false;
    for (Page.Overlay o : overlays()) {
      List<Charts.Curve> curves = new ArrayList<>();
      List<String> settled = new ArrayList<>();
      boolean perThread = true;
      for (var s : o.series()) {
        RunModel.Bench b = s.getValue().get(0);
        perThread &= b.threads() != null;
      }
      for (var s : o.series()) {
        RunModel.Bench b = s.getValue().get(0);
        if (!"closed".equals(b.summary().loadModel())) {
          continue;
        }
        List<TimelineRow> rows = Seconds.of(b.timeline());
        List<double[]> points = new ArrayList<>();
        long done = 0;
        for (TimelineRow r : rows) {
          done += r.requests();
          if (r.qps() > 0) {
            double per1000 = 1000 / r.qps() * (perThread ? b.threads() : 1);
            points.add(new double[] {done, per1000});
          }
        }
        Settling st = Settling.of(points);
        if (st != null) {
          settled.add(settling(s.getKey(), st, done, perThread ? b.threads() : 1, perThread));
        }
        if (points.size() >= 2) {
          curves.add(
              new Charts.Curve(
                  s.getKey(),
                  points.stream().mapToDouble(p -> p[0]).toArray(),
                  points.stream().mapToDouble(p -> p[1]).toArray()));
        }
      }
      if (!curves.isEmpty()) {
        any = true;
        String title = "Cold start (" + o.title() + ")";
        figure(
            title,
            "Closed loop, first repeat, warm-up included: each point is one second (the second "
                + "the warm-up ended in counted whole; a last part-second left out). "
                + "A cold cache shows as a high start that falls."
                + o.more(),
            Charts.lines(
                title,
                "requests done",
                perThread ? "seconds per 1000 requests per thread" : "seconds per 1000 requests",
                curves));
        settled.forEach(this::note);
      }
    }
    if (any) {
      note(
          "Settled: the first second from which every 5-second median of the time per 1000"
              + " requests stays within 20 % of the level of the run's last quarter.");
    }
    if (!any) {
      note("No closed-loop bench step with a timeline: the cold-start curve needs one.");
    }
  }

  static String settling(String series, Settling st, long total, int threads, boolean perThread) {
    String unit = perThread ? " s per 1000 requests per thread" : " s per 1000 requests";
    if (!st.settled()) {
      return String.format(
          Locale.ROOT,
          "%s: did not settle within its %,d requests: %.2f%s at first, still above %.0f %% of"
              + " the last quarter's %.2f before it.",
          series,
          total,
          st.firstPer1000(),
          unit,
          Settling.WITHIN * 100,
          st.level());
    }
    return String.format(
        Locale.ROOT,
        "%s: settled after %,d requests (%,d per thread, %.0f s): %.2f%s at first, %.2f settled.",
        series,
        st.requests(),
        st.requests() / Math.max(1, threads),
        st.seconds(),
        st.firstPer1000(),
        unit,
        st.level());
  }
}
