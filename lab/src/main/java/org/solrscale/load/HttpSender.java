package org.solrscale.load;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.api.Request;
import org.eclipse.jetty.client.api.Response;
import org.eclipse.jetty.client.api.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.solrscale.spec.SolrscaleException;

/**
 * Sends Solr queries over HTTP/1.1 keep-alive connections with Jetty's asynchronous client: no
 * thread waits for a response, so an open loop keeps its schedule during a stall. Bytes are
 * counted as they come off the wire (gzip stays compressed; content decoding is off), and numFound
 * is read from the start of the JSON response.
 */
public final class HttpSender implements Sender {
  /** The head of a response kept for numFound and error messages. */
  private static final int KEEP = 16 * 1024;

  /** Where request {@code slot} goes: a Solr base URL such as http://127.0.0.1:8983/solr. */
  public interface Routing {
    String baseUrl(long slot);
  }

  private final HttpClient http;
  private final Routing routing;
  private final String collection;
  private final String extraParams;
  private final boolean gzip;
  private final long timeoutMillis;
  private final Clock clock;

  public HttpSender(Routing routing, String collection, String extraParams, boolean gzip,
      long timeoutMillis, int connectionsPerNode, Clock clock) {
    this.routing = routing;
    this.collection = collection;
    this.extraParams = extraParams;
    this.gzip = gzip;
    this.timeoutMillis = timeoutMillis;
    this.clock = clock;
    QueuedThreadPool pool = new QueuedThreadPool(8, 2);
    pool.setName("solrscale-http");
    pool.setDaemon(true);
    http = new HttpClient();
    http.setExecutor(pool);
    http.setMaxConnectionsPerDestination(connectionsPerNode);
    http.setMaxRequestsQueuedPerDestination(1 << 20); // the open loop queues here during a stall
    http.setFollowRedirects(false);
    http.setUserAgentField(null);
    try {
      http.start();
      // after start, which installs the gzip decoder: we count and keep the bytes as sent
      http.getContentDecoderFactories().clear();
    } catch (Exception e) {
      throw SolrscaleException.environment("cannot start the HTTP client: " + e.getMessage());
    }
  }

  @Override
  public void send(QueryRequest r, long slot, Completion done) {
    String url = routing.baseUrl(slot) + "/" + collection + r.handler() + "?" + r.params()
        + extraParams + (r.params().contains("wt=") ? "" : "&wt=json");
    Request req = http.newRequest(url).timeout(timeoutMillis, TimeUnit.MILLISECONDS);
    if (gzip) {
      req.headers(h -> h.put(HttpHeader.ACCEPT_ENCODING, "gzip"));
    }
    Body body = new Body();
    req.onResponseContent((resp, content) -> body.add(content));
    req.send(result -> done.complete(outcome(result, body), clock.nanoTime()));
  }

  /** The bytes of one response: all counted, the head kept. */
  private static final class Body {
    final AtomicLong bytes = new AtomicLong();
    final ByteArrayOutputStream head = new ByteArrayOutputStream();

    void add(ByteBuffer content) {
      int n = content.remaining();
      bytes.addAndGet(n);
      synchronized (head) {
        int keep = Math.min(n, KEEP - head.size());
        if (keep > 0) {
          byte[] b = new byte[keep];
          content.get(b);
          head.write(b, 0, keep);
        }
      }
    }
  }

  private Outcome outcome(Result result, Body body) {
    long bytes = body.bytes.get();
    if (result.isFailed()) {
      Throwable t = result.getFailure();
      String kind = t instanceof TimeoutException ? "timeout"
          : t instanceof ConnectException || t instanceof ClosedChannelException
              || t instanceof IOException ? "connection" : "other";
      return Outcome.failed(0, kind, String.valueOf(t.getMessage() == null ? t : t.getMessage()), bytes);
    }
    Response resp = result.getResponse();
    String text = text(body, "gzip".equalsIgnoreCase(resp.getHeaders().get(HttpHeader.CONTENT_ENCODING)));
    if (resp.getStatus() != 200) {
      return Outcome.failed(resp.getStatus(), "http_" + resp.getStatus(), solrMessage(text), bytes);
    }
    return Outcome.ok(200, bytes, numFound(text));
  }

  private static String text(Body body, boolean gzipped) {
    byte[] head;
    synchronized (body.head) {
      head = body.head.toByteArray();
    }
    if (!gzipped) {
      return new String(head, StandardCharsets.UTF_8);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(head))) {
      in.transferTo(out);
    } catch (IOException truncated) {
      // only the head was kept: what was inflated so far is enough
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** numFound from a JSON response, or -1 (another wt, or a response without results). */
  static long numFound(String json) {
    int i = json.indexOf("\"numFound\":");
    if (i < 0) {
      return -1;
    }
    int k = i + 11;
    while (k < json.length() && json.charAt(k) == ' ') {
      k++;
    }
    long n = 0;
    int digits = 0;
    while (k < json.length() && Character.isDigit(json.charAt(k))) {
      n = n * 10 + (json.charAt(k++) - '0');
      digits++;
    }
    return digits > 0 ? n : -1;
  }

  /** Solr's error message ("msg") from an error response, else its start. */
  static String solrMessage(String json) {
    int i = json.indexOf("\"msg\":\"");
    if (i >= 0) {
      int end = json.indexOf('"', i + 7);
      return json.substring(i + 7, end < 0 ? Math.min(json.length(), i + 207) : end);
    }
    String t = json.replaceAll("\\s+", " ").strip();
    return t.length() > 200 ? t.substring(0, 200) : t;
  }

  /** Routing over a fixed list: per request in turn ("cloud"), or by slot modulo ("round-robin"). */
  public static Routing routing(String mode, List<String> urls) {
    if (urls.isEmpty()) {
      throw SolrscaleException.failed("no live Solr node to send to");
    }
    if (mode.equals("round-robin")) {
      return slot -> urls.get((int) (slot % urls.size()));
    }
    AtomicLong next = new AtomicLong();
    return slot -> urls.get((int) (next.getAndIncrement() % urls.size()));
  }

  @Override
  public void close() {
    try {
      http.stop();
    } catch (Exception e) {
      // closing at the end of a run
    }
  }
}
