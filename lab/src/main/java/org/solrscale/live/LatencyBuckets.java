package org.solrscale.live;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A latency histogram in microseconds (HdrHistogram, as the driver records it) as the buckets of a
 * Prometheus classic histogram in seconds: bounds that fit Solr's latencies, from 1 ms (a cached
 * query) to 30 s (a timeout). Each recorded value counts in the first bucket whose bound holds its
 * equivalent value (HdrHistogram's resolution, three significant digits); the sum adds those same
 * values, so the count is exact and the sum is the one HdrHistogram's mean gives.
 */
final class LatencyBuckets {
  /** Upper bounds in seconds; +Inf follows. */
  static final double[] BOUNDS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  /** Per-bucket counts (not cumulative; the last is +Inf), count and sum in seconds. */
  record Buckets(long[] counts, long count, double sumSeconds) {}

  private LatencyBuckets() {}

  static Buckets of(Histogram us) {
    long[] counts = new long[BOUNDS.length + 1];
    double sum = 0;
    long n = 0;
    for (HistogramIterationValue v : us.recordedValues()) {
      long c = v.getCountAtValueIteratedTo();
      double seconds = us.medianEquivalentValue(v.getValueIteratedTo()) / 1e6;
      int b = 0;
      while (b < BOUNDS.length && seconds > BOUNDS[b]) {
        b++;
      }
      counts[b] += c;
      sum += seconds * c;
      n += c;
    }
    return new Buckets(counts, n, sum);
  }
}
