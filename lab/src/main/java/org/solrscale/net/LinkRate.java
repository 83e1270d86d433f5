package org.solrscale.net;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.spec.SolrscaleException;

/**
 * A link's rate as tc takes it (e.g. 100mbit, 1gbit) and the tbf qdisc that caps a link to it.
 *
 * @param text the rate as tc reads it, lowercase
 */
public record LinkRate(String text, long bitsPerSecond) {
  private static final Pattern RATE =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(bit|kbit|mbit|gbit|tbit)");
  private static final long MIN = 8_000;

  /** tbf's smallest useful bucket: a few full-size frames (1514 bytes each). */
  private static final long MIN_BURST = 4096;

  /**
   * A rate like 100mbit or 1gbit (bit, kbit, mbit, gbit, tbit: powers of 1000, as tc reads them).
   */
  public static LinkRate parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    Matcher m = RATE.matcher(t);
    if (!m.matches()) {
      throw SolrscaleException.usage(
          "'"
              + text
              + "' is no bandwidth: give a rate like 100mbit or 1gbit (bit, kbit, mbit, gbit)");
    }
    int power =
        switch (m.group(2)) {
          case "bit" -> 0;
          case "kbit" -> 3;
          case "mbit" -> 6;
          case "gbit" -> 9;
          default -> 12;
        };
    long bits = new BigDecimal(m.group(1)).scaleByPowerOfTen(power).longValue();
    if (bits < MIN || bits > 1_000_000_000_000L) {
      throw SolrscaleException.usage(
          "a bandwidth of " + t + " is out of range: give 8kbit to 1tbit");
    }
    return new LinkRate(t, bits);
  }

  /**
   * The bucket: 10 ms at this rate, at least a few frames. A bucket below the rate divided by the
   * kernel's timer frequency cannot reach the rate; 10 ms covers HZ down to 100.
   */
  public long burstBytes() {
    return Math.max(bitsPerSecond / 8 / 100, MIN_BURST);
  }

  /** The arguments after `tc qdisc replace dev DEV root`. */
  public String[] tbf() {
    return new String[] {
      "tbf", "rate", text, "burst", Long.toString(burstBytes()), "latency", "50ms"
    };
  }
}
