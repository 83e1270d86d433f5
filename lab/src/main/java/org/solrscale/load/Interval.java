package org.solrscale.load;

import org.HdrHistogram.Histogram;

/**
 * One second (or so) of a run: latency (from the intended start), service time (from the actual
 * send) and the schedule lag, in microseconds, plus counts. {@code warmup} intervals are logged and
 * tagged but left out of the summary.
 */
public record Interval(
    long startNanos,
    long endNanos,
    boolean warmup,
    Histogram latency,
    Histogram service,
    Histogram lag,
    long count,
    long errors,
    long bytes) {

  public double seconds() {
    return (endNanos - startNanos) / 1e9;
  }
}
