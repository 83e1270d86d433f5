package org.solrscale.cli;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.solrscale.capacity.CapacitySearch;
import org.solrscale.capacity.ProbePlan;
import org.solrscale.capacity.SearchProgress;
import org.solrscale.load.Interval;
import org.solrscale.results.CapacityResult;
import org.solrscale.spec.Slo;

/**
 * What `capacity` says on stderr while it searches: the plan, then on a terminal a live line for
 * the running probe (its seconds so far against its planned time, the p99 of its measured time so
 * far, errors), replaced by the probe's figures when it ends; to a file or a pipe only the line per
 * finished probe, so logs hold no carriage returns.
 */
final class CapacityProgress implements SearchProgress, AutoCloseable {
  private final boolean interactive = System.console() != null;
  private final Function<ProbePlan, List<String>> plan;
  private final Histogram soFar = new Histogram(3_600_000_000L, 2);
  private int number;
  private double rate;
  private double warmupSeconds;
  private long measuredSeconds;
  private double elapsed;
  private long errors;
  private int shown; // length of the line now on the terminal, to blank it when a shorter follows

  /** plan: the plan's lines, in the command's words (its flags). */
  CapacityProgress(Function<ProbePlan, List<String>> plan) {
    this.plan = plan;
  }

  @Override
  public synchronized void ramped(CapacityResult.Ramp r) {
    System.err.println("  " + CapacitySearch.rampLine(r));
  }

  @Override
  public synchronized void planned(ProbePlan p) {
    plan.apply(p).forEach(line -> System.err.println("  " + line));
  }

  @Override
  public synchronized void probing(int number, double rate, double warmup, long measured) {
    this.number = number;
    this.rate = rate;
    this.warmupSeconds = warmup;
    this.measuredSeconds = measured;
    elapsed = 0;
    errors = 0;
    soFar.reset();
    if (interactive) {
      show(live());
    }
  }

  @Override
  public synchronized void interval(Interval i) {
    elapsed += i.seconds();
    if (!i.warmup()) {
      soFar.add(i.latency());
      errors += i.errors();
    }
    if (interactive) {
      show(live());
    }
  }

  @Override
  public synchronized void probed(int n, CapacityResult.Measured m) {
    String line = CapacitySearch.progressLine(n, m);
    if (interactive) {
      show(line);
      System.err.println();
      shown = 0;
    } else {
      System.err.println("  " + line);
    }
  }

  /** The running probe, e.g. "probe 1 at 10/s: 42 s of 159 s, p99 so far 12.3 ms, 0 errors". */
  String live() {
    return live(number, rate, elapsed, warmupSeconds, measuredSeconds, soFar, errors);
  }

  static String live(
      int number,
      double rate,
      double elapsed,
      double warmup,
      long measured,
      Histogram soFar,
      long errors) {
    String head =
        String.format(
            Locale.ROOT,
            "probe %d at %s/s: %.0f s of %.0f s",
            number,
            Slo.fmt(rate),
            elapsed,
            warmup + measured);
    if (elapsed < warmup || soFar.getTotalCount() == 0) {
      return head + ", warming up";
    }
    return head
        + String.format(
            Locale.ROOT,
            ", p99 so far %.1f ms, %,d errors",
            soFar.getValueAtPercentile(99) / 1000.0,
            errors);
  }

  private void show(String line) {
    String text = "  " + line;
    int pad = Math.max(0, shown - text.length());
    System.err.print("\r" + text + " ".repeat(pad));
    shown = text.length();
  }

  /**
   * Ends a live line left on the terminal (an interrupted probe), so what follows starts afresh.
   */
  @Override
  public synchronized void close() {
    if (shown > 0) {
      System.err.println();
      shown = 0;
    }
  }
}
