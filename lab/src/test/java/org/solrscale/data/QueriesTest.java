package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.load.QueryFile;
import org.solrscale.load.QueryRequest;

class QueriesTest {
  static final List<QueryKind> ALL = List.of(QueryKind.values());
  static final Pattern TERM = Pattern.compile("[\\p{L}\\p{N}_'.,]+");

  @TempDir static Path dir;
  static Path corpus;

  /** df of every body_t term and the body texts, computed here independently of the deriver. */
  static final Map<String, Integer> df = new HashMap<>();

  static final List<String> bodies = new ArrayList<>();

  @BeforeAll
  static void corpus() throws IOException {
    corpus = dir.resolve("synth.jsonl");
    Synth.write(
        new SynthOptions(
            20_000, 42, 50_000, 1.1, 10, 60, SynthOptions.parseFacets(SynthOptions.DEFAULT_FACETS)),
        corpus,
        Format.JSONL);
    for (Document d : CorpusToolsTest.read(corpus)) {
      String body = d.first("body_t");
      bodies.add(" " + body + " ");
      new HashSet<>(List.of(body.split(" "))).forEach(t -> df.merge(t, 1, Integer::sum));
    }
  }

  static QueryOptions options(long seed, List<QueryKind> kinds) {
    return new QueryOptions("body_t", 700, seed, kinds, List.of(), 25, 10);
  }

  Path derive(String name, QueryOptions o) {
    Path out = dir.resolve(name);
    QueryDeriver.derive(List.of(corpus), null, o, out);
    return out;
  }

  /** The requests of a query file, each as its decoded parameters in order. */
  static List<List<String[]>> requests(Path file) throws IOException {
    List<List<String[]>> requests = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (line.startsWith("#")) {
        continue;
      }
      List<String[]> params = new ArrayList<>();
      for (String pair : line.split("&")) {
        assertThat(pair).as(line).matches("[^=&\\s]+=[^=&\\s]*");
        String[] kv = pair.split("=", 2);
        params.add(
            new String[] {
              URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
              URLDecoder.decode(kv[1], StandardCharsets.UTF_8)
            });
      }
      requests.add(params);
    }
    return requests;
  }

  static List<String> all(List<String[]> params, String name) {
    return params.stream().filter(p -> p[0].equals(name)).map(p -> p[1]).toList();
  }

  static String kindOf(List<String[]> r) {
    String q = all(r, "q").get(0);
    if (!all(r, "facet").isEmpty()) {
      return "facet";
    }
    if (!all(r, "sort").isEmpty()) {
      return "sort";
    }
    if (!all(r, "fq").isEmpty()) {
      return "filter";
    }
    return q.contains("\"")
        ? "phrase"
        : q.contains(" AND ") ? "and" : q.contains(" OR ") ? "or" : "term";
  }

  @Test
  void everyLineIsUrlEncodedParametersAndEveryKindIsThere() throws IOException {
    Path out = dir.resolve("all.txt");
    QueryReport r = QueryDeriver.derive(List.of(corpus), null, options(42, ALL), out);
    assertThat(Files.readAllLines(out).get(0)).startsWith("# solrscale data queries");
    List<List<String[]>> requests = requests(out);
    assertThat(requests).hasSize(700);
    Map<String, Integer> kinds = new LinkedHashMap<>();
    for (List<String[]> req : requests) {
      assertThat(req.stream().map(p -> p[0]))
          .isSubsetOf(
              "q", "fq", "sort", "rows", "facet", "facet.field", "facet.limit", "_template");
      assertThat(all(req, "q")).hasSize(1);
      assertThat(all(req, "rows")).containsExactly("10");
      // the line names its kind, as told from its parameters
      assertThat(all(req, "_template")).containsExactly(kindOf(req));
      kinds.merge(kindOf(req), 1, Integer::sum);
    }
    assertThat(kinds)
        .containsOnlyKeys("term", "and", "or", "phrase", "filter", "sort", "facet")
        .allSatisfy((k, n) -> assertThat(n).isEqualTo(100));
    assertThat(r.queries()).containsEntry("facet", 100).containsEntry("phrase", 100);
    assertThat(r.documents()).isEqualTo(20_000);
    assertThat(r.minDf()).isPositive().isLessThan(r.maxDf());
  }

  @Test
  void aGzOutputIsGzipAndTheLoadDriverReadsItBack() throws IOException {
    // it wrote plain text under a .gz name
    Path gz = derive("q.txt.gz", options(9, List.of(QueryKind.TERM)));
    Path plain = derive("q.txt", options(9, List.of(QueryKind.TERM)));
    try (var in = new GZIPInputStream(Files.newInputStream(gz))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo(Files.readString(plain));
    }
    assertThat(QueryFile.read(gz))
        .isNotEmpty()
        .map(QueryRequest::params)
        .containsExactlyElementsOf(
            QueryFile.read(plain).stream().map(QueryRequest::params).toList());
  }

  @Test
  void phrasesOnlyReportNoDfRangeRatherThanAnImpossibleOne() {
    // phrases are taken from documents, not chosen by df: the report said "df 9223372036854775807
    // to 0"
    QueryReport r =
        QueryDeriver.derive(
            List.of(corpus),
            null,
            options(3, List.of(QueryKind.PHRASE)),
            dir.resolve("only-phrases.txt"));
    assertThat(r.minDf()).isNull();
    assertThat(r.maxDf()).isNull();
    assertThat(r.dfGroups()).isZero();
  }

  @Test
  void termsComeFromTheCorpusAndTheirDfsSpanOrdersOfMagnitude() throws IOException {
    Path out =
        derive("terms.txt", options(7, List.of(QueryKind.TERM, QueryKind.AND, QueryKind.OR)));
    List<Integer> dfs = new ArrayList<>();
    for (List<String[]> req : requests(out)) {
      String q = all(req, "q").get(0);
      assertThat(q).matches("body_t:(\\w+|\\((\\w+)( (AND|OR) \\w+){1,2}\\))");
      Matcher m = TERM.matcher(q.substring("body_t:".length()).replaceAll("\\b(AND|OR)\\b", ""));
      while (m.find()) {
        assertThat(df).as(q).containsKey(m.group());
        dfs.add(df.get(m.group()));
      }
    }
    int min = dfs.stream().mapToInt(i -> i).min().getAsInt();
    int max = dfs.stream().mapToInt(i -> i).max().getAsInt();
    assertThat(min).isLessThanOrEqualTo(10);
    assertThat(max).isGreaterThanOrEqualTo(100 * min).isGreaterThan(10_000);
    // stratified: the rare half of the log range is as well represented as the frequent half
    double mid = Math.sqrt((double) min * max);
    assertThat(dfs.stream().filter(d -> d < mid).count()).isGreaterThan(dfs.size() / 4);
  }

  @Test
  void phrasesAreConsecutiveTermsOfSomeDocument() throws IOException {
    Path out = derive("phrases.txt", options(3, List.of(QueryKind.PHRASE)));
    for (List<String[]> req : requests(out)) {
      String q = all(req, "q").get(0);
      assertThat(q).matches("body_t:\"\\w+ \\w+( \\w+)?\"");
      String phrase = " " + q.substring("body_t:\"".length(), q.length() - 1) + " ";
      assertThat(bodies.stream().anyMatch(b -> b.contains(phrase))).as(q).isTrue();
    }
  }

  @Test
  void variantsFilterSortAndFacetOnTheCorpusFields() throws IOException {
    Path out =
        derive(
            "variants.txt", options(5, List.of(QueryKind.FILTER, QueryKind.SORT, QueryKind.FACET)));
    for (List<String[]> req : requests(out)) {
      switch (kindOf(req)) {
        case "filter" ->
            assertThat(all(req, "fq").get(0))
                .matches("(category|brand|color|size|country|author)_s:\"[a-z]+\"");
        case "sort" ->
            assertThat(all(req, "sort").get(0))
                .matches("(price_d|stock_i|popularity_i|created_dt) (asc|desc)");
        case "facet" -> {
          assertThat(all(req, "facet")).containsExactly("true");
          assertThat(all(req, "facet.field"))
              .containsExactly(
                  "category_s", "brand_s", "color_s", "size_s", "country_s", "author_s");
          assertThat(all(req, "facet.limit")).containsExactly("25");
        }
        default -> throw new AssertionError("unexpected request " + kindOf(req));
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameFileAndAnotherSeedAnother() throws IOException {
    Path a = derive("a.txt", options(11, ALL));
    Path b = derive("b.txt", options(11, ALL));
    Path c = derive("c.txt", options(12, ALL));
    assertThat(Files.readAllBytes(b)).isEqualTo(Files.readAllBytes(a));
    assertThat(Files.readAllBytes(c)).isNotEqualTo(Files.readAllBytes(a));
  }

  @Test
  void withoutNumericFieldsSortFallsBackToId() throws IOException {
    Path small = dir.resolve("small.jsonl");
    Files.writeString(
        small,
        "{\"id\":\"1\",\"text_t\":\"red fox jumps\",\"n_i\":[1,2]}\n"
            + "{\"id\":\"2\",\"text_t\":\"lazy red dog\"}\n");
    Path out = dir.resolve("small.txt");
    QueryDeriver.derive(
        List.of(small),
        null,
        new QueryOptions("text_t", 5, 1, List.of(QueryKind.SORT), List.of(), 25, 3),
        out);
    assertThat(requests(out)).allSatisfy(r -> assertThat(all(r, "sort")).containsExactly("id asc"));
  }

  @Test
  void unusableOptionsAreOneLineUsageErrors() throws IOException {
    assertThatThrownBy(
            () -> derive("x.txt", new QueryOptions("nope_t", 10, 1, ALL, List.of(), 25, 10)))
        .hasMessageContaining("field 'nope_t' is in none of the 20000 documents")
        .hasMessageContaining("text fields seen: title_t, body_t");
    assertThatThrownBy(
            () ->
                derive("x.txt", new QueryOptions("body_t", 10, 1, ALL, List.of("nope_s"), 25, 10)))
        .hasMessageContaining("facet field 'nope_s' is in none");
    Path empty = Files.writeString(dir.resolve("empty.jsonl"), "");
    assertThatThrownBy(
            () -> QueryDeriver.derive(List.of(empty), null, options(1, ALL), dir.resolve("e.txt")))
        .hasMessageContaining("holds no documents");
    Path plain =
        Files.writeString(dir.resolve("plain.jsonl"), "{\"id\":\"1\",\"body_t\":\"one two\"}\n");
    assertThatThrownBy(
            () -> QueryDeriver.derive(List.of(plain), null, options(1, ALL), dir.resolve("p.txt")))
        .hasMessageContaining("leave them out of --kinds");
    assertThatThrownBy(() -> QueryKind.parseList("term,fuzzy"))
        .hasMessageContaining("unknown query kind 'fuzzy'");
    assertThatThrownBy(() -> new QueryOptions("body_t", 0, 1, ALL, List.of(), 25, 10))
        .hasMessageContaining("--count");
  }

  @Test
  void tokensFollowTheStandardTokenizerRoughly() {
    assertThat(Tokens.of("Don't STOP at 3.14, e.g. foo-bar_baz 1,000 Ünïcode"))
        .containsExactly(
            "don't", "stop", "at", "3.14", "e.g", "foo", "bar_baz", "1,000", "ünïcode");
    assertThat(Tokens.of("  ")).isEmpty();
  }

  @Test
  void termPickerDrawsEveryLogGroupAboutEquallyOften() {
    Map<String, long[]> dfs = new HashMap<>();
    for (int i = 0; i < 1000; i++) {
      dfs.put("t" + i, new long[] {1 + i % 3}); // many rare terms
    }
    dfs.put("common", new long[] {900}); // one frequent term
    TermPicker picker = new TermPicker(dfs);
    assertThat(picker.groups()).isEqualTo(3); // df 1, df 2-3, df 512-1023
    SplittableRandom rnd = new SplittableRandom(1);
    int common = 0;
    for (int i = 0; i < 3000; i++) {
      common += picker.pick(rnd).equals("common") ? 1 : 0;
    }
    assertThat(common).isBetween(900, 1100);
    assertThat(picker.pickAtLeast(500, rnd)).isEqualTo("common");
    assertThat(picker.pickAtLeast(5000, rnd))
        .isEqualTo("common"); // none that frequent: the top group
  }
}
