package org.solrscale.data;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.solr.common.SolrInputDocument;

/**
 * A small deterministic corpus for the demo: product-like documents with text, a category facet,
 * prices, dates and tags, words drawn from a skewed vocabulary so queries hit few to many.
 */
public final class DemoDocuments {
  private static final String[] WORDS = {
    "solr", "search", "index", "shard", "replica", "leader", "query", "facet", "cluster", "node",
    "zookeeper", "latency", "throughput", "cache", "commit", "segment", "merge", "field", "schema",
    "document", "score", "filter", "router", "collection", "overseer", "recovery", "heap", "garbage",
    "collector", "thread", "lucene", "analyzer", "token", "stem", "synonym", "phrase", "boost"
  };
  public static final String[] CATEGORIES = {
    "books", "music", "garden", "tools", "toys", "games", "sports", "kitchen", "office", "travel"
  };
  private static final Instant EPOCH = Instant.parse("2020-01-01T00:00:00Z");

  private DemoDocuments() {}

  /** Documents {@code from} (inclusive) to {@code to} (exclusive) of the corpus for a seed. */
  public static List<SolrInputDocument> range(long seed, int from, int to) {
    List<SolrInputDocument> docs = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + i);
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", "doc-" + i);
      d.addField("title_t", words(rnd, 3 + rnd.nextInt(4)));
      d.addField("body_t", words(rnd, 20 + rnd.nextInt(40)));
      d.addField("category_s", CATEGORIES[skewed(rnd, CATEGORIES.length)]);
      d.addField("price_d", Math.round(rnd.nextDouble(1, 500) * 100) / 100.0);
      d.addField("stock_i", rnd.nextInt(1000));
      d.addField("created_dt", java.util.Date.from(EPOCH.plus(rnd.nextInt(1800), ChronoUnit.DAYS)));
      for (int t = 0; t < 1 + rnd.nextInt(3); t++) {
        d.addField("tags_ss", WORDS[skewed(rnd, WORDS.length)]);
      }
      docs.add(d);
    }
    return docs;
  }

  private static String words(SplittableRandom rnd, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(WORDS[skewed(rnd, WORDS.length)]);
    }
    return sb.toString();
  }

  /** An index in [0, n) where small indexes are much more likely (roughly Zipf-like). */
  private static int skewed(SplittableRandom rnd, int n) {
    double u = rnd.nextDouble();
    return (int) Math.min(n - 1, Math.floor(Math.pow(n + 1, u) - 1));
  }
}
