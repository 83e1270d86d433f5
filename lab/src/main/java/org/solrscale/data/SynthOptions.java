package org.solrscale.data;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.spec.SolrscaleException;

/**
 * What {@code data synth} generates: the number of documents, the seed, the text's vocabulary size
 * and Zipf exponent, how many words a body has, and the facet fields with their cardinalities.
 */
public record SynthOptions(
    long docs,
    long seed,
    int vocabulary,
    double zipf,
    int bodyMin,
    int bodyMax,
    List<Facet> facets) {

  /** Six facets; author_s has thousands of values, the kind that makes faceting expensive. */
  public static final String DEFAULT_FACETS =
      "category_s:10,brand_s:200,color_s:25,size_s:8,country_s:100,author_s:5000";

  static final int MAX_VOCABULARY = 2_000_000;
  static final int MAX_CARDINALITY = 1_000_000;
  static final int MAX_BODY_WORDS = 100_000;
  private static final Pattern RANGE = Pattern.compile("\\s*(\\d+)\\s*(?:\\.\\.|,)\\s*(\\d+)\\s*");
  private static final Pattern FACET = Pattern.compile("\\s*([^:\\s]+)\\s*:\\s*(\\d+)\\s*");
  private static final Pattern FIELD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*_s");

  /** A single-valued string field whose values are drawn from {@code cardinality} distinct ones. */
  public record Facet(String name, int cardinality) {}

  public SynthOptions {
    if (docs < 1) {
      throw SolrscaleException.usage("--docs must be at least 1");
    }
    if (vocabulary < 10 || vocabulary > MAX_VOCABULARY) {
      throw SolrscaleException.usage(
          "--vocabulary must be between 10 and " + MAX_VOCABULARY + "; got " + vocabulary);
    }
    if (!(zipf > 0) || zipf > 10) {
      throw SolrscaleException.usage("--zipf must be greater than 0 and at most 10; got " + zipf);
    }
    if (bodyMin < 1 || bodyMax < bodyMin || bodyMax > MAX_BODY_WORDS) {
      throw SolrscaleException.usage(
          "--body-words needs 1 <= MIN <= MAX <= "
              + MAX_BODY_WORDS
              + "; got "
              + bodyMin
              + ".."
              + bodyMax);
    }
    facets = List.copyOf(facets);
    Set<String> names = new HashSet<>();
    for (Facet f : facets) {
      if (!names.add(f.name())) {
        throw SolrscaleException.usage("facet field " + f.name() + " is given twice in --facets");
      }
    }
  }

  /** MIN..MAX or MIN,MAX, e.g. {@code 20..200}. */
  public static int[] parseRange(String option, String spec) {
    Matcher m = RANGE.matcher(spec);
    if (!m.matches()) {
      throw SolrscaleException.usage(option + " expects MIN..MAX or MIN,MAX; got '" + spec + "'");
    }
    try {
      return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
    } catch (NumberFormatException e) {
      throw SolrscaleException.usage(option + " expects MIN..MAX or MIN,MAX; got '" + spec + "'");
    }
  }

  /** NAME:CARDINALITY,... ; {@code none} (or nothing) for no facets. */
  public static List<Facet> parseFacets(String spec) {
    List<Facet> facets = new ArrayList<>();
    if (spec.isBlank() || spec.trim().equalsIgnoreCase("none")) {
      return facets;
    }
    for (String part : spec.split(",", -1)) {
      Matcher m = FACET.matcher(part);
      if (!m.matches()) {
        throw SolrscaleException.usage(
            "--facets expects NAME:CARDINALITY,...; got '" + part.trim() + "'");
      }
      String name = m.group(1);
      if (!FIELD.matcher(name).matches()) {
        throw SolrscaleException.usage(
            "facet field '"
                + name
                + "' must be a field name ending in _s "
                + "(a single-valued string field in the default configset)");
      }
      long card = m.group(2).length() > 9 ? Long.MAX_VALUE : Long.parseLong(m.group(2));
      if (card < 1 || card > MAX_CARDINALITY) {
        throw SolrscaleException.usage(
            "the cardinality of "
                + name
                + " must be between 1 and "
                + MAX_CARDINALITY
                + "; got "
                + m.group(2));
      }
      facets.add(new Facet(name, (int) card));
    }
    return facets;
  }
}
