package org.solrscale.spec;

/**
 * One finding of spec validation: an error stops the command, a warning is printed. {@code path} is
 * the JSON pointer of the setting it is about (e.g. {@code /steps/2/bench/duration}), empty when it
 * is about the whole; messages about a file name the place of that setting.
 */
public record Problem(boolean error, String message, String path) {
  public Problem {
    path = path == null ? "" : path;
  }

  public static Problem error(String message) {
    return new Problem(true, message, "");
  }

  public static Problem warning(String message) {
    return new Problem(false, message, "");
  }

  /** The same problem about the setting at {@code pointer} (relative to where it was found). */
  public Problem at(String pointer) {
    return new Problem(error, message, pointer + path);
  }
}
