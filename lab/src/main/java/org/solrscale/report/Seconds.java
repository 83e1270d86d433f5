package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import org.solrscale.results.TimelineRow;

/**
 * A timeline as charts draw it: one point per second of wall time. The second in which the warm-up
 * ended holds two rows (warm-up requests that finished in it, and measured ones): drawn apart, each
 * looked like a second of a fraction of the throughput, a spike of about 1,000 s per 1000 requests
 * in the cold-start curve and a dip towards 0 in the over-time chart. They are added into one. A
 * last interval shorter than {@link #MIN_SECONDS} (the run ended in it) is dropped: a few requests
 * in a few milliseconds say nothing about a rate.
 */
final class Seconds {
  /** Intervals shorter than this are left out of charts. */
  static final double MIN_SECONDS = 0.5;

  private Seconds() {}

  static List<TimelineRow> of(List<TimelineRow> rows) {
    List<TimelineRow> out = new ArrayList<>();
    for (TimelineRow r : rows) {
      TimelineRow last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last.second() == r.second()) {
        out.set(out.size() - 1, merge(last, r));
      } else {
        out.add(r);
      }
    }
    out.removeIf(r -> r.seconds() < MIN_SECONDS);
    return out;
  }

  /**
   * Two rows of one second as one: requests and errors added, the rate over the second, the latency
   * of the row that holds more requests (percentiles do not add; latency.hlog has the exact
   * histograms), warm-up only when both were.
   */
  private static TimelineRow merge(TimelineRow a, TimelineRow b) {
    TimelineRow big = a.requests() >= b.requests() ? a : b;
    double seconds = Math.max(a.seconds(), b.seconds());
    long requests = a.requests() + b.requests();
    return new TimelineRow(
        a.second(),
        a.warmup() && b.warmup(),
        requests,
        a.errors() + b.errors(),
        requests / Math.max(1e-9, seconds),
        big.latencyP50Ms(),
        big.latencyP99Ms(),
        Math.max(a.latencyMaxMs(), b.latencyMaxMs()),
        big.serviceP50Ms(),
        big.serviceP99Ms(),
        a.bytes() + b.bytes(),
        seconds);
  }
}
