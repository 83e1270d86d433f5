package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** When an open loop's requests are due: evenly spaced, or as a Poisson process. */
public enum Arrivals {
  UNIFORM,
  POISSON;

  /** The names as written: uniform, poisson. */
  public static final List<String> NAMES = Arrays.stream(values()).map(Arrivals::toString).toList();

  /** The arrivals as written, or IllegalArgumentException with a one-line reason. */
  @JsonCreator
  public static Arrivals parse(String value) {
    if (value != null && NAMES.contains(value)) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
    throw new IllegalArgumentException("arrivals are uniform or poisson; got '" + value + "'");
  }

  @JsonValue
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
