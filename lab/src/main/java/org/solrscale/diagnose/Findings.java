package org.solrscale.diagnose;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.solrscale.results.Diagnosis;

/**
 * The findings of a profiled step, one line each, computed from its nodes' figures: the lock each
 * node's threads waited on most (when it cost them a noticeable share of their time), GC pauses,
 * allocation rate (with the GC log's agreement) and the hottest method.
 */
public final class Findings {
  /** A lock is named when the threads that waited on it lost at least this share of their time. */
  public static final double LOCK_SHARE = 0.05;

  private Findings() {}

  public static List<String> of(List<Diagnosis.Node> nodes, double seconds) {
    List<String> out = new ArrayList<>();
    for (Diagnosis.Node n : nodes) {
      n.locks().stream()
          .max(Comparator.comparingDouble(Diagnosis.Lock::waitMs))
          .filter(l -> l.share() >= LOCK_SHARE)
          .ifPresent(l -> out.add(lock(n.node(), l)));
    }
    for (Diagnosis.Node n : nodes) {
      if (!n.gcPauses().isEmpty()) {
        double longest = n.gcPauses().stream().mapToDouble(Diagnosis.Pause::ms).max().orElse(0);
        out.add(
            String.format(
                Locale.ROOT,
                "%s paused for garbage collection %d times, %.0f ms in all (%.1f %% of the step),"
                    + " longest %.0f ms",
                n.node(),
                n.gcPauses().size(),
                n.gcPauseMs(),
                100 * n.gcPauseMs() / 1000 / Math.max(seconds, 1e-9),
                longest));
      }
    }
    for (Diagnosis.Node n : nodes) {
      Diagnosis.AllocationCheck c = n.gcLogCheck();
      out.add(
          String.format(
                  Locale.ROOT,
                  "%s allocated %,.0f MB/s on average, %,.0f MB/s at peak",
                  n.node(),
                  n.meanAllocationMbPerSecond(),
                  n.peakAllocationMbPerSecond())
              + (c == null
                  ? " (too few collections, or too little between them, to check against the GC log)"
                  : String.format(
                      Locale.ROOT,
                      "; over %d collections the GC log says %,.0f MB, the recording %,.0f MB"
                          + " (%+.0f %%)",
                      c.collections(),
                      c.gcLogMb(),
                      c.jfrMb(),
                      c.differencePercent())));
    }
    for (Diagnosis.Node n : nodes) {
      if (!n.hotMethods().isEmpty()) {
        Diagnosis.Method m = n.hotMethods().get(0);
        out.add(
            String.format(
                Locale.ROOT,
                "%s spent %.0f %% of its %,d CPU samples in %s (flame graph: %s)",
                n.node(),
                m.selfPercent(),
                n.cpuSamples(),
                m.method(),
                n.flameGraph()));
      }
    }
    return out;
  }

  /** "solr2 waited 41 % of the time of its 8 threads ... on X in Y, from Z (...)". */
  static String lock(String node, Diagnosis.Lock l) {
    return String.format(
        Locale.ROOT,
        "%s: the %d thread(s) that waited on %s%s spent %.0f %% of their time waiting on it"
            + " (%,.1f s in %,d waits)",
        node,
        l.threads(),
        l.label(),
        l.from() == null ? "" : ", from " + l.from(),
        100 * l.share(),
        l.waitMs() / 1000,
        l.waits());
  }
}
