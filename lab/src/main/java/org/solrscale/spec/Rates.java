package org.solrscale.spec;

import java.util.ArrayList;
import java.util.List;

/** An open loop's rates as users write them: {@code 100}, or a staircase {@code 50,100,200}. */
public final class Rates {
  private Rates() {}

  /** The rates, each above 0, or IllegalArgumentException with a one-line reason. */
  public static List<Double> parse(String rates) {
    List<Double> list = new ArrayList<>();
    for (String r : rates.split(",", -1)) {
      double v;
      try {
        v = Double.parseDouble(r.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "rate '" + rates + "' is not a number or a list like 50,100,200");
      }
      if (!(v > 0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException("rate '" + rates + "': every rate must be above 0");
      }
      list.add(v);
    }
    return List.copyOf(list);
  }
}
