package org.solrscale.spec;

/**
 * The share of failed requests above which a bench step measured nothing worth keeping: written as
 * a percentage ({@code 1%}, {@code 0.5 %}) or a fraction ({@code 0.01}); {@code 100%} keeps every
 * measurement.
 */
public final class ErrorRate {
  /** One request in a hundred. */
  public static final String DEFAULT = "1%";

  private ErrorRate() {}

  /** The share in [0, 1], or IllegalArgumentException with a one-line reason. */
  public static double parse(String value) {
    String v = value.strip();
    boolean percent = v.endsWith("%");
    double share;
    try {
      share = Double.parseDouble(percent ? v.substring(0, v.length() - 1).strip() : v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "max error rate '" + value + "' is not a percentage like 1% or a fraction like 0.01");
    }
    share = percent ? share / 100 : share;
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException(
          "max error rate '" + value + "' must be between 0% and 100%");
    }
    return share;
  }
}
