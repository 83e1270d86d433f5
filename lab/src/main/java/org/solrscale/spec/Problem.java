package org.solrscale.spec;

/** One finding of spec validation: an error stops the command, a warning is printed. */
public record Problem(boolean error, String message) {
  public static Problem error(String message) {
    return new Problem(true, message);
  }

  public static Problem warning(String message) {
    return new Problem(false, message);
  }
}
