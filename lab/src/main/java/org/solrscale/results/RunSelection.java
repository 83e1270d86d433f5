package org.solrscale.results;

import java.nio.file.Path;
import org.solrscale.spec.SolrscaleException;

/**
 * What compare was given: a run directory, optionally narrowed to one combination ({@code
 * DIR#c001}) or one repeat of it ({@code DIR#c001/r2}).
 */
public record RunSelection(Path dir, String combination, Integer repeat) {

  public static RunSelection parse(String arg) {
    int hash = arg.lastIndexOf('#');
    if (hash < 0) {
      return new RunSelection(Path.of(arg), null, null);
    }
    Path dir = Path.of(arg.substring(0, hash));
    String rest = arg.substring(hash + 1);
    if (rest.isEmpty()) {
      throw SolrscaleException.usage(arg + ": name a combination after #, e.g. " + dir + "#c001");
    }
    int slash = rest.indexOf('/');
    if (slash < 0) {
      return new RunSelection(dir, rest, null);
    }
    String r = rest.substring(slash + 1);
    if (!r.matches("r[0-9]+")) {
      throw SolrscaleException.usage(
          arg
              + ": a repeat is written r1, r2, ..., e.g. "
              + dir
              + "#"
              + rest.substring(0, slash)
              + "/r1");
    }
    return new RunSelection(dir, rest.substring(0, slash), Integer.parseInt(r.substring(1)));
  }

  /** How to show it: DIR, DIR#c001 or DIR#c001/r2. */
  public String label() {
    return dir
        + (combination == null ? "" : "#" + combination)
        + (repeat == null ? "" : "/r" + repeat);
  }
}
