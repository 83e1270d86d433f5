package org.solrscale.data;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.solrscale.spec.SolrscaleException;

/**
 * Derives a query file from a corpus in one pass: term, boolean and phrase queries whose terms are
 * stratified by document frequency, and variants with filters, sorting and facets. The same corpus,
 * options and seed give the same file.
 */
public final class QueryDeriver {
  private final QueryOptions o;
  private final CorpusProfile profile;
  private final TermPicker terms;
  private final SplittableRandom rnd;
  private final List<String> facetFields;
  private final Map<String, List<String>> filterValues = new LinkedHashMap<>();
  private final List<String> sortFields;
  private long minDf = Long.MAX_VALUE;
  private long maxDf;
  private final Set<Integer> groupsUsed = new HashSet<>();

  private QueryDeriver(CorpusProfile profile, QueryOptions o) {
    this.o = o;
    this.profile = profile;
    this.terms = new TermPicker(profile.df());
    this.rnd = new SplittableRandom(o.seed()).split();
    Map<String, List<String>> values = profile.values();
    this.facetFields =
        o.facetFields().isEmpty()
            ? values.keySet().stream().limit(QueryOptions.DEFAULT_FACET_FIELDS).toList()
            : o.facetFields();
    facetFields.forEach(f -> filterValues.put(f, values.getOrDefault(f, List.of())));
    filterValues.values().removeIf(List::isEmpty);
    this.sortFields = profile.sortFields();
  }

  /** Reads the corpus, then writes {@code count} requests to {@code out}, one per line. */
  public static QueryReport derive(List<Path> inputs, Format format, QueryOptions o, Path out) {
    long t0 = System.nanoTime();
    CorpusStats stats = new CorpusStats();
    CorpusProfile profile = new CorpusProfile(o.field(), Set.copyOf(o.facetFields()), o.seed());
    CorpusTools.readAll(inputs, format, stats, profile::add);
    QueryDeriver d = new QueryDeriver(profile, o);
    d.check(names(inputs));
    Map<String, Integer> byKind = d.write(out, names(inputs));
    return new QueryReport(
        profile.documents(),
        stats.bad(),
        stats.problems(),
        o.field(),
        profile.df().size(),
        profile.termsNotCounted(),
        byKind,
        // phrases come from the documents, not by df: with only those, no term was chosen by it
        d.groupsUsed.isEmpty() ? null : d.minDf,
        d.groupsUsed.isEmpty() ? null : d.maxDf,
        d.groupsUsed.size(),
        d.usesFacets() ? d.facetFields : List.of(),
        o.kinds().contains(QueryKind.SORT) ? d.sortFields : List.of(),
        out.toString(),
        (System.nanoTime() - t0) / 1e9);
  }

  /** Refuses, with what to do instead, options this corpus cannot serve. */
  private void check(String corpus) {
    long n = profile.documents();
    if (n == 0) {
      throw SolrscaleException.usage(corpus + " holds no documents");
    }
    if (profile.withField() == 0) {
      List<String> text = profile.textFields();
      throw SolrscaleException.usage(
          "field '"
              + o.field()
              + "' is in none of the "
              + n
              + " documents of "
              + corpus
              + "; "
              + (text.isEmpty()
                  ? "fields seen: " + list(profile.fields())
                  : "text fields seen: " + list(text))
              + " (choose with --field)");
    }
    if (terms.isEmpty()) {
      throw SolrscaleException.usage(
          "field '"
              + o.field()
              + "' has no terms in any document of "
              + corpus
              + " (choose another with --field)");
    }
    for (String f : o.facetFields()) {
      if (!profile.seen(f)) {
        throw SolrscaleException.usage(
            "facet field '"
                + f
                + "' is in none of the documents of "
                + corpus
                + "; string fields seen: "
                + list(List.copyOf(profile.values().keySet()))
                + " (choose with --facet-fields)");
      }
    }
    if (usesFacets() && filterValues.isEmpty()) {
      throw SolrscaleException.usage(
          "--kinds filter and facet need string fields (names ending _s or"
              + " _ss, or --facet-fields) and "
              + corpus
              + " has none; leave them out of --kinds");
    }
    if (o.kinds().contains(QueryKind.PHRASE) && profile.phrases().isEmpty()) {
      throw SolrscaleException.usage(
          "--kinds phrase needs documents whose " + o.field() + " has two or more terms; none has");
    }
  }

  private boolean usesFacets() {
    return o.kinds().contains(QueryKind.FILTER) || o.kinds().contains(QueryKind.FACET);
  }

  private Map<String, Integer> write(Path out, String corpus) {
    Map<String, Integer> byKind = new LinkedHashMap<>();
    o.kinds().forEach(k -> byKind.put(k.id(), 0));
    try {
      if (out.getParent() != null) {
        Files.createDirectories(out.getParent());
      }
      Outputs.whole(
          out,
          file -> { // whole or not at all, as every data output
            OutputStream os = Outputs.newOutputStream(file);
            if (out.getFileName()
                .toString()
                .endsWith(".gz")) { // as every data output; bench reads it
              os = new GZIPOutputStream(os, 1 << 16);
            }
            try (Writer w =
                new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8))) {
              w.write(
                  "# solrscale data queries: "
                      + o.count()
                      + " requests on "
                      + o.field()
                      + " from "
                      + corpus
                      + " ("
                      + profile.documents()
                      + " documents), seed "
                      + o.seed()
                      + "\n");
              for (QueryKind kind : shuffledKinds()) {
                w.write(request(kind).toString());
                w.write('\n');
                byKind.merge(kind.id(), 1, Integer::sum);
              }
            }
          });
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write " + out + ": " + Corpus.why(e));
    }
    return byKind;
  }

  /**
   * Each kind equally often, in a seeded random order: a fixed rotation would give each of k driver
   * threads the same kind when the rotation has k kinds.
   */
  private List<QueryKind> shuffledKinds() {
    List<QueryKind> kinds = new ArrayList<>(o.count());
    for (int i = 0; i < o.count(); i++) {
      kinds.add(o.kinds().get(i % o.kinds().size()));
    }
    for (int i = kinds.size() - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      kinds.set(j, kinds.set(i, kinds.get(j)));
    }
    return kinds;
  }

  private QueryLine request(QueryKind kind) {
    QueryLine line = new QueryLine();
    switch (kind) {
      case TERM -> line.add("q", o.field() + ":" + chosen(terms.pick(rnd)));
      case AND -> line.add("q", bool("AND"));
      case OR -> line.add("q", bool("OR"));
      case PHRASE -> line.add("q", o.field() + ":" + QueryLine.quoted(pick(profile.phrases())));
      case FILTER -> filtered(line);
      case SORT -> {
        line.add("q", o.field() + ":" + chosen(terms.pick(rnd)));
        line.add(
            "sort",
            sortFields.isEmpty()
                ? "id asc"
                : pick(sortFields) + (rnd.nextBoolean() ? " desc" : " asc"));
      }
      case FACET -> {
        line.add("q", o.field() + ":" + chosen(terms.pick(rnd)));
        line.add("facet", "true");
        facetFields.forEach(f -> line.add("facet.field", f));
        line.add("facet.limit", Integer.toString(o.facetLimit()));
      }
    }
    // the kind names the request's template: the driver reports latency per kind, and bench
    // --templates picks kinds (QueryFile reads _template as ours and does not send it)
    return line.add("rows", Integer.toString(o.rows())).add("_template", kind.id());
  }

  /**
   * Two or three distinct terms. For AND, each further term is frequent enough that, were terms
   * independent, at least one document would still match: df_a * df_b / N >= 1.
   */
  private String bool(String op) {
    int n = 2 + rnd.nextInt(2);
    List<String> picked = new ArrayList<>();
    picked.add(terms.pick(rnd));
    double expected = terms.df(picked.get(0));
    double docs = profile.documents();
    for (int i = 1; i < n; i++) {
      String t = null;
      for (int attempt = 0; attempt < 5 && (t == null || picked.contains(t)); attempt++) {
        t =
            op.equals("AND")
                ? terms.pickAtLeast((long) Math.ceil(docs / expected), rnd)
                : terms.pick(rnd);
      }
      if (!picked.contains(t)) {
        picked.add(t);
        expected = expected * terms.df(t) / docs;
      }
    }
    List<String> parts = picked.stream().map(this::chosen).toList();
    return o.field() + ":(" + String.join(" " + op + " ", parts) + ")";
  }

  /**
   * A term query and a filter on a sampled value (frequent values more often). As for AND, the term
   * is frequent enough that, were the two independent, at least one document would match.
   */
  private void filtered(QueryLine line) {
    String f = pick(List.copyOf(filterValues.keySet()));
    List<String> sample = filterValues.get(f);
    String value = pick(sample);
    double share = (double) Collections.frequency(sample, value) / sample.size();
    line.add("q", o.field() + ":" + chosen(terms.pickAtLeast((long) Math.ceil(1 / share), rnd)));
    line.add("fq", f + ":" + QueryLine.quoted(value));
  }

  /** Records a term's df for the report and returns the term. */
  private String chosen(String term) {
    long df = terms.df(term);
    minDf = Math.min(minDf, df);
    maxDf = Math.max(maxDf, df);
    groupsUsed.add(63 - Long.numberOfLeadingZeros(df));
    return term;
  }

  private <T> T pick(List<T> items) {
    return items.get(rnd.nextInt(items.size()));
  }

  private static String names(List<Path> inputs) {
    List<String> names = inputs.stream().limit(3).map(p -> p.getFileName().toString()).toList();
    return String.join(", ", names)
        + (inputs.size() > 3 ? " and " + (inputs.size() - 3) + " more" : "");
  }

  private static String list(List<String> names) {
    return names.isEmpty()
        ? "none"
        : String.join(", ", names.stream().limit(20).toList()) + (names.size() > 20 ? ", ..." : "");
  }
}
