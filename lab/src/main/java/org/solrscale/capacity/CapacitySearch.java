package org.solrscale.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.solrscale.results.CapacityResult;
import org.solrscale.results.CapacityResult.Measured;
import org.solrscale.results.CapacityResult.Probe;
import org.solrscale.results.CapacityResult.Stop;
import org.solrscale.spec.Slo;

/**
 * The highest open-loop rate that meets an objective: probes at a start rate, doubling while they
 * meet it, then bisection between the highest rate that met it and the lowest that did not, until
 * the two are within the tolerance. A probe whose figure lies near a bound is repeated and the
 * majority decides. The search stops, and says so, when the driver rather than the server limited a
 * probe, when the maximum rate still meets the objective, when even the lowest rate fails it, or
 * when its probes run out.
 */
public final class CapacitySearch {
  private CapacitySearch() {}

  /** One line on a probe, as progress: "probe 3: 40/s offered, 39.8/s achieved, p50 ...". */
  public static String progressLine(int number, Measured m) {
    return String.format(
        Locale.ROOT,
        "probe %d: %.1f/s offered, %.1f/s achieved, p50 %.1f ms, p99 %.1f ms, errors %.2f %%%s",
        number,
        m.rate(),
        m.achieved(),
        m.latencyMs().getOrDefault("p50", 0.0),
        m.latencyMs().getOrDefault("p99", 0.0),
        m.errorRate() * 100,
        (m.driverBound() == null ? "" : ", driver-bound")
            + (m.decidedEarly() == null ? "" : "; " + m.decidedEarly()));
  }

  /** One line on the closed loop that chose the start. */
  public static String rampLine(CapacityResult.Ramp r) {
    if (r.threads() == 0) {
      return "start: " + Slo.fmt(r.start()) + " requests/s, the replayed log's own rate";
    }
    return String.format(
        Locale.ROOT,
        "closed loop of %d threads: %,.0f requests/s over %.1f s (p99 %s ms); starting at 75 %%"
            + " of it, %s requests/s",
        r.threads(),
        r.achieved(),
        r.seconds(),
        r.p99Ms() == null ? "?" : Slo.fmt(r.p99Ms()),
        Slo.fmt(r.start()));
  }

  /** Runs one probe at a rate (its own warm-up, then long enough for the objective). */
  @FunctionalInterface
  public interface Prober {
    Measured probe(double rate) throws InterruptedException;

    /** The probe numbered {@code number} (from 1) as judged against the objective. */
    default void judged(int number, Probe p) {}
  }

  /**
   * start: the first rate (null: found by a short closed loop first, {@link BenchProber}); max: the
   * highest to try (null: no limit); tolerance: the bisection stops when (high - low) / low is at
   * most this; probes: at most this many; band: a probe whose closeness to a latency bound is
   * within 1 +- band is repeated, up to repeats probes at that rate; floor: the lowest rate tried
   * before giving up; then: the rate tried after the start met the objective, instead of twice it
   * (the closed loop's saturation, which an open loop is not expected to meet; null: double).
   */
  public record Options(
      Double start,
      Double max,
      double tolerance,
      int probes,
      double band,
      int repeats,
      double floor,
      Double then) {

    public static Options defaults(double start, Double max) {
      return new Options(start, max, 0.05, 24, 0.10, 3, 0.5, null);
    }

    /** The same options starting at {@code rate}, and trying {@code next} after it when it met. */
    public Options startingAt(double rate, Double next) {
      return new Options(rate, max, tolerance, probes, band, repeats, Math.min(floor, rate), next);
    }

    /**
     * As the command and the step set it: tolerance in percent; probes within 10 % of a bound
     * repeated up to 3 times; halving no lower than 0.5 requests/s (or the start).
     */
    public static Options of(Double start, Double max, double tolerancePercent, int probes) {
      return new Options(
          start,
          max,
          tolerancePercent / 100,
          probes,
          0.10,
          3,
          start == null ? 0.5 : Math.min(0.5, start),
          null);
    }
  }

  public static CapacityResult search(Slo slo, Options o, Prober prober)
      throws InterruptedException {
    if (o.start() == null) {
      throw new IllegalArgumentException("a search starts at a rate: find it first");
    }
    List<Probe> probes = new ArrayList<>();
    Double low = null;
    Double high = null;
    double rate = o.max() == null ? o.start() : Math.min(o.start(), o.max());
    String ended;
    Stop stop;
    while (true) {
      if (probes.size() >= o.probes()) {
        ended = "stopped after " + probes.size() + " probes, the most allowed";
        stop = Stop.MAX_PROBES;
        break;
      }
      // a start found by a closed loop is probed right after that loop saturated the server (its
      // garbage, its queues): when it fails, it is probed again and the majority decides, so one
      // stall there does not pin the answer below the start
      boolean confirm = probes.isEmpty() && o.then() != null;
      Probe p = judged(slo, o, prober, rate, probes, confirm);
      if (p.measured().driverBound() != null) {
        ended =
            String.format(
                Locale.ROOT,
                "driver-bound at %s requests/s: %s; the capacity is at least what met the"
                    + " objective before, give the driver more CPU or run it elsewhere",
                Slo.fmt(rate),
                p.measured().driverBound());
        stop = Stop.DRIVER_BOUND;
        break;
      }
      if (p.meets()) {
        low = rate;
      } else {
        high = rate;
      }
      if (low != null && high != null) {
        if ((high - low) / low <= o.tolerance()) {
          ended =
              String.format(
                  Locale.ROOT,
                  "converged: %s met the objective, %s did not (within %s %%)",
                  Slo.fmt(low),
                  Slo.fmt(high),
                  Slo.fmt(o.tolerance() * 100));
          stop = Stop.CONVERGED;
          break;
        }
        rate = (low + high) / 2;
      } else if (low != null) {
        if (o.max() != null && rate >= o.max()) {
          ended =
              "the maximum rate, "
                  + Slo.fmt(o.max())
                  + " requests/s, met the objective: the"
                  + " capacity is at least that";
          stop = Stop.MAX_RATE;
          break;
        }
        double up = o.then() != null && rate < o.then() ? o.then() : rate * 2;
        rate = o.max() == null ? up : Math.min(up, o.max());
      } else {
        if (rate / 2 < o.floor()) {
          ended = "even " + Slo.fmt(rate) + " requests/s failed the objective (" + p.why() + ")";
          stop = Stop.LOWEST_RATE_FAILED;
          break;
        }
        rate = rate / 2;
      }
    }
    return new CapacityResult(
        slo.spec(),
        slo.maxErrorRate(),
        low,
        low,
        high,
        slo.requiredRequests(),
        List.copyOf(probes),
        ended,
        stop,
        stop == Stop.CONVERGED,
        null,
        null,
        null,
        null);
  }

  /**
   * Probes at one rate; near a bound (closeness within 1 +- band) it probes again, up to repeats
   * times, and the majority of those probes decides. Adds every probe to {@code out}; returns the
   * deciding one (the last, with the majority's verdict).
   */
  static Probe judged(Slo slo, Options o, Prober prober, double rate, List<Probe> out)
      throws InterruptedException {
    return judged(slo, o, prober, rate, out, false);
  }

  /** As above; {@code confirm}: a failure is probed again as if it were near the bound. */
  static Probe judged(
      Slo slo, Options o, Prober prober, double rate, List<Probe> out, boolean confirm)
      throws InterruptedException {
    int met = 0;
    int failed = 0;
    Probe last = null;
    String failedWhy = null;
    for (int i = 1; i <= Math.max(1, o.repeats()); i++) {
      Measured m = prober.probe(rate);
      String why = slo.failure(m.latencyMs(), m.errorRate());
      last = new Probe(m, why == null, why, i);
      out.add(last);
      prober.judged(out.size(), last);
      if (m.driverBound() != null) {
        return last;
      }
      if (why == null) {
        met++;
      } else {
        failed++;
        failedWhy = why;
      }
      double c = slo.closeness(m.latencyMs());
      boolean near = Math.abs(c - 1) <= o.band() || confirm && failed > 0;
      boolean errorsOnly = why != null && c < 1; // errors decide, not a latency near its bound
      int needed = o.repeats() / 2 + 1;
      if (!near || errorsOnly || met >= needed || failed >= needed) {
        break;
      }
    }
    boolean meets = met > failed;
    return meets == last.meets()
        ? last
        : new Probe(last.measured(), meets, meets ? null : failedWhy, last.repeat());
  }
}
