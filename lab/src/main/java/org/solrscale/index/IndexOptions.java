package org.solrscale.index;

import java.nio.file.Path;
import java.util.List;
import org.solrscale.data.Format;
import org.solrscale.spec.SolrscaleException;

/**
 * How to index: inputs, target collection, parallelism, batching, commit policy, where rejects go.
 * {@code commitEvery} is 0 for "commit at the end", -1 for "never commit", N for every N docs.
 */
public record IndexOptions(
    List<Path> inputs,
    Format format,
    String collection,
    int threads,
    int batchSize,
    int commitEvery,
    String routePrefixField,
    Path rejects,
    int maxAttempts) {

  public static final int COMMIT_AT_END = 0;
  public static final int NO_COMMIT = -1;

  /** Beyond these a run only exhausts threads, memory or patience; nothing gets faster. */
  public static final int MAX_THREADS = 256;

  public static final int MAX_BATCH = 100_000;
  public static final int MAX_RETRIES = 100;

  public IndexOptions {
    if (threads < 1 || threads > MAX_THREADS) {
      throw SolrscaleException.usage(
          "--threads "
              + threads
              + " is out of range: give 1 to "
              + MAX_THREADS
              + " (the default is the number of cores)");
    }
    if (batchSize < 1 || batchSize > MAX_BATCH) {
      throw SolrscaleException.usage(
          "--batch "
              + batchSize
              + " is out of range: give 1 to "
              + MAX_BATCH
              + " documents per request");
    }
    if (maxAttempts < 1 || maxAttempts > MAX_RETRIES + 1) {
      throw SolrscaleException.usage(
          "--retries " + (maxAttempts - 1) + " is out of range: give 0 to " + MAX_RETRIES);
    }
  }

  /** Parses --commit: end, none, or every N. */
  public static int parseCommit(String value) {
    String v = value.trim().toLowerCase();
    if (v.equals("end")) {
      return COMMIT_AT_END;
    }
    if (v.equals("none")) {
      return NO_COMMIT;
    }
    String n = v.startsWith("every") ? v.substring(5).trim() : v;
    try {
      int every = Integer.parseInt(n);
      if (every >= 1) {
        return every;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw SolrscaleException.usage(
        "--commit '" + value + "' is not end, none or 'every N' (N >= 1)");
  }
}
