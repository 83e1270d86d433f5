package org.solrscale.spec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How slow a link is made: each packet that crosses it held {@code delay} plus a jitter drawn from
 * {@code distribution}, or dropped with probability {@code loss}. The delay is one way: with {@code
 * direction} both (the default) a round trip across the link takes twice the delay longer. Jittered
 * packets keep their order unless {@code reorder}.
 *
 * @param delayMs one-way delay in milliseconds
 * @param jitterMs the jitter's scale in milliseconds: the standard deviation (normal) or the
 *     half-width (uniform); 0 for none
 * @param loss the share of packets dropped, 0 to 1
 * @param direction both, out (what the slowed hosts send) or in (what they receive)
 * @param rateBitsPerSecond the link's rate each way (a link profile's), 0 for no cap: packets wait
 *     their turn at it, at most 100 ms, before their delay; more are dropped, as at a full router
 */
public record Slowness(
    double delayMs,
    double jitterMs,
    Distribution distribution,
    double loss,
    Direction direction,
    boolean reorder,
    long rateBitsPerSecond) {

  /** Where a jitter is drawn from. */
  public enum Distribution {
    /** delay + N(0, jitter), never below 0: the usual model of queueing noise. */
    NORMAL,
    /** delay + U(-jitter, +jitter). */
    UNIFORM,
    /** delay + a Pareto tail (shape 2.5) scaled so its mean is the jitter: rare long stalls. */
    PARETO;

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Distribution named(String s) {
      for (Distribution d : values()) {
        if (d.id().equals(s)) {
          return d;
        }
      }
      throw new IllegalArgumentException(
          "unknown jitter distribution '" + s + "'; use normal, uniform or pareto");
    }
  }

  /** Which packets of the slowed hosts are held: both ways, what they send, what they receive. */
  public enum Direction {
    BOTH,
    OUT,
    IN;

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Direction named(String s) {
      for (Direction d : values()) {
        if (d.id().equals(s)) {
          return d;
        }
      }
      throw new IllegalArgumentException("unknown direction '" + s + "'; use both, in or out");
    }
  }

  public Slowness {
    if (!(delayMs >= 0) || !(jitterMs >= 0) || !(loss >= 0 && loss <= 1) || rateBitsPerSecond < 0) {
      throw new IllegalArgumentException(
          "a delay and jitter are 0 or more, and a loss is between 0% and 100%");
    }
    distribution = distribution == null ? Distribution.NORMAL : distribution;
    direction = direction == null ? Direction.BOTH : direction;
  }

  /**
   * From what a user wrote (null: not given): a delay and jitter like {@code 50ms}, a loss like
   * {@code 1%} or {@code 0.01}, a distribution and a direction by name. At least a delay or a loss;
   * IllegalArgumentException with a one-line reason otherwise.
   */
  public static Slowness of(
      String delay,
      String jitter,
      String distribution,
      String loss,
      String direction,
      Boolean reorder) {
    double d = delay == null ? 0 : millis(delay, "delay");
    double j = jitter == null ? 0 : millis(jitter, "jitter");
    double l = loss == null ? 0 : share(loss);
    if (delay == null && loss == null) {
      // (a delay of 0 is a baseline: the probe measures the link as it is; a link profile may
      // cap the rate alone: see rateOnly)
      throw new IllegalArgumentException(
          "a slow link needs a delay (e.g. 50ms) or a loss (e.g. 1%), or both");
    }
    if (j > 0 && d == 0) {
      throw new IllegalArgumentException("a jitter needs a delay around which it varies");
    }
    return new Slowness(
        d,
        j,
        distribution == null ? null : Distribution.named(distribution.strip()),
        l,
        direction == null ? null : Direction.named(direction.strip()),
        reorder != null && reorder,
        0);
  }

  /** The same, with the link's rate capped at {@code bitsPerSecond} each way. */
  public Slowness withRate(long bitsPerSecond) {
    return new Slowness(delayMs, jitterMs, distribution, loss, direction, reorder, bitsPerSecond);
  }

  /**
   * A link profile's slowness as {@code net up --link} writes it: comma-separated items, each a
   * delay with an optional jitter ({@code 40ms}, {@code 40ms±5ms} or {@code 40ms+-5ms}) or a loss
   * ({@code 1%}); other items (a rate such as {@code 100mbit}) are returned in {@code rest}.
   */
  public static Slowness parseProfile(String text, List<String> rest) {
    String delay = null;
    String jitter = null;
    String loss = null;
    for (String item : text.split(",")) {
      String s = item.strip();
      if (s.isEmpty()) {
        continue;
      }
      if (s.endsWith("%")) {
        loss = s;
        continue;
      }
      String[] dj = s.split("±|\\+-|\\+/-", 2);
      if (dj[0].strip().matches("[0-9.]+ms|[0-9.]+s")) {
        delay = dj[0].strip();
        jitter = dj.length > 1 ? dj[1].strip() : null;
      } else {
        rest.add(s);
      }
    }
    return delay == null && loss == null ? null : of(delay, jitter, null, loss, null, null);
  }

  /** A link profile's rate alone, as a slowness that only caps (see {@link #withRate}). */
  public static Slowness rateOnly(long bitsPerSecond) {
    return new Slowness(0, 0, null, 0, null, false, bitsPerSecond);
  }

  /** The round trip this adds across the link, in milliseconds. */
  public double roundTripMs() {
    return direction == Direction.BOTH ? 2 * delayMs : delayMs;
  }

  /** The share of round trips that lose a packet: either way when both ways drop. */
  public double roundTripLoss() {
    return direction == Direction.BOTH ? 1 - (1 - loss) * (1 - loss) : loss;
  }

  /** One line: "50 ms each way ±5 ms (normal), round trip +100 ms; 1% lost each way". */
  public String describe() {
    List<String> parts = new ArrayList<>();
    String way =
        switch (direction) {
          case BOTH -> "each way";
          case OUT -> "outgoing";
          case IN -> "incoming";
        };
    if (delayMs > 0 || loss == 0 && rateBitsPerSecond == 0) {
      parts.add(
          fmt(delayMs)
              + " ms "
              + way
              + (jitterMs > 0 ? " ±" + fmt(jitterMs) + " ms (" + distribution.id() + ")" : "")
              + ", round trip +"
              + fmt(roundTripMs())
              + " ms"
              + (reorder ? ", reordered" : ""));
    }
    if (loss > 0) {
      parts.add(fmt(loss * 100) + "% lost " + way);
    }
    if (rateBitsPerSecond > 0) {
      parts.add("capped at " + fmt(rateBitsPerSecond / 1e6) + " Mbit/s " + way);
    }
    return String.join("; ", parts);
  }

  /** The arguments of the delayer that does this (see NetDelayerCommand). */
  public List<String> args() {
    List<String> a = new ArrayList<>();
    a.addAll(List.of("--delay-ms", fmt(delayMs), "--jitter-ms", fmt(jitterMs)));
    a.addAll(List.of("--distribution", distribution.id(), "--loss", Double.toString(loss)));
    if (reorder) {
      a.add("--reorder");
    }
    if (rateBitsPerSecond > 0) {
      a.addAll(List.of("--rate-bps", Long.toString(rateBitsPerSecond)));
    }
    return a;
  }

  static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
  }

  private static double millis(String s, String what) {
    String v = s.strip().toLowerCase(Locale.ROOT);
    try {
      if (v.endsWith("ms")) {
        return Double.parseDouble(v.substring(0, v.length() - 2));
      }
      if (v.endsWith("s")) {
        return Double.parseDouble(v.substring(0, v.length() - 1)) * 1000;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("'" + s + "' is not a " + what + " like 50ms, 0.5ms or 1s");
  }

  private static double share(String s) {
    String v = s.strip();
    try {
      double x =
          v.endsWith("%")
              ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100
              : Double.parseDouble(v);
      if (x >= 0 && x <= 1) {
        return x;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("'" + s + "' is not a loss like 1% or 0.01");
  }

  /** Parses a delay like the CLI's --delay; for callers outside this package. */
  public static Duration duration(String s) {
    return Duration.ofNanos(Math.round(millis(s, "delay") * 1e6));
  }
}
