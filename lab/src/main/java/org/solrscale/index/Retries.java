package org.solrscale.index;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.common.SolrException;
import org.solrscale.spec.SolrscaleException;

/** Retries a request to Solr on transient failures, with exponential backoff and jitter. */
final class Retries {
  /** A request to Solr. */
  interface Call<T> {
    T run() throws SolrServerException, IOException;
  }

  /** Waits between attempts (a test's records the waits instead). */
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  /** What a call answered, or why it failed for good (null when it did not). */
  record Outcome<T>(T value, String failure) {}

  private final int maxAttempts;
  private final Sleeper sleeper;
  private final AtomicLong retries = new AtomicLong();

  Retries(int maxAttempts) {
    this(maxAttempts, Thread::sleep);
  }

  Retries(int maxAttempts, Sleeper sleeper) {
    this.maxAttempts = maxAttempts;
    this.sleeper = sleeper;
  }

  /** How many attempts were made again after a failure, all calls together. */
  long count() {
    return retries.get();
  }

  /**
   * Runs a call with up to the load's attempts: transient failures (connection errors, 5xx such as
   * 503 during a leader change) are retried; a 4xx is Solr's answer and is not. A failure after the
   * last attempt is the outcome's.
   */
  <T> Outcome<T> withRetries(Call<T> call) throws InterruptedException {
    String last = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        return new Outcome<>(call.run(), null);
      } catch (SolrException e) {
        if (e.code() >= 400 && e.code() < 500) {
          return new Outcome<>(
              null, "Solr refused it (HTTP " + e.code() + "): " + OneLine.of(e.getMessage()));
        }
        last = "HTTP " + e.code() + ": " + OneLine.of(e.getMessage());
      } catch (SolrServerException | IOException | RuntimeException e) {
        last = OneLine.of(e.getMessage() == null ? e.toString() : e.getMessage());
      }
      if (attempt < maxAttempts) {
        retries.incrementAndGet();
        long backoff = backoff(attempt);
        sleeper.sleep(backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1));
      }
    }
    return new Outcome<>(null, "gave up after " + maxAttempts + " attempts: " + last);
  }

  /**
   * The most to wait after failed attempt {@code attempt} (from 1): 200 ms doubling, at most 10 s;
   * the wait is between half of it and all of it.
   */
  static long backoff(int attempt) {
    return Math.min(10_000, 200L << Math.min(attempt - 1, 10));
  }

  /** As {@link #withRetries}, for a call the run cannot go on without: a failure ends it. */
  <T> T orFail(Call<T> call, String what) {
    try {
      Outcome<T> o = withRetries(call);
      if (o.failure() != null) {
        throw SolrscaleException.failed(what + ": " + o.failure());
      }
      return o.value();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed(what + ": interrupted");
    }
  }
}
