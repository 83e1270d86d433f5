package org.solrscale.data;

import java.util.SplittableRandom;

/**
 * Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s (Zipf's law), in constant time
 * per draw.
 */
final class Zipf {
  private final double[] cdf;

  /** guide[g]: the first rank whose cumulative probability exceeds g/guide.length. */
  private final int[] guide;

  Zipf(int n, double exponent) {
    if (n < 1 || !(exponent > 0)) {
      throw new IllegalArgumentException("Zipf needs n >= 1 and an exponent > 0");
    }
    cdf = new double[n];
    double sum = 0;
    for (int k = 0; k < n; k++) {
      // StrictMath: the same table, and so the same corpus, on every JVM and CPU
      sum += 1 / StrictMath.pow(k + 1, exponent);
      cdf[k] = sum;
    }
    for (int k = 0; k < n; k++) {
      cdf[k] /= sum;
    }
    cdf[n - 1] = 1.0; // rounding must not leave a gap a draw could fall into
    guide = new int[n];
    int k = 0;
    for (int g = 0; g < n; g++) {
      double u = (double) g / n;
      while (cdf[k] <= u) {
        k++;
      }
      guide[g] = k;
    }
  }

  int size() {
    return cdf.length;
  }

  /** The probability of a rank. */
  double probability(int rank) {
    return rank == 0 ? cdf[0] : cdf[rank] - cdf[rank - 1];
  }

  /**
   * One rank. The guide table narrows the search to the ranks whose cumulative probability can
   * cover the draw: usually a handful, a short binary search among the first ranks. One guide slot
   * of margin on each side absorbs rounding in u * n.
   */
  int sample(SplittableRandom rnd) {
    double u = rnd.nextDouble();
    int g = (int) (u * guide.length);
    int lo = guide[Math.max(g - 1, 0)];
    int hi = g + 2 < guide.length ? guide[g + 2] : cdf.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cdf[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
