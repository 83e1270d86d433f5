package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The load model's kind as a bench summary names it: a closed loop of threads, or an open loop at
 * scheduled times.
 */
public enum LoadLoop {
  OPEN,
  CLOSED;

  /** The loop as written (open or closed), or IllegalArgumentException with a one-line reason. */
  @JsonCreator
  public static LoadLoop parse(String value) {
    for (LoadLoop l : values()) {
      if (l.toString().equals(value)) {
        return l;
      }
    }
    throw new IllegalArgumentException("a load model is open or closed; got '" + value + "'");
  }

  @JsonValue
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
