package org.solrscale.data;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * What one pass over a corpus learns for deriving queries: the document frequency of each term of
 * one text field, short runs of consecutive terms for phrases, string fields with sampled values,
 * and sortable fields. Memory is bounded whatever the corpus size.
 */
final class CorpusProfile {
  /** Terms first seen after this many distinct ones are not counted (see termsNotCounted). */
  static final int MAX_TERMS = 200_000;

  static final int PHRASES = 5_000;
  static final int VALUES_PER_FIELD = 1_000;

  /** Field names remembered per kind: a corpus with more is not a usual Solr corpus. */
  static final int MAX_FIELDS = 256;

  private final String field;
  private final Set<String> facetNames;
  private final SplittableRandom rnd;
  private long documents;
  private long withField;
  private final Map<String, long[]> df = new HashMap<>();
  private long termsNotCounted;
  private final Reservoir<String> phrases = new Reservoir<>(PHRASES);
  private final Map<String, Reservoir<String>> values = new LinkedHashMap<>();
  private final Set<String> sortable = new LinkedHashSet<>();
  private final Set<String> multiValued = new HashSet<>();
  private final Set<String> textFields = new LinkedHashSet<>();
  private final Set<String> fields = new LinkedHashSet<>();

  /**
   * Profiles the terms of {@code field}; samples the values of string fields (names ending _s or
   * _ss) and of {@code facetNames}.
   */
  CorpusProfile(String field, Set<String> facetNames, long seed) {
    this.field = field;
    this.facetNames = Set.copyOf(facetNames);
    this.rnd = new SplittableRandom(seed);
  }

  void add(Document d) {
    documents++;
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      String name = f.getKey();
      List<Object> vs = f.getValue();
      remember(fields, name);
      if (name.equals(field)) {
        addText(vs);
      }
      if (isFacet(name) && (values.containsKey(name) || values.size() < MAX_FIELDS)) {
        Reservoir<String> r = values.computeIfAbsent(name, n -> new Reservoir<>(VALUES_PER_FIELD));
        vs.forEach(v -> r.offer(String.valueOf(v), rnd));
      }
      if (isSortable(name)) {
        remember(sortable, name);
        if (vs.size() > 1) {
          multiValued.add(name); // Solr cannot sort on a multi-valued field
        }
      }
      if (!textFields.contains(name) && vs.get(0) instanceof String s && s.indexOf(' ') >= 0) {
        remember(textFields, name);
      }
    }
  }

  private void addText(List<Object> vs) {
    withField++;
    Set<String> uncounted = null;
    List<String> run = null;
    for (Object v : vs) {
      List<String> terms = Tokens.of(String.valueOf(v));
      for (String t : terms) {
        // {df, the last document counted}: one lookup per occurrence, no per-document set
        long[] n = df.get(t);
        if (n == null && df.size() < MAX_TERMS) {
          df.put(t, new long[] {1, withField});
        } else if (n == null) {
          uncounted = uncounted == null ? new HashSet<>() : uncounted;
          uncounted.add(t);
        } else if (n[1] != withField) {
          n[0]++;
          n[1] = withField;
        }
      }
      if (run == null && terms.size() >= 2) {
        run = terms; // one value only: positionIncrementGap keeps phrases within a value
      }
    }
    termsNotCounted += uncounted == null ? 0 : uncounted.size();
    if (run != null) {
      int len = run.size() >= 3 ? 2 + rnd.nextInt(2) : 2;
      int start = rnd.nextInt(run.size() - len + 1);
      phrases.offer(String.join(" ", run.subList(start, start + len)), rnd);
    }
  }

  private boolean isFacet(String name) {
    return name.endsWith("_s") || name.endsWith("_ss") || facetNames.contains(name);
  }

  private static boolean isSortable(String name) {
    return name.endsWith("_i")
        || name.endsWith("_l")
        || name.endsWith("_d")
        || name.endsWith("_f")
        || name.endsWith("_dt");
  }

  private static void remember(Set<String> names, String name) {
    if (names.size() < MAX_FIELDS) {
      names.add(name);
    }
  }

  long documents() {
    return documents;
  }

  /** Documents that have the profiled field. */
  long withField() {
    return withField;
  }

  /** Term -> {number of documents whose field holds it, internal}. */
  Map<String, long[]> df() {
    return df;
  }

  /** Occurrences (per document) of terms that came after the term limit and went uncounted. */
  long termsNotCounted() {
    return termsNotCounted;
  }

  /** Runs of two or three consecutive terms, each from a different document. */
  List<String> phrases() {
    return phrases.items();
  }

  /** The string fields in first-seen order, with sampled values (frequent values more often). */
  Map<String, List<String>> values() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    values.forEach((k, r) -> out.put(k, r.items()));
    return out;
  }

  /** Numeric and date fields never seen with more than one value, in first-seen order. */
  List<String> sortFields() {
    List<String> out = new ArrayList<>(sortable);
    out.removeAll(multiValued);
    return out;
  }

  /** Fields with a value containing a space, in first-seen order: likely text fields. */
  List<String> textFields() {
    return new ArrayList<>(textFields);
  }

  boolean seen(String name) {
    return fields.contains(name);
  }

  List<String> fields() {
    return new ArrayList<>(fields);
  }
}
