package org.solrscale.spec;

import java.time.Duration;

/** Durations as users write them: 90, 90s, 5m, 1h, 500ms. */
public final class Durations {
  private Durations() {}

  /** The duration, or IllegalArgumentException with a one-line reason. */
  public static Duration parse(String value) {
    String v = value.trim().toLowerCase();
    if (v.startsWith("-")) {
      throw new IllegalArgumentException(
          "'" + value + "' is negative; a duration is 0 or more, like 90s");
    }
    try {
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      }
      if (v.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      if (v.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      if (v.endsWith("h")) {
        return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      return Duration.ofSeconds(Long.parseLong(v));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + value + "' is not a duration like 90s, 5m or 500ms");
    }
  }
}
