package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The order a workload picks its requests in: seeded random, or as the files list them. */
public enum QueryOrder {
  RANDOM,
  SEQUENTIAL;

  /** The names as written: random, sequential. */
  public static final List<String> NAMES =
      Arrays.stream(values()).map(QueryOrder::toString).toList();

  /** The order as written, or IllegalArgumentException with a one-line reason. */
  @JsonCreator
  public static QueryOrder parse(String value) {
    if (value != null && NAMES.contains(value)) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
    throw new IllegalArgumentException("order is random or sequential; got '" + value + "'");
  }

  @JsonValue
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
