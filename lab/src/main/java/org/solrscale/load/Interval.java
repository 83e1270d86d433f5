package org.solrscale.load;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One second (or so) of a run: latency (from the intended start), service time (from the actual
 * send) and the schedule lag, in microseconds, plus counts. {@code warmup} intervals are logged and
 * tagged but left out of the summary. {@code sent}: requests the driver put on the wire in the
 * second (the load it offered; on the measured interval of a second, or its only one); {@code
 * errorKinds}: the failed requests of this interval by kind.
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
    long bytes,
    long sent,
    Map<String, Long> errorKinds) {

  public Interval(
      long startNanos,
      long endNanos,
      boolean warmup,
      Histogram latency,
      Histogram service,
      Histogram lag,
      long count,
      long errors,
      long bytes) {
    this(startNanos, endNanos, warmup, latency, service, lag, count, errors, bytes, 0, Map.of());
  }

  public double seconds() {
    return (endNanos - startNanos) / 1e9;
  }
}
