package org.solrscale.report;

import java.util.Arrays;
import java.util.List;
import org.solrscale.results.Statistics;

/**
 * When a closed loop settled: from one point per second (requests done so far, seconds per 1000
 * requests in that second), the level it settled at (the median of the last quarter of its seconds)
 * and the first second from which every 5-second median stays within 20 % of that level. The 2014
 * "Scaling Solr" report said a cold start took 10,000 queries per thread to settle; this is the
 * figure that checks such a claim.
 */
record Settling(long requests, double seconds, double firstPer1000, double level, boolean settled) {
  static final int WINDOW = 5;
  static final double WITHIN = 1.2;

  /** Fewer seconds than this say nothing about settling. */
  static final int MIN_POINTS = 12;

  /**
   * The settling of a curve: {@code done[i]} requests done by the end of second i, {@code
   * per1000[i]} that second's seconds per 1000 requests; null when the curve is too short.
   */
  static Settling of(double[] done, double[] per1000) {
    int n = per1000.length;
    if (n < MIN_POINTS) {
      return null;
    }
    double level = Statistics.median(Arrays.copyOfRange(per1000, n - n / 4, n));
    int from = n - WINDOW;
    for (int i = n - WINDOW; i >= 0; i--) {
      if (Statistics.median(Arrays.copyOfRange(per1000, i, i + WINDOW)) > WITHIN * level) {
        break;
      }
      from = i;
    }
    // settled only within (or just before) the seconds that define the level: not shown to
    // settle; the settled stretch must outlast that quarter by a window
    boolean settled = n - from >= n / 4 + WINDOW;
    return new Settling(from == 0 ? 0 : (long) done[from - 1], from, per1000[0], level, settled);
  }

  static Settling of(List<double[]> points) {
    return of(
        points.stream().mapToDouble(p -> p[0]).toArray(),
        points.stream().mapToDouble(p -> p[1]).toArray());
  }
}
