package org.solrscale.data;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.solrscale.spec.SolrscaleException;

/**
 * Generates a synthetic corpus. Document i depends only on the seed, i and the options, so any
 * range of documents can be generated alone with the same bytes. Not thread-safe: one per thread.
 */
public final class Synth {
  static final int TITLE_MIN = 3;
  static final int TITLE_MAX = 10;
  static final int TAGS = 500;
  static final int MAX_TAGS_PER_DOC = 5;

  /** Facet values and tags follow classic Zipf (s = 1): a few values are on most documents. */
  static final double VALUE_SKEW = 1.0;

  static final long FIRST_DATE = Instant.parse("2015-01-01T00:00:00Z").getEpochSecond();
  static final long LAST_DATE = Instant.parse("2025-01-01T00:00:00Z").getEpochSecond();
  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

  /** Any salt but 0, which would make the most frequent word "baba". */
  private static final long BODY_SALT = 1_000_003;

  private static final long TAG_SALT = 7919;

  private final SynthOptions o;
  private final long base;
  private final PackedWords words;
  private final Zipf wordRanks;
  private final String[][] facetValues;
  private final Zipf[] facetRanks;
  private final String[] tags;
  private final Zipf tagRanks;

  public Synth(SynthOptions o) {
    this.o = o;
    this.base = mix(o.seed());
    this.words = new PackedWords(Vocabulary.words(o.vocabulary(), BODY_SALT));
    this.wordRanks = new Zipf(o.vocabulary(), o.zipf());
    int n = o.facets().size();
    this.facetValues = new String[n][];
    this.facetRanks = new Zipf[n];
    for (int f = 0; f < n; f++) {
      SynthOptions.Facet facet = o.facets().get(f);
      // salted by name so that each facet has its own words, the same whatever its position
      facetValues[f] = Vocabulary.words(facet.cardinality(), facet.name().hashCode());
      facetRanks[f] = new Zipf(facet.cardinality(), VALUE_SKEW);
    }
    this.tags = Vocabulary.words(TAGS, TAG_SALT);
    this.tagRanks = new Zipf(TAGS, VALUE_SKEW);
  }

  /** The fields every document has, in order (CSV's columns). */
  public List<String> fields() {
    List<String> names = new ArrayList<>(List.of("id", "title_t", "body_t"));
    o.facets().forEach(f -> names.add(f.name()));
    names.addAll(List.of("tags_ss", "price_d", "stock_i", "popularity_i", "created_dt"));
    return names;
  }

  /** Document {@code i} (from 0). */
  public Document document(long i) {
    SplittableRandom rnd = new SplittableRandom(mix(base + i * GOLDEN_GAMMA));
    Document d = new Document().add("id", "doc-" + i);
    d.add(
        "title_t", words.text(rnd, wordRanks, TITLE_MIN + rnd.nextInt(TITLE_MAX - TITLE_MIN + 1)));
    d.add(
        "body_t",
        words.text(rnd, wordRanks, o.bodyMin() + rnd.nextInt(o.bodyMax() - o.bodyMin() + 1)));
    for (int f = 0; f < facetValues.length; f++) {
      d.add(o.facets().get(f).name(), facetValues[f][facetRanks[f].sample(rnd)]);
    }
    addTags(d, rnd);
    // log-uniform: many cheap and obscure items, a long tail of dear and popular ones
    d.add("price_d", Math.round(logUniform(rnd, 2000) * 100) / 100.0);
    d.add("stock_i", (long) rnd.nextInt(1000));
    d.add("popularity_i", (long) logUniform(rnd, 100_001) - 1);
    d.add("created_dt", Instant.ofEpochSecond(rnd.nextLong(FIRST_DATE, LAST_DATE)).toString());
    return d;
  }

  /**
   * One to five distinct tags; a repeated draw is dropped rather than redrawn, keeping it cheap.
   */
  private void addTags(Document d, SplittableRandom rnd) {
    int want = 1 + rnd.nextInt(MAX_TAGS_PER_DOC);
    int[] picked = new int[want];
    int n = 0;
    for (int t = 0; t < want; t++) {
      int tag = tagRanks.sample(rnd);
      boolean seen = false;
      for (int k = 0; k < n; k++) {
        seen |= picked[k] == tag;
      }
      if (!seen) {
        picked[n++] = tag;
        d.add("tags_ss", tags[tag]);
      }
    }
  }

  /** A number in [1, max) whose logarithm is uniform. */
  private static double logUniform(SplittableRandom rnd, double max) {
    return StrictMath.exp(rnd.nextDouble() * StrictMath.log(max));
  }

  /** A 64-bit finaliser (SplitMix64's): neighbouring inputs give unrelated outputs. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** Writes documents 0..docs-1 to a file in a format. */
  public static CorpusStats write(SynthOptions o, Path out, Format format) {
    if (format == Format.CSV_PLAIN) {
      throw SolrscaleException.usage(
          "synth writes several tags per document, "
              + "which csv-plain cannot hold (one value per cell): use --to csv (values joined by '|')");
    }
    long t0 = System.nanoTime();
    Synth synth = new Synth(o);
    CorpusStats stats = new CorpusStats();
    CorpusTools.writeOne(
        out,
        format,
        synth.fields(),
        stats,
        t0,
        w -> {
          for (long i = 0; i < o.docs(); i++) {
            w.write(synth.document(i));
            stats.written++;
          }
        });
    return stats;
  }
}
