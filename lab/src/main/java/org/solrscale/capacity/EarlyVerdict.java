package org.solrscale.capacity;

import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.solrscale.load.Interval;
import org.solrscale.load.LoadRecorder;
import org.solrscale.spec.Slo;

/**
 * Decides a probe before its full count, once its verdict is clear. After each measured second:
 *
 * <ul>
 *   <li><b>Fails</b> once the full count could no longer meet the objective whatever the rest of
 *       the probe brings: more requests at or above a bound L than its percentile P allows of the
 *       probe's planned requests ((1 - P) x planned; p99: 1 %), or more errors than the error bound
 *       allows of them (any, when none is allowed). This is curtailment, not statistics: the early
 *       verdict is the one the full count would give, so a burst (a collection, a GC pause) early
 *       in a probe fails it only when it would have failed it anyway. Above the capacity the queue
 *       grows and this comes within a second or two.
 *   <li><b>Meets</b> the objective once, for every bound, the share of requests at or above L is
 *       surely below 1 - P by Wilson's score interval at 99 % confidence (z = 2.576, looked at once
 *       a second) and no request has failed, but not before the probe's shortest measured time.
 * </ul>
 *
 * A probe near a bound is neither and runs its full count. A bound on max is judged as p99.9, as
 * {@link Slo#requiredRequests} does.
 */
final class EarlyVerdict {
  /** The normal quantile of the one-sided 99.5 % (two-sided 99 %) bound. */
  static final double Z = 2.576;

  private final Slo slo;
  private final long planned;
  private final Histogram seen = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
  private long errors;
  private String reason;

  /** {@code planned}: the requests the probe measures when it runs its full count. */
  EarlyVerdict(Slo slo, long planned) {
    this.slo = slo;
    this.planned = planned;
  }

  /** What a decided probe was decided on, in words (null while undecided). */
  String reason() {
    return reason;
  }

  /**
   * Adds a second of the probe (warm-up seconds are left out); true when the probe is decided:
   * {@code mayMeet} says whether it may end on meeting the objective yet.
   */
  boolean add(Interval i, boolean mayMeet) {
    if (reason != null) {
      return true; // decided: what drains after it does not change the verdict
    }
    if (i.warmup()) {
      return false;
    }
    seen.add(i.latency());
    errors += i.errors();
    long n = seen.getTotalCount();
    if (n == 0) {
      return false;
    }
    boolean allClear = true;
    for (Map.Entry<String, Double> b : slo.latencyMs().entrySet()) {
      double allowed = 1 - Math.min(percentile(b.getKey()), 99.9) / 100;
      long limitUs = Math.round(b.getValue() * 1000);
      long above = seen.getCountBetweenValues(seen.lowestEquivalentValue(limitUs), Long.MAX_VALUE);
      if (above > allowed * planned) {
        reason =
            String.format(
                Locale.ROOT,
                "failed after %,d requests: %,d at or above %s ms, more than the %s %% of the"
                    + " probe's %,d that %s allows",
                n,
                above,
                Slo.fmt(b.getValue()),
                Slo.fmt(allowed * 100),
                planned,
                b.getKey());
        return true;
      }
      allClear &= upper(above, n) < allowed;
    }
    double maxErrors = slo.maxErrorRate();
    if (errors > maxErrors * planned) {
      reason =
          String.format(
              Locale.ROOT,
              "failed after %,d requests: %,d errors, more than the %s %% of the probe's %,d"
                  + " allowed",
              n,
              errors,
              Slo.fmt(maxErrors * 100),
              planned);
      return true;
    }
    if (mayMeet && allClear && errors == 0) {
      reason =
          String.format(
              Locale.ROOT,
              "met after %,d requests: every bounded tail surely within its share, no errors",
              n);
      return true;
    }
    return false;
  }

  private static double percentile(String key) {
    return key.equals("max") ? 100 : Double.parseDouble(key.substring(1));
  }

  /** Wilson's score interval's lower end for {@code k} of {@code n}. */
  static double lower(long k, long n) {
    return center(k, n) - half(k, n);
  }

  /** Its upper end. */
  static double upper(long k, long n) {
    return center(k, n) + half(k, n);
  }

  private static double center(long k, long n) {
    return (k + Z * Z / 2) / (n + Z * Z);
  }

  private static double half(long k, long n) {
    double p = (double) k / n;
    return Z / (n + Z * Z) * Math.sqrt(p * (1 - p) * n + Z * Z / 4);
  }
}
