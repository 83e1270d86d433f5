package org.solrscale.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load a chaos run keeps up while faults happen: one writer adding documents with unique ids
 * at a steady rate, in batches, and two readers (a plain query and one with
 * {@code shards.tolerant=true}), each on its own schedule. Every request goes to the next Solr
 * node in turn and, when a node refuses the connection, to the one after (as a client behind a
 * load balancer would see it). Each outcome goes to the history; latency counts from when the
 * request was due, so a stalled request also delays the ones queued behind it.
 */
final class ChaosWorkload {
  private final List<String> baseUrls;
  private final String collection;
  private final String idPrefix;
  private final double writeRate;
  private final int batch;
  private final double queryRate;
  private final Duration timeout;
  private final History history;
  private final long t0;
  private final SolrHttp http = new SolrHttp();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();

  ChaosWorkload(List<String> baseUrls, String collection, String idPrefix, double writeRate, int batch,
      double queryRate, Duration timeout, History history, long t0Nanos) {
    if (baseUrls.isEmpty()) {
      throw new IllegalArgumentException("no Solr node to send to");
    }
    this.baseUrls = List.copyOf(baseUrls);
    this.collection = collection;
    this.idPrefix = idPrefix;
    this.writeRate = writeRate;
    this.batch = batch;
    this.queryRate = queryRate;
    this.timeout = timeout;
    this.history = history;
    this.t0 = t0Nanos;
  }

  void start() {
    if (writeRate > 0) {
      spawn("chaos-writer", this::write);
    }
    if (queryRate > 0) {
      spawn("chaos-query", () -> query(false, 0));
      spawn("chaos-query-tolerant", () -> query(true, 1));
    }
  }

  /** Stops sending and waits for the requests in flight (each is bounded by the timeout). */
  void stop() {
    stop.set(true);
    for (Thread t : threads) {
      try {
        t.join(timeout.toMillis() * (baseUrls.size() + 1) + 5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
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

  private void write() {
    long interval = Math.round(batch / writeRate * 1e9);
    long seq = 0;
    int node = 0;
    for (long k = 0; awaitDue(k * interval); k++) {
      long due = k * interval;
      List<String> ids = new ArrayList<>(batch);
      StringBuilder body = new StringBuilder("[");
      for (int i = 0; i < batch; i++, seq++) {
        String id = idPrefix + seq;
        ids.add(id);
        body.append(i == 0 ? "" : ",").append("{\"id\":\"").append(id).append("\",\"chaos_seq_l\":")
            .append(seq).append(",\"chaos_run_s\":\"").append(idPrefix).append("\"}");
      }
      body.append(']');
      Attempt a = send(node++, url -> http.post(url + "/" + collection + "/update?wt=json",
          "application/json", body.toString(), timeout));
      SolrHttp.Reply r = a.reply;
      double latency = (elapsedNanos() - due) / 1e6;
      String outcome = r.ok() ? HistoryEvent.OK : r.status() == 0 && !r.refused() ? HistoryEvent.INFO
          : HistoryEvent.FAIL;
      Integer rf = r.ok() && r.body().path("responseHeader").has("rf")
          ? r.body().path("responseHeader").path("rf").asInt() : null;
      history.append(new HistoryEvent(Math.round(due / 1e6), "add", ids, null, outcome, rf,
          r.status() == 0 ? null : r.status(), r.ok() ? null : r.message(), latency, null, null, null,
          a.node()));
    }
  }

  private void query(boolean tolerant, int offset) {
    long interval = Math.round(2 / queryRate * 1e9); // two readers share the rate
    String q = "q=" + URLEncoder.encode("*:*", StandardCharsets.UTF_8) + "&rows=0&wt=json"
        + (tolerant ? "&shards.tolerant=true" : "");
    int node = offset;
    for (long k = 0; awaitDue(k * interval + offset * interval / 2); k++) {
      long due = k * interval + offset * interval / 2;
      Attempt a = send(node++, url -> http.get(url + "/" + collection + "/select?" + q, timeout));
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
      history.append(new HistoryEvent(Math.round(due / 1e6), "query", null,
          tolerant ? "tolerant" : "plain", r.ok() ? HistoryEvent.OK : HistoryEvent.FAIL, null,
          r.status() == 0 ? null : r.status(), r.ok() ? null : r.message(), latency, partial, zk, found,
          a.node()));
    }
  }

  /** The answer, and which node gave it (its host:port). */
  private record Attempt(SolrHttp.Reply reply, String node) {}

  /** Sends to the node after the last one, moving on while nodes refuse the connection. */
  private Attempt send(int start, java.util.function.Function<String, SolrHttp.Reply> call) {
    SolrHttp.Reply r = null;
    String url = null;
    for (int i = 0; i < baseUrls.size(); i++) {
      url = baseUrls.get(Math.floorMod(start + i, baseUrls.size()));
      r = call.apply(url);
      if (!r.refused()) {
        break;
      }
    }
    return new Attempt(r, url.replaceFirst("^http://", "").replaceFirst("/solr$", ""));
  }
}
