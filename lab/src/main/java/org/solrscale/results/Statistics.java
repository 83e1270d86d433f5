package org.solrscale.results;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * The statistics compare and the report's findings use: medians, the Mann-Whitney U test (exact for
 * small samples without ties, else Commons Math's normal approximation) and a bootstrap confidence
 * interval of the relative difference of medians.
 */
public final class Statistics {
  /** Largest sample size per side for the exact distribution of U. */
  static final int EXACT_MAX = 20;

  static final int RESAMPLES = 2000;

  private Statistics() {}

  /** Two samples compared: medians, relative difference of B against A, its 95 % interval, p. */
  public record Difference(
      double medianA, double medianB, double relative, double ciLow, double ciHigh, double p) {}

  /** Compares B against A; the bootstrap is seeded, so the same samples give the same answer. */
  public static Difference compare(double[] a, double[] b) {
    double ma = median(a);
    double mb = median(b);
    double[] ci = bootstrapRelativeDifference(a, b, RESAMPLES, 42);
    return new Difference(ma, mb, relative(ma, mb), ci[0], ci[1], mannWhitneyP(a, b));
  }

  /** (b - a) / |a|; infinite when a is 0 and b is not, 0 when both are. */
  public static double relative(double a, double b) {
    if (a == 0) {
      return b == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, b);
    }
    return (b - a) / Math.abs(a);
  }

  public static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] s = values.clone();
    Arrays.sort(s);
    return medianOfSorted(s);
  }

  private static double medianOfSorted(double[] s) {
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** Two-sided p-value of the Mann-Whitney U test; 1 when a side has no values. */
  public static double mannWhitneyP(double[] a, double[] b) {
    if (a.length == 0 || b.length == 0) {
      return 1;
    }
    if (a.length <= EXACT_MAX && b.length <= EXACT_MAX && !hasTies(a, b)) {
      return exactP(a, b);
    }
    return new MannWhitneyUTest().mannWhitneyUTest(a, b);
  }

  private static boolean hasTies(double[] a, double[] b) {
    double[] all = new double[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    Arrays.sort(all);
    for (int i = 1; i < all.length; i++) {
      if (all[i] == all[i - 1]) {
        return true;
      }
    }
    return false;
  }

  /**
   * Exact two-sided p: the share of all orderings of the pooled values whose U is at least as far
   * from its mean as the one observed (Commons Math 3 has only the normal approximation, which is
   * too optimistic for the 3 to 10 repeats a scenario usually has).
   */
  static double exactP(double[] a, double[] b) {
    int n1 = a.length;
    int n2 = b.length;
    long u = 0;
    for (double x : a) {
      for (double y : b) {
        if (x > y) {
          u++;
        }
      }
    }
    double[] counts = uDistribution(n1, n2);
    double total = Arrays.stream(counts).sum();
    double mean = n1 * n2 / 2.0;
    double dist = Math.abs(u - mean);
    double tail = 0;
    for (int k = 0; k < counts.length; k++) {
      if (Math.abs(k - mean) >= dist - 1e-9) {
        tail += counts[k];
      }
    }
    return Math.min(1, tail / total);
  }

  /** Number of orderings of n1 + n2 values giving each U (the classic recurrence). */
  private static double[] uDistribution(int n1, int n2) {
    int max = n1 * n2;
    double[][][] f = new double[n1 + 1][n2 + 1][];
    for (int i = 0; i <= n1; i++) {
      for (int j = 0; j <= n2; j++) {
        double[] row = new double[max + 1];
        if (i == 0 || j == 0) {
          row[0] = 1;
        } else {
          for (int k = 0; k <= i * j; k++) {
            // the largest value is from A (it beats all j of B) or from B
            row[k] = (k >= j ? f[i - 1][j][k - j] : 0) + f[i][j - 1][k];
          }
        }
        f[i][j] = row;
      }
    }
    return f[n1][n2];
  }

  /**
   * 95 % percentile-bootstrap interval of (median(B) - median(A)) / |median(A)|: both sides
   * resampled with replacement; NaN when A's median is 0 in too many resamples to tell.
   */
  public static double[] bootstrapRelativeDifference(
      double[] a, double[] b, int resamples, long seed) {
    if (a.length == 0 || b.length == 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    SplittableRandom random = new SplittableRandom(seed);
    double[] ra = new double[a.length];
    double[] rb = new double[b.length];
    double[] diffs = new double[resamples];
    int n = 0;
    for (int r = 0; r < resamples; r++) {
      for (int i = 0; i < ra.length; i++) {
        ra[i] = a[random.nextInt(a.length)];
      }
      for (int i = 0; i < rb.length; i++) {
        rb[i] = b[random.nextInt(b.length)];
      }
      Arrays.sort(ra);
      Arrays.sort(rb);
      double ma = medianOfSorted(ra);
      if (ma != 0) {
        diffs[n++] = (medianOfSorted(rb) - ma) / Math.abs(ma);
      }
    }
    if (n < resamples / 2) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double[] d = Arrays.copyOf(diffs, n);
    Arrays.sort(d);
    return new double[] {d[(int) Math.floor(0.025 * (n - 1))], d[(int) Math.ceil(0.975 * (n - 1))]};
  }
}
