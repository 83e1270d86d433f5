package org.solrscale.spec;

import java.util.List;
import java.util.TreeSet;

/** The small checks steps share, each adding a located problem to a list. */
final class Checks {
  private Checks() {}

  /** A duration like 90s, 5m or 500ms (null: not given, nothing to check). */
  static void duration(List<Problem> out, String path, String value) {
    if (value != null) {
      problem(out, path, () -> Durations.parse(value));
    }
  }

  /** A number within [min, max] (null: not given). */
  static void range(List<Problem> out, String path, String what, Number value, long min, long max) {
    if (value != null && (value.longValue() < min || value.longValue() > max)) {
      out.add(
          Problem.error(
                  what
                      + " "
                      + value
                      + " must be "
                      + (max == Long.MAX_VALUE
                          ? "at least " + min
                          : "between " + min + " and " + max))
              .at(path));
    }
  }

  static void oneOf(
      List<Problem> out, String path, String what, String value, List<String> allowed) {
    if (value != null && !allowed.contains(value)) {
      out.add(
          Problem.error(what + " '" + value + "' is not " + String.join(" or ", allowed)).at(path));
    }
  }

  /** Runs a parser; its IllegalArgumentException becomes the problem. */
  static void problem(List<Problem> out, String path, Runnable parse) {
    try {
      parse.run();
    } catch (IllegalArgumentException e) {
      out.add(Problem.error(e.getMessage()).at(path));
    }
  }

  /**
   * The step's collection must be there when it runs: in the cluster, or made by an earlier step.
   */
  static void collection(List<Problem> out, StepSpec step, StepContext c, boolean named) {
    String target = step.collectionIn(c);
    String what = step.kind() + " step '" + step.name() + "'";
    if (target == null) {
      out.add(Problem.error(what + " needs a collection, and the cluster defines none"));
    } else if (c.knowsCollections() && !c.collections().containsKey(target)) {
      out.add(
          Problem.error(
                  what
                      + ": there is no collection '"
                      + target
                      + "' when it runs; "
                      + (c.collections().isEmpty()
                          ? "the cluster has none"
                          : "there are "
                              + String.join(", ", new TreeSet<>(c.collections().keySet())))
                      + " (add it to cluster.collections or create it with a collection step before)")
              .at(named ? "/collection" : ""));
    }
  }
}
