package org.solrscale.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The figures of each step of a staircase, over that step's own time: requests by the step whose
 * rate scheduled them (latency from their intended start, service time, schedule lag, errors) and
 * completions by the step in whose seconds they finished (the achieved rate, whatever was sent).
 * Steps are {@code stepNanos} long from {@code from}, the start of the measured time.
 */
final class StepStats {
  /** One step, read when the run is over. */
  record Step(
      double rate,
      long startNanos,
      long endNanos,
      long scheduled,
      long errors,
      long completed,
      Histogram latency,
      Histogram service,
      Histogram lag,
      long cpuNanos) {
    double seconds() {
      return (endNanos - startNanos) / 1e9;
    }
  }

  private final List<Double> rates;
  private final long from;
  private final long stepNanos;
  private final ConcurrentHistogram[] latency;
  private final ConcurrentHistogram[] service;
  private final ConcurrentHistogram[] lag;
  private final AtomicLongArray scheduled;
  private final AtomicLongArray errors;
  private final AtomicLongArray completed;

  /** The process's CPU time at each step's start (and at the end), read by the dispatcher. */
  private final long[] cpuAt;

  StepStats(List<Double> rates, long from, long stepNanos) {
    this.rates = List.copyOf(rates);
    this.from = from;
    this.stepNanos = stepNanos;
    int n = rates.size();
    latency = new ConcurrentHistogram[n];
    service = new ConcurrentHistogram[n];
    lag = new ConcurrentHistogram[n];
    for (int i = 0; i < n; i++) {
      latency[i] = new ConcurrentHistogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
      service[i] = new ConcurrentHistogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
      lag[i] = new ConcurrentHistogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
    }
    scheduled = new AtomicLongArray(n);
    errors = new AtomicLongArray(n);
    completed = new AtomicLongArray(n);
    cpuAt = new long[n + 1];
    Arrays.fill(cpuAt, -1);
  }

  /** The step a time falls in, or -1 before the first and after the last. */
  int indexOf(long t) {
    if (t < from) {
      return -1;
    }
    long k = (t - from) / stepNanos;
    return k < rates.size() ? (int) k : -1;
  }

  /** A request the step {@code k} scheduled was sent. */
  void sent(int k) {
    scheduled.incrementAndGet(k);
  }

  /** A request of step {@code k} (by its intended start; -1: warm-up) finished at {@code done}. */
  void finished(int k, long intended, long sent, long done, boolean failed) {
    if (k >= 0) {
      latency[k].recordValue(
          Math.min(LoadRecorder.HIGHEST_US, Math.max(0, (done - intended) / 1000)));
      service[k].recordValue(Math.min(LoadRecorder.HIGHEST_US, Math.max(0, (done - sent) / 1000)));
      lag[k].recordValue(Math.min(LoadRecorder.HIGHEST_US, Math.max(0, (sent - intended) / 1000)));
      if (failed) {
        errors.incrementAndGet(k);
      }
    }
    int window = indexOf(done);
    if (window >= 0) {
      completed.incrementAndGet(window);
    }
  }

  /**
   * The dispatcher notes the process's CPU time when step {@code k} begins ({@code k = n}: the
   * end).
   */
  void cpuAtStart(int k, long cpuNanos) {
    if (k <= rates.size() && cpuAt[k] < 0) {
      cpuAt[k] = cpuNanos;
    }
  }

  /** The steps that began before {@code end} (the end of sending), the last one cut there. */
  List<Step> steps(long end) {
    List<Step> out = new ArrayList<>();
    for (int k = 0; k < rates.size(); k++) {
      long start = from + k * stepNanos;
      if (start >= end) {
        break;
      }
      long stop = Math.min(end, start + stepNanos);
      long cpu = cpuAt[k] >= 0 && cpuAt[k + 1] >= 0 ? cpuAt[k + 1] - cpuAt[k] : -1;
      out.add(
          new Step(
              rates.get(k),
              start,
              stop,
              scheduled.get(k),
              errors.get(k),
              completed.get(k),
              latency[k].copy(),
              service[k].copy(),
              lag[k].copy(),
              cpu));
    }
    return out;
  }
}
