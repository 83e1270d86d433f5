package org.solrscale.cli;

import java.util.Locale;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.solrscale.load.Interval;

/**
 * The live line of `bench` on stderr: warm-up or measured seconds so far (the measured count starts
 * at 0 when the warm-up ends), this second's rate, p50/p99 of the measured time so far and errors.
 * On a terminal the line is rewritten in place; to a file or a pipe a line is written every few
 * seconds instead, so logs hold no carriage returns.
 */
final class BenchProgress implements Consumer<Interval>, AutoCloseable {
  private static final double LINE_EVERY_SECONDS = 5;
  private final boolean interactive = System.console() != null;
  private final Histogram soFar = new Histogram(3_600_000_000L, 2);
  private long errors;
  private double warmSeconds;
  private double measuredSeconds;
  private double lastLine = -LINE_EVERY_SECONDS;
  private boolean printedInPlace;

  @Override
  public synchronized void accept(Interval i) {
    if (i.count() == 0 && i.warmup()) {
      warmSeconds += i.seconds();
      return;
    }
    Histogram h = i.latency();
    double shown;
    if (i.warmup()) {
      warmSeconds += i.seconds();
      shown = warmSeconds;
    } else {
      soFar.add(i.latency());
      errors += i.errors();
      measuredSeconds += i.seconds();
      h = soFar;
      shown = measuredSeconds;
    }
    String line =
        String.format(
            Locale.ROOT,
            "%s %5.0f s %,8.0f req/s  p50 %7.2f ms  p99 %8.2f ms  errors %d",
            i.warmup() ? "warm-up " : "measured",
            shown,
            i.count() / Math.max(1e-9, i.seconds()),
            h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50) / 1000.0,
            h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1000.0,
            i.warmup() ? i.errors() : errors);
    if (interactive) {
      System.err.print("\r  " + line + "   ");
      printedInPlace = true;
    } else if (warmSeconds + measuredSeconds - lastLine >= LINE_EVERY_SECONDS) {
      lastLine = warmSeconds + measuredSeconds;
      System.err.println("  " + line);
    }
  }

  /** Ends the line rewritten in place, so what follows starts on a line of its own. */
  @Override
  public synchronized void close() {
    if (printedInPlace) {
      System.err.println();
      printedInPlace = false;
    }
  }
}
