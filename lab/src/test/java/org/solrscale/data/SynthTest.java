package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SynthTest {
  @TempDir Path dir;

  static SynthOptions options(long docs, long seed) {
    return new SynthOptions(
        docs, seed, 50_000, 1.1, 20, 200, SynthOptions.parseFacets(SynthOptions.DEFAULT_FACETS));
  }

  static List<Document> generate(SynthOptions o) {
    Synth synth = new Synth(o);
    List<Document> docs = new ArrayList<>();
    for (long i = 0; i < o.docs(); i++) {
      docs.add(synth.document(i));
    }
    return docs;
  }

  @Test
  void theSameSeedGivesTheSameBytesAndAnotherSeedOtherBytes() throws IOException {
    Path a = dir.resolve("a.jsonl");
    Path b = dir.resolve("b.jsonl");
    Path c = dir.resolve("c.jsonl");
    Synth.write(options(500, 42), a, Format.JSONL);
    Synth.write(options(500, 42), b, Format.JSONL);
    Synth.write(options(500, 43), c, Format.JSONL);
    assertThat(Files.readAllBytes(b)).isEqualTo(Files.readAllBytes(a));
    assertThat(Files.readAllBytes(c)).isNotEqualTo(Files.readAllBytes(a));
  }

  @Test
  void aDocumentDependsOnlyOnItsNumberNotOnWhatWasGeneratedBefore() {
    SynthOptions o = options(50, 7);
    List<Document> forward = generate(o);
    Synth other = new Synth(o);
    for (int i = 49; i >= 0; i--) {
      assertThat(other.document(i)).isEqualTo(forward.get(i));
    }
  }

  @Test
  void everyDocumentHasEveryFieldAndTheRequestedBodyLength() {
    SynthOptions o = new SynthOptions(300, 1, 1000, 1.1, 5, 9, SynthOptions.parseFacets("a_s:3"));
    Synth synth = new Synth(o);
    Set<String> ids = new HashSet<>();
    for (Document d : generate(o)) {
      assertThat(d.fields().keySet()).containsExactlyInAnyOrderElementsOf(synth.fields());
      assertThat(d.first("body_t").split(" ")).hasSizeBetween(5, 9);
      assertThat(d.fields().get("tags_ss")).hasSizeBetween(1, 5).doesNotHaveDuplicates();
      assertThat(d.first("created_dt"))
          .matches("20(1[5-9]|2[0-4])-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
      assertThat((Double) d.fields().get("price_d").get(0)).isBetween(1.0, 2000.0);
      ids.add(d.first("id"));
    }
    assertThat(ids).hasSize(300);
  }

  @Test
  void facetsStayWithinTheirCardinalityAndTheBigOneReachesThousands() {
    Map<String, Set<String>> values = new HashMap<>();
    Map<String, Map<String, Integer>> counts = new HashMap<>();
    for (Document d : generate(options(5000, 3))) {
      for (SynthOptions.Facet f : options(1, 1).facets()) {
        values.computeIfAbsent(f.name(), k -> new HashSet<>()).add(d.first(f.name()));
        counts
            .computeIfAbsent(f.name(), k -> new HashMap<>())
            .merge(d.first(f.name()), 1, Integer::sum);
      }
    }
    assertThat(values.get("category_s")).hasSize(10);
    assertThat(values.get("size_s")).hasSize(8);
    assertThat(values.get("brand_s").size()).isBetween(100, 200);
    assertThat(values.get("author_s").size()).isBetween(1000, 5000);
    // skewed: the most common category is on far more documents than the rarest
    Map<String, Integer> category = counts.get("category_s");
    assertThat(category.values().stream().mapToInt(i -> i).max().getAsInt())
        .isGreaterThan(5 * category.values().stream().mapToInt(i -> i).min().getAsInt());
  }

  @Test
  void wordsFollowZipfTheMostCommonFarAboveTheMedian() {
    Map<String, Integer> freq = new HashMap<>();
    for (Document d : generate(options(2000, 5))) {
      for (String w : d.first("body_t").split(" ")) {
        freq.merge(w, 1, Integer::sum);
      }
    }
    List<Integer> sorted = freq.values().stream().sorted().toList();
    int median = sorted.get(sorted.size() / 2);
    assertThat(sorted.get(sorted.size() - 1)).isGreaterThan(100 * median);
    assertThat(freq.keySet()).allSatisfy(w -> assertThat(w).matches("[a-z]{4,8}"));
  }

  @ParameterizedTest
  @EnumSource(value = Format.class, names = "CSV_PLAIN", mode = EnumSource.Mode.EXCLUDE)
  void everyFormatReadsBackWithoutABadItem(Format format) throws IOException {
    SynthOptions o = options(300, 11);
    Path f = dir.resolve("synth." + format.extension() + ".gz");
    CorpusStats s = Synth.write(o, f, format);
    assertThat(s.written()).isEqualTo(300);
    assertThat(s.bytesOut()).isPositive();
    List<Item> items = CorpusToolsTest.readItems(f);
    assertThat(items).allSatisfy(i -> assertThat(i.ok()).as(i.where() + " " + i.error()).isTrue());
    assertThat(CorpusToolsTest.text(items.stream().map(Item::document).toList()))
        .isEqualTo(CorpusToolsTest.text(generate(o)));
  }

  @Test
  void theVocabularyIsUniquePronounceableLowercase() {
    String[] words = Vocabulary.words(360_000, 1_000_003); // two, three and some four syllables
    assertThat(new HashSet<>(List.of(words))).hasSize(words.length);
    Pattern syllables = Pattern.compile("([bdfgklmnprstvz][aeiou]){2,4}");
    assertThat(Arrays.stream(words).allMatch(syllables.asMatchPredicate())).isTrue();
    assertThat(words[words.length - 1]).hasSize(8);
    assertThat(Vocabulary.words(10, 1)).isNotEqualTo(Vocabulary.words(10, 2));
  }

  @Test
  void zipfDrawsMatchTheirProbabilities() {
    Zipf z = new Zipf(10, 1.0);
    int[] seen = new int[10];
    SplittableRandom rnd = new SplittableRandom(1);
    for (int i = 0; i < 200_000; i++) {
      seen[z.sample(rnd)]++;
    }
    double h = 0;
    for (int k = 1; k <= 10; k++) {
      h += 1.0 / k;
    }
    for (int k = 0; k < 10; k++) {
      assertThat(z.probability(k)).isCloseTo(1.0 / (k + 1) / h, offset(1e-12));
      assertThat(seen[k] / 200_000.0).isCloseTo(z.probability(k), offset(0.005));
    }
  }

  @Test
  void badOptionsAreOneLineUsageErrors() {
    assertThatThrownBy(() -> options(0, 1)).hasMessage("--docs must be at least 1");
    assertThatThrownBy(() -> SynthOptions.parseFacets("x"))
        .hasMessage("--facets expects NAME:CARDINALITY,...; got 'x'");
    assertThatThrownBy(() -> SynthOptions.parseFacets("brand:10"))
        .hasMessageContaining("must be a field name ending in _s");
    assertThatThrownBy(() -> SynthOptions.parseFacets("a_s:0"))
        .hasMessageContaining("between 1 and");
    assertThatThrownBy(() -> SynthOptions.parseFacets("a_s:99999999999"))
        .hasMessageContaining("between 1 and");
    assertThatThrownBy(
            () -> new SynthOptions(1, 1, 100, 1.1, 1, 2, SynthOptions.parseFacets("a_s:1,a_s:2")))
        .hasMessageContaining("given twice");
    assertThatThrownBy(() -> SynthOptions.parseRange("--body-words", "20-200"))
        .hasMessage("--body-words expects MIN..MAX or MIN,MAX; got '20-200'");
    assertThatThrownBy(() -> new SynthOptions(1, 1, 100, 1.1, 9, 3, List.of()))
        .hasMessageContaining("MIN <= MAX");
    assertThatThrownBy(() -> new SynthOptions(1, 1, 5, 1.1, 1, 3, List.of()))
        .hasMessageContaining("--vocabulary");
    assertThatThrownBy(() -> new SynthOptions(1, 1, 100, 0, 1, 3, List.of()))
        .hasMessageContaining("--zipf");
    assertThat(SynthOptions.parseRange("--body-words", "5,9")).containsExactly(5, 9);
    assertThat(SynthOptions.parseFacets("none")).isEmpty();
  }
}
