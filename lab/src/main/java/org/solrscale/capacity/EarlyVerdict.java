package org.solrscale.capacity;

import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.solrscale.load.Interval;
import org.solrscale.load.LoadRecorder;
import org.solrscale.spec.Slo;

/**
 * Decides a probe before its full count, once its tail is clear of the objective: after each
 * measured second, for each latency bound (percentile P under L ms), the share of requests at or
 * above L is bounded by Wilson's score interval at 99 % confidence (z = 2.576, looked at once a
 * second). The probe fails as soon as that share is surely above what P allows (1 - P; p99: 1 %),
 * or when errors are surely above their bound (any error when none is allowed). It meets the
 * objective as soon as the share is surely below it for every bound and no request has failed, but
 * not before the probe's shortest measured time. A probe near a bound is neither and runs its full
 * count. A bound on max is judged as p99.9, as {@link Slo#requiredRequests} does.
 */
final class EarlyVerdict {
  /** The normal quantile of the one-sided 99.5 % (two-sided 99 %) bound. */
  static final double Z = 2.576;

  private final Slo slo;
  private final Histogram seen = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
  private long errors;
  private String reason;

  EarlyVerdict(Slo slo) {
    this.slo = slo;
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
      if (lower(above, n) > allowed) {
        reason =
            String.format(
                Locale.ROOT,
                "failed after %,d requests: %,d at or above %s ms, surely more than the %s %% %s"
                    + " allows",
                n,
                above,
                Slo.fmt(b.getValue()),
                Slo.fmt(allowed * 100),
                b.getKey());
        return true;
      }
      allClear &= upper(above, n) < allowed;
    }
    double maxErrors = slo.maxErrorRate();
    if (errors > 0 && (maxErrors == 0 || lower(errors, n) > maxErrors)) {
      reason =
          String.format(
              Locale.ROOT,
              "failed after %,d requests: %,d errors, surely more than the %s %% allowed",
              n,
              errors,
              Slo.fmt(maxErrors * 100));
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
