package org.solrscale.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.SolrHttp;

/**
 * The load a chaos run keeps up while faults happen: writers adding documents with unique ids at a
 * steady rate, in batches, and two readers (a plain query and one with {@code
 * shards.tolerant=true}), each on its own schedule. Every request goes to the next Solr node in
 * turn and, when a node refuses the connection, to the one after (as a client behind a load
 * balancer would see it). Each outcome goes to the history; latency counts from when the request
 * was due. Requests are sent without waiting for the answers before them (an open loop): a stalled
 * node does not slow the schedule, until {@link #MAX_IN_FLIGHT} requests are unanswered at once;
 * from then on the next waits, and its latency (from when it was due) shows it.
 */
final class ChaosWorkload {
  private final List<String> baseUrls;
  private final String collection;
  private final String idPrefix;
  private final double writeRate;
  private final int batch;
  private final double queryRate;
  private final Duration timeout;
  private final Integer minRf;
  private final History history;
  private final long t0;
  private final SolrHttp http;
  private final DocTemplate template;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();

  /** Unanswered requests at most, all schedules together. */
  static final int MAX_IN_FLIGHT = 2000;

  private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);

  /** Requests whose outcome could not be recorded, and why the first one could not. */
  private final AtomicLong unrecorded = new AtomicLong();

  private volatile String firstProblem;

  ChaosWorkload(
      List<String> baseUrls,
      Access access,
      DocTemplate template,
      String collection,
      String idPrefix,
      double writeRate,
      int batch,
      double queryRate,
      Duration timeout,
      Integer minRf,
      History history,
      long t0Nanos) {
    if (baseUrls.isEmpty()) {
      throw new IllegalArgumentException("no Solr node to send to");
    }
    this.baseUrls = List.copyOf(baseUrls);
    this.http = new SolrHttp(access);
    this.template = template;
    this.collection = collection;
    this.idPrefix = idPrefix;
    this.writeRate = writeRate;
    this.batch = batch;
    this.queryRate = queryRate;
    this.timeout = timeout;
    this.minRf = minRf;
    this.history = history;
    this.t0 = t0Nanos;
  }

  void start() {
    if (writeRate > 0) {
      long interval = Math.round(batch / writeRate * 1e9);
      schedule("chaos-writer", k -> k * interval, this::write);
    }
    if (queryRate > 0) {
      long interval = Math.round(2 / queryRate * 1e9); // two readers share the rate
      schedule("chaos-query", k -> k * interval, (k, due) -> query(false, k, due));
      schedule(
          "chaos-query-tolerant",
          k -> k * interval + interval / 2,
          (k, due) -> query(true, k, due));
    }
  }

  /**
   * Sends request {@code k} of a schedule, due {@code dueNanos} after the start; answered later.
   */
  private interface Request {
    CompletableFuture<?> send(long k, long dueNanos);
  }

  /**
   * A thread sending requests 0, 1, 2... of a schedule, each when it is due, not waiting for
   * answers.
   */
  private void schedule(String name, LongUnaryOperator dueOf, Request request) {
    spawn(
        name,
        () -> {
          for (long k = 0; awaitDue(dueOf.applyAsLong(k)); k++) {
            try {
              inFlight.acquire();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
            try {
              request
                  .send(k, dueOf.applyAsLong(k))
                  .whenComplete(
                      (r, ex) -> {
                        inFlight.release();
                        if (ex != null) {
                          problem(ex);
                        }
                      });
            } catch (RuntimeException e) {
              inFlight.release();
              problem(e);
            }
          }
        });
  }

  private void problem(Throwable t) {
    unrecorded.incrementAndGet();
    if (firstProblem == null) {
      firstProblem =
          String.valueOf(
              t instanceof CompletionException && t.getCause() != null ? t.getCause() : t);
    }
  }

  /**
   * Stops sending and waits for the requests in flight (each is bounded by the timeout). Returns
   * null, or a warning when some outcomes are missing from the history: requests still unanswered
   * when waiting ran out, or whose outcome could not be recorded.
   */
  String stop() {
    stop.set(true);
    long wait = timeout.toMillis() * (baseUrls.size() + 1) + 5000;
    int unanswered = 0;
    try {
      for (Thread t : threads) {
        t.join(wait);
      }
      if (inFlight.tryAcquire(MAX_IN_FLIGHT, wait, TimeUnit.MILLISECONDS)) {
        inFlight.release(MAX_IN_FLIGHT);
      } else {
        unanswered = MAX_IN_FLIGHT - inFlight.availablePermits();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long failed = unrecorded.get();
    if (unanswered == 0 && failed == 0) {
      return null;
    }
    return "warning: the history misses "
        + (unanswered + failed)
        + " request outcome(s): "
        + unanswered
        + " still unanswered after "
        + wait / 1000
        + " s, "
        + failed
        + " not recorded"
        + (firstProblem == null ? "" : " (first: " + firstProblem + ")");
  }

  private void spawn(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  private long elapsedNanos() {
    return System.nanoTime() - t0;
  }

  /** Sleeps until {@code dueNanos} after the start; false once stopped. */
  private boolean awaitDue(long dueNanos) {
    while (!stop.get()) {
      long wait = dueNanos - elapsedNanos();
      if (wait <= 0) {
        return true;
      }
      try {
        Thread.sleep(Math.min(100, Math.max(1, wait / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  private CompletableFuture<?> write(long k, long due) {
    long seq = k * batch;
    List<String> ids = new ArrayList<>(batch);
    StringBuilder body = new StringBuilder("[");
    for (int i = 0; i < batch; i++, seq++) {
      String id = idPrefix + seq;
      ids.add(id);
      body.append(i == 0 ? "" : ",").append(template.render(id, seq, idPrefix));
    }
    body.append(']');
    return send(
            (int) (k % baseUrls.size()),
            url ->
                http.postAsync(
                    url
                        + "/"
                        + collection
                        + "/update?wt=json"
                        + (minRf == null ? "" : "&min_rf=" + minRf),
                    "application/json",
                    body.toString(),
                    timeout))
        .thenAccept(a -> written(a, ids, due));
  }

  private void written(Attempt a, List<String> ids, long due) {
    SolrHttp.Reply r = a.reply;
    double latency = (elapsedNanos() - due) / 1e6;
    String outcome =
        r.ok()
            ? HistoryEvent.OK
            : r.status() == 0 && !r.refused() ? HistoryEvent.INFO : HistoryEvent.FAIL;
    Integer rf =
        r.ok() && r.body().path("responseHeader").has("rf")
            ? r.body().path("responseHeader").path("rf").asInt()
            : null;
    String message = r.ok() ? null : r.message();
    if (r.ok() && belowMinRf(rf, minRf)) {
      // as a client honouring min_rf does: Solr applied the batch on fewer replicas than asked, so
      // it is not taken as acknowledged (it may or may not be there: counted apart, never lost)
      outcome = HistoryEvent.FAIL;
      message = "rf=" + rf + " below min_rf=" + minRf;
    }
    history.append(
        new HistoryEvent(
            Math.round(due / 1e6),
            "add",
            ids,
            null,
            outcome,
            rf,
            r.status() == 0 ? null : r.status(),
            message,
            latency,
            null,
            null,
            null,
            a.node()));
  }

  /**
   * Whether an answer's rf is below the min_rf asked for. An answer without rf cannot be judged and
   * counts as acknowledged (Solr 9 reports rf on every cloud update).
   */
  static boolean belowMinRf(Integer rf, Integer minRf) {
    return minRf != null && rf != null && rf < minRf;
  }

  private CompletableFuture<?> query(boolean tolerant, long k, long due) {
    String q =
        "q="
            + URLEncoder.encode("*:*", StandardCharsets.UTF_8)
            + "&rows=0&wt=json"
            + (tolerant ? "&shards.tolerant=true" : "");
    return send(
            (int) ((k + (tolerant ? 1 : 0)) % baseUrls.size()),
            url -> http.getAsync(url + "/" + collection + "/select?" + q, timeout))
        .thenAccept(a -> answered(a, tolerant, due));
  }

  private void answered(Attempt a, boolean tolerant, long due) {
    SolrHttp.Reply r = a.reply;
    double latency = (elapsedNanos() - due) / 1e6;
    JsonNode header = r.body() == null ? null : r.body().path("responseHeader");
    Boolean partial = null;
    Boolean zk = null;
    if (header != null && header.has("partialResults")) {
      partial = header.path("partialResults").asBoolean();
    } else if (r.ok()) {
      partial = Boolean.FALSE;
    }
    if (header != null && header.has("zkConnected")) {
      zk = header.path("zkConnected").asBoolean();
    }
    Long found = r.ok() ? r.body().path("response").path("numFound").asLong() : null;
    history.append(
        new HistoryEvent(
            Math.round(due / 1e6),
            "query",
            null,
            tolerant ? "tolerant" : "plain",
            r.ok() ? HistoryEvent.OK : HistoryEvent.FAIL,
            null,
            r.status() == 0 ? null : r.status(),
            r.ok() ? null : r.message(),
            latency,
            partial,
            zk,
            found,
            a.node()));
  }

  /** The answer, and which node gave it (its host:port). */
  private record Attempt(SolrHttp.Reply reply, String node) {}

  /** Sends to node {@code start}, moving on to the next while nodes refuse the connection. */
  private CompletableFuture<Attempt> send(
      int start, Function<String, CompletableFuture<SolrHttp.Reply>> call) {
    return attempt(start, 0, call);
  }

  private CompletableFuture<Attempt> attempt(
      int start, int i, Function<String, CompletableFuture<SolrHttp.Reply>> call) {
    String url = baseUrls.get(Math.floorMod(start + i, baseUrls.size()));
    return call.apply(url)
        .thenCompose(
            r ->
                r.refused() && i + 1 < baseUrls.size()
                    ? attempt(start, i + 1, call)
                    : CompletableFuture.completedFuture(
                        new Attempt(
                            r, url.replaceFirst("^https?://", "").replaceFirst("/solr$", ""))));
  }
}
