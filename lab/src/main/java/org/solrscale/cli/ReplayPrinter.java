package org.solrscale.cli;

import java.util.Locale;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.ReplayCheck;

/** Prints a replay's answer check and its latency against the logged QTime. */
final class ReplayPrinter {
  private ReplayPrinter() {}

  static void print(BenchSummary s) {
    ReplayCheck r = s.replay();
    System.out.printf(
        Locale.ROOT,
        "replay of %s at %sx%s%s: %,d of %,d scheduled requests answered (%,d failed); the log's"
            + " %.1f s took %.1f s%n",
        r.file(),
        num(r.speed()),
        r.maxGapSeconds() == null ? "" : ", gaps cut to " + num(r.maxGapSeconds()) + " s",
        r.loop() ? ", looped" : "",
        r.answered(),
        r.scheduled(),
        r.failed(),
        r.logSeconds(),
        r.scheduleSeconds());
    if (r.checked() == 0) {
      System.out.println(
          "answer check: no request had logged hits and an answer with numFound to compare");
    } else if (r.flagged()) {
      System.out.printf(
          Locale.ROOT,
          "answer check: FLAGGED: %,d of %,d requests (%.1f %%) got other hits than production:"
              + " the lab's index does not answer like production's%n",
          r.checked() - r.equal(),
          r.checked(),
          100 * r.differingShare());
    } else {
      System.out.printf(
          Locale.ROOT,
          "answer check: %,d of %,d requests with logged hits got the same hits (%.2f %%)%n",
          r.equal(),
          r.checked(),
          100 * r.equalShare());
    }
    if (r.checked() > r.equal()) {
      StringBuilder sb = new StringBuilder();
      r.differences()
          .forEach(
              (k, v) -> {
                if (v > 0) {
                  sb.append(sb.length() > 0 ? ", " : "").append(k).append(": ").append(v);
                }
              });
      System.out.println("  by how far (share of the logged hits): " + sb);
      for (ReplayCheck.Differing d : r.mostDifferent()) {
        System.out.printf(
            Locale.ROOT,
            "  %s %s: logged %,d hits, here %,d  (%s)%n",
            d.source(),
            d.kind(),
            d.logged(),
            d.replayed(),
            abbreviate(d.params()));
      }
    }
    if (r.withQtime() > 0) {
      System.out.printf(
          Locale.ROOT,
          "against the logged QTime (Solr's own time: no network, no queueing): %,d of %,d"
              + " requests took more than %sx it here%n",
          r.slower(),
          r.withQtime(),
          num(r.slowerFactor()));
      r.slowest().stream()
          .limit(3)
          .forEach(
              w ->
                  System.out.printf(
                      Locale.ROOT,
                      "  %s %s: QTime %d ms, here %.1f ms  (%s)%n",
                      w.source(),
                      w.kind(),
                      w.qtimeMs(),
                      w.latencyMs(),
                      abbreviate(w.params())));
    }
    if (s.templates() != null && s.templates().size() > 1) {
      System.out.println("by kind (collection handler): count, p50 ms, p99 ms");
      s.templates().stream()
          .limit(10)
          .forEach(
              t ->
                  System.out.printf(
                      Locale.ROOT,
                      "  %-30s %,8d %8.2f %8.2f%n",
                      t.template(),
                      t.count(),
                      t.p50(),
                      t.p99()));
    }
  }

  private static String num(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  private static String abbreviate(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}
