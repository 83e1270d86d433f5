package org.solrscale.capacity;

import java.time.Duration;
import org.solrscale.spec.Slo;

/**
 * What a search will do, known before its first probe: the first probe's rate, requests and time,
 * and how many rates and probes the search can take at most. A probe at a low rate can take
 * minutes, so the user is told before it starts rather than left with a silent terminal.
 *
 * <p>start: the first rate; warmupSeconds and measuredSeconds: the first probe's two parts;
 * required: the requests the objective's percentile needs; rates: the most rates the search can try
 * (null without a maximum rate: the doubling goes on until a probe fails, so the count depends on
 * the capacity itself); bisections: the most rates the bisection takes once a rate has failed;
 * halvings: the rates tried from the start down to the floor when the start fails; repeats: probes
 * a rate may take near a bound; probes: the most probes (rates x repeats, capped by the maximum
 * allowed).
 */
public record ProbePlan(
    double start,
    double warmupSeconds,
    long measuredSeconds,
    long required,
    Integer rates,
    int bisections,
    int halvings,
    int repeats,
    int probes) {

  /** The plan of a search with these options and a prober with this warm-up and shortest time. */
  public static ProbePlan of(
      Slo slo, CapacitySearch.Options o, Duration warmup, Duration minDuration) {
    double start = o.max() == null ? o.start() : Math.min(o.start(), o.max());
    long required = slo.requiredRequests();
    int bisections = bisections(1, o.tolerance());
    int halvings = 1;
    for (double r = start; r / 2 >= o.floor(); r /= 2) {
      halvings++;
    }
    // the start fails and the rates below it fail until the last, which meets; then bisection
    int down = halvings == 1 ? 1 : halvings + bisections;
    Integer rates = null;
    if (o.max() != null) {
      // the rates the doubling tries, as the search computes them: start, 2 start, ..., max
      int worst = down;
      double previous = start;
      int k = 1;
      for (double r = start; r < o.max(); ) {
        r = Math.min(r * 2, o.max());
        k++;
        // the k-th rate is the first to fail: the bisection starts between it and the one before
        worst = Math.max(worst, k + bisections(r / previous - 1, o.tolerance()));
        previous = r;
      }
      rates = Math.max(worst, k); // k: every rate up to the maximum met the objective
    }
    int repeats = Math.max(1, o.repeats());
    int probes = rates == null ? o.probes() : (int) Math.min(o.probes(), (long) rates * repeats);
    return new ProbePlan(
        start,
        warmup.toNanos() / 1e9,
        measuredSeconds(required, start, minDuration),
        required,
        rates,
        bisections,
        halvings,
        repeats,
        probes);
  }

  /**
   * The measured seconds of a probe at this rate: long enough for the objective's requests, plus a
   * second for the last ones to arrive, and no shorter than the minimum (whole seconds).
   */
  public static long measuredSeconds(long required, double rate, Duration minDuration) {
    return Math.max(minDuration.toSeconds(), (long) Math.ceil(required / rate) + 1);
  }

  /**
   * The most bisection rates from an interval whose width is {@code width} times its lower end
   * until the width is at most the tolerance: each halves it, and the lower end only grows.
   */
  static int bisections(double width, double tolerance) {
    int b = 0;
    for (double w = width; w > tolerance; w /= 2) {
      b++;
    }
    return b;
  }

  /** The first probe's warm-up requests at its rate. */
  public long warmupRequests() {
    return Math.round(start * warmupSeconds);
  }

  /** The first probe's measured requests at its rate. */
  public long measuredRequests() {
    return Math.round(start * measuredSeconds);
  }

  /** The first probe's time, warm-up included, in seconds. */
  public double firstProbeSeconds() {
    return warmupSeconds + measuredSeconds;
  }
}
