package org.solrscale.spec;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sizes as people write them for memory: 512m, 2g, 64k or plain bytes (powers of 1024). */
public final class Sizes {
  private static final Pattern SIZE = Pattern.compile("([1-9][0-9]{0,15})([kmg]?)");

  private Sizes() {}

  /** The bytes {@code size} stands for, or -1 when it is not such a size. */
  public static long bytes(String size) {
    Matcher m = size == null ? null : SIZE.matcher(size.strip().toLowerCase(Locale.ROOT));
    if (m == null || !m.matches()) {
      return -1;
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "k" -> n << 10;
      case "m" -> n << 20;
      case "g" -> n << 30;
      default -> n;
    };
  }
}
