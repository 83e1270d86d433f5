package org.solrscale.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.SolrscaleException;

class RetriesTest {
  private final List<Long> waits = new ArrayList<>();
  private final AtomicInteger calls = new AtomicInteger();

  private Retries retries(int attempts) {
    return new Retries(attempts, waits::add);
  }

  /** A call that fails with {@code e} the first {@code failures} times, then answers "ok". */
  private Retries.Call<String> failing(int failures, Exception e) {
    return () -> {
      if (calls.incrementAndGet() <= failures) {
        if (e instanceof IOException io) {
          throw io;
        }
        if (e instanceof SolrServerException s) {
          throw s;
        }
        throw (RuntimeException) e;
      }
      return "ok";
    };
  }

  @Test
  void theBackoffDoublesFrom200MillisecondsUpToTenSeconds() {
    assertThat(List.of(1, 2, 3, 4, 5, 6, 7, 11, 12, 100).stream().map(Retries::backoff))
        .containsExactly(200L, 400L, 800L, 1600L, 3200L, 6400L, 10_000L, 10_000L, 10_000L, 10_000L);
  }

  @Test
  void transientFailuresAreRetriedWithJitteredWaitsUntilTheAttemptsRunOut() throws Exception {
    Retries r = retries(6);
    Retries.Outcome<String> o = r.withRetries(failing(99, new IOException("connection refused")));
    assertThat(calls).hasValue(6);
    assertThat(o.value()).isNull();
    assertThat(o.failure()).isEqualTo("gave up after 6 attempts: connection refused");
    assertThat(r.count()).isEqualTo(5);
    assertThat(waits).hasSize(5); // none after the last attempt
    for (int i = 0; i < waits.size(); i++) {
      long most = Retries.backoff(i + 1);
      assertThat(waits.get(i)).as("wait %d", i + 1).isBetween(most / 2, most);
    }
  }

  @Test
  void a5xxAConnectionErrorOrAClientFailureIsRetriedAndTheAnswerAfterItKept() throws Exception {
    List<Exception> transients =
        List.of(
            new SolrException(ErrorCode.SERVICE_UNAVAILABLE, "no leader"),
            new SolrServerException("IOException occurred when talking to server"),
            new IOException("reset"),
            new IllegalStateException("no live node"));
    for (Exception e : transients) {
      calls.set(0);
      waits.clear();
      Retries.Outcome<String> o = retries(3).withRetries(failing(2, e));
      assertThat(o).as(e.toString()).isEqualTo(new Retries.Outcome<>("ok", null));
      assertThat(calls).hasValue(3);
      assertThat(waits).hasSize(2);
    }
  }

  @Test
  void a4xxIsSolrsAnswerAndIsNotRetried() throws Exception {
    Retries r = retries(5);
    Retries.Outcome<String> o =
        r.withRetries(
            failing(
                99,
                new SolrException(
                    ErrorCode.BAD_REQUEST, "ERROR: [doc=1] Error adding field 'n_i'=' x'")));
    assertThat(calls).hasValue(1);
    assertThat(waits).isEmpty();
    assertThat(r.count()).isZero();
    assertThat(o.failure()).startsWith("Solr refused it (HTTP 400): ").contains("n_i");
  }

  @Test
  void aFiveHundredAfterTheLastAttemptIsNamedWithItsStatus() throws Exception {
    Retries.Outcome<String> o =
        retries(1)
            .withRetries(
                failing(99, new SolrException(ErrorCode.SERVER_ERROR, "boom\n  at somewhere")));
    assertThat(o.failure()).isEqualTo("gave up after 1 attempts: HTTP 500: boom at somewhere");
    assertThat(waits).isEmpty();
  }

  @Test
  void aCallTheRunCannotGoOnWithoutEndsItWithOneLine() {
    assertThatThrownBy(
            () -> retries(2).orFail(failing(99, new IOException("refused")), "commit failed"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage("commit failed: gave up after 2 attempts: refused");
    calls.set(0);
    assertThat(retries(2).orFail(failing(1, new IOException("refused")), "commit failed"))
        .isEqualTo("ok");
  }

  @Test
  void anInterruptedWaitEndsTheAttempts() {
    Retries r =
        new Retries(
            5,
            ms -> {
              throw new InterruptedException();
            });
    assertThatThrownBy(() -> r.orFail(failing(99, new IOException("refused")), "count failed"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage("count failed: interrupted");
    assertThat(Thread.interrupted()).isTrue(); // the flag is kept (and cleared here)
    assertThat(calls).hasValue(1);
  }
}
