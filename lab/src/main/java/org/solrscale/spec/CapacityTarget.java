package org.solrscale.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a recommendation is for: a query rate to serve and, optionally, the objective to serve it
 * within, e.g. {@code rate=500,p99<200ms}. Without an objective the capacity steps' own is meant.
 */
public record CapacityTarget(double rate, Slo slo) {

  /** Parses {@code rate=500[,p99<200ms,...]}; a bad part is a usage error saying what to write. */
  public static CapacityTarget parse(String text) {
    if (text == null || text.isBlank()) {
      throw SolrscaleException.usage("the target is empty; give e.g. 'rate=500,p99<200ms'");
    }
    Double rate = null;
    List<String> bounds = new ArrayList<>();
    for (String part : text.split(",")) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      if (p.startsWith("rate")) {
        String v = p.replaceFirst("^rate\\s*=\\s*", "").replaceFirst("\\s*(/s|qps)$", "");
        try {
          rate = Double.parseDouble(v);
        } catch (NumberFormatException e) {
          rate = Double.NaN;
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
          throw SolrscaleException.usage(
              "target '" + text + "': '" + part.strip() + "' is no rate; write rate=500");
        }
      } else {
        bounds.add(part.strip());
      }
    }
    if (rate == null) {
      throw SolrscaleException.usage(
          "target '" + text + "' names no rate; give e.g. 'rate=500,p99<200ms'");
    }
    return new CapacityTarget(rate, bounds.isEmpty() ? null : Slo.parse(String.join(",", bounds)));
  }

  @Override
  public String toString() {
    return "rate=" + Slo.fmt(rate) + (slo == null ? "" : "," + slo.spec());
  }
}
