package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service level objective: latency percentiles under limits and a share of errors, e.g. {@code
 * p99<200ms,errors<0.1%}. A probe meets it when every bound holds.
 */
public record Slo(
    @JsonProperty("latency_ms") Map<String, Double> latencyMs,
    @JsonProperty("max_error_rate") Double maxErrorRate) {

  private static final Pattern LATENCY =
      Pattern.compile("(p50|p90|p95|p99|p99\\.9|max)\\s*<\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s)");
  private static final Pattern ERRORS =
      Pattern.compile("errors\\s*<\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(%?)");

  /**
   * Parses {@code p99<200ms,errors<0.1%}; a bad, empty or repeated term is a usage error saying
   * what is accepted (a repeated bound is refused rather than one silently winning).
   */
  public static Slo parse(String text) {
    Map<String, Double> latency = new LinkedHashMap<>();
    Double errors = null;
    if (text == null || text.isBlank()) {
      throw SolrscaleException.usage("the slo is empty; give e.g. 'p99<200ms,errors<0.1%'");
    }
    // -1 keeps trailing empty terms, so 'p99<50ms,,' is refused instead of read as 'p99<50ms'
    for (String part : text.split(",", -1)) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      Matcher l = LATENCY.matcher(p);
      Matcher e = ERRORS.matcher(p);
      if (p.isEmpty()) {
        throw SolrscaleException.usage(
            "slo '" + text + "' has an empty term; remove the extra comma, e.g. 'p99<200ms'");
      } else if (l.matches()) {
        double v = Double.parseDouble(l.group(2)) * (l.group(3).equals("s") ? 1000 : 1);
        if (latency.containsKey(l.group(1))) {
          throw SolrscaleException.usage(
              "slo '" + text + "' bounds " + l.group(1) + " twice; keep one bound per percentile");
        }
        if (v <= 0) {
          throw SolrscaleException.usage(
              "slo '" + text + "': " + part.strip() + " is no bound; give a limit above 0");
        }
        latency.put(l.group(1), v);
      } else if (e.matches()) {
        double v = Double.parseDouble(e.group(1)) / (e.group(2).isEmpty() ? 1 : 100);
        if (errors != null) {
          throw SolrscaleException.usage(
              "slo '" + text + "' bounds errors twice; keep one, e.g. errors<0.1%");
        }
        if (v >= 1) {
          throw SolrscaleException.usage(
              "slo '"
                  + text
                  + "': "
                  + part.strip()
                  + " allows every request to fail; give a"
                  + " bound below 100%, e.g. errors<0.1%");
        }
        errors = v;
      } else {
        throw SolrscaleException.usage(
            "slo '"
                + text
                + "': '"
                + part.strip()
                + "' is not a bound; give PERCENTILE<LIMIT (p50, p90, p95, p99, p99.9 or max;"
                + " ms or s) or errors<PCT%, comma-separated, e.g. 'p99<200ms,errors<0.1%'");
      }
    }
    if (latency.isEmpty()) {
      throw SolrscaleException.usage(
          "slo '" + text + "' bounds no latency; add one, e.g. p99<200ms");
    }
    return new Slo(Map.copyOf(latency), errors == null ? 0.0 : errors);
  }

  /** The highest percentile bounded, e.g. 99.0 for p99 (100 for max). */
  public double highestPercentile() {
    return latencyMs.keySet().stream().mapToDouble(Slo::percentile).max().orElse(50);
  }

  /** The bound on the highest percentile, as measurements name it: p99, p99.9 or max. */
  public String highestBound() {
    return latencyMs.keySet().stream()
        .max((a, b) -> Double.compare(percentile(a), percentile(b)))
        .orElseThrow();
  }

  static double percentile(String key) {
    return key.equals("max") ? 100 : Double.parseDouble(key.substring(1));
  }

  /**
   * Requests a probe needs so that its estimate of the highest bounded percentile q has its rank
   * known within half the tail beyond q, (1 - q) / 2, at 95 % confidence: n = z^2 q (1 - q) / ((1 -
   * q) / 2)^2 with z = 1.96 (1,522 for p99, 15,352 for p99.9); at least 200. A bound on max is
   * judged as p99.9.
   */
  public long requiredRequests() {
    double q = Math.min(highestPercentile(), 99.9) / 100;
    double eps = (1 - q) / 2;
    return Math.max(200, (long) Math.ceil(1.96 * 1.96 * q * (1 - q) / (eps * eps)));
  }

  /** Why a measurement fails the objective, or null when it meets it. */
  public String failure(Map<String, Double> measuredMs, double errorRate) {
    List<String> why = new ArrayList<>();
    latencyMs.forEach(
        (k, limit) -> {
          Double v = measuredMs.get(k);
          if (v == null || v >= limit) {
            why.add(
                String.format(
                    Locale.ROOT, "%s %s ms >= %s ms", k, v == null ? "?" : fmt(v), fmt(limit)));
          }
        });
    if (errorRate > maxErrorRate) {
      why.add(
          String.format(
              Locale.ROOT, "errors %s %% > %s %%", fmt(errorRate * 100), fmt(maxErrorRate * 100)));
    }
    return why.isEmpty() ? null : String.join(", ", why);
  }

  /**
   * How close a measurement is to a latency bound: the largest measured / limit over the bounds (1
   * is on the bound).
   */
  public double closeness(Map<String, Double> measuredMs) {
    double c = 0;
    for (Map.Entry<String, Double> b : latencyMs.entrySet()) {
      Double v = measuredMs.get(b.getKey());
      c = Math.max(c, v == null ? Double.POSITIVE_INFINITY : v / b.getValue());
    }
    return c;
  }

  /**
   * The objective as written and as {@link #parse} reads it back: the latency bounds, lowest
   * percentile first, in ms, then the error bound when one above 0 was given ({@code p99<200ms} or
   * {@code p99<200ms,errors<0.1%}). This is the form in capacity.json.
   */
  public String spec() {
    List<String> parts = new ArrayList<>();
    latencyMs.entrySet().stream()
        .sorted(Map.Entry.comparingByKey((a, b) -> Double.compare(percentile(a), percentile(b))))
        .forEach(e -> parts.add(e.getKey() + "<" + fmt(e.getValue()) + "ms"));
    if (maxErrorRate > 0) {
      parts.add("errors<" + fmt(maxErrorRate * 100) + "%");
    }
    return String.join(",", parts);
  }

  /**
   * The objective for people: {@link #spec} plus "(no errors)" when no error is allowed, because
   * "errors<0%" reads as a bound nothing can meet while a probe fails only on errors above it.
   */
  @Override
  public String toString() {
    return maxErrorRate > 0 ? spec() : spec() + " (no errors)";
  }

  /** How an objective read back from capacity.json (any version) reads for people. */
  public static String describe(String spec) {
    try {
      return parse(spec).toString();
    } catch (SolrscaleException e) {
      return spec; // a file edited by hand: shown as it is rather than refused
    }
  }

  /** A number as people write it: 200, 0.1, 2.5, 0.625 (four significant digits at most). */
  public static String fmt(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.valueOf((long) v);
    }
    return new java.math.BigDecimal(v)
        .round(new java.math.MathContext(4))
        .stripTrailingZeros()
        .toPlainString();
  }
}
