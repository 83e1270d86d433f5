package org.solrscale.load;

import java.util.SplittableRandom;

/** Gaps between scheduled starts: fixed (uniform) or exponential (a Poisson process), seeded. */
final class Arrivals {
  private final boolean poisson;
  private final SplittableRandom random;

  Arrivals(boolean poisson, long seed) {
    this.poisson = poisson;
    this.random = new SplittableRandom(seed);
  }

  /** The gap to the next start at {@code rate} requests per second, in nanoseconds. */
  long gapNanos(double rate) {
    double mean = 1e9 / rate;
    return poisson
        ? Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * mean))
        : Math.round(mean);
  }
}
