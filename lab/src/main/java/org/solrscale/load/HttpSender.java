package org.solrscale.load;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.solrscale.spec.SolrscaleException;

/**
 * Sends Solr queries over keep-alive HTTP/1.1 connections driven by one event loop ({@link
 * HttpLoop}): no thread waits for a response, so an open loop keeps its schedule during a stall,
 * and a request costs a few microseconds of the driver's CPU. Bytes are counted as they come off
 * the wire (gzip stays compressed), and numFound is read from the start of the JSON response.
 */
public final class HttpSender implements Sender {
  /** Where request {@code slot} goes: a Solr base URL such as http://127.0.0.1:8983/solr. */
  public interface Routing {
    String baseUrl(long slot);
  }

  /** A base URL taken apart once: the server's address and the path prefix. */
  private record Base(InetSocketAddress server, String host, String path) {}

  private final HttpLoop loop;
  private final Routing routing;
  private final String collection;
  private final String extraParams;
  private final boolean gzip;
  private final long timeoutNanos;
  private final Clock clock;
  private final Map<String, Base> bases = new ConcurrentHashMap<>();

  public HttpSender(Routing routing, String collection, String extraParams, boolean gzip,
      long timeoutMillis, int connectionsPerNode, Clock clock) {
    this.routing = routing;
    this.collection = collection;
    this.extraParams = extraParams;
    this.gzip = gzip;
    this.timeoutNanos = timeoutMillis * 1_000_000L;
    this.clock = clock;
    try {
      this.loop = new HttpLoop(connectionsPerNode, clock);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot open a selector for HTTP: " + e.getMessage());
    }
  }

  @Override
  public void send(QueryRequest r, long slot, Completion done) {
    Base base = bases.computeIfAbsent(routing.baseUrl(slot), HttpSender::parse);
    String target = base.path() + "/" + collection + r.handler() + "?" + r.params() + extraParams
        + (r.params().contains("wt=") ? "" : "&wt=json");
    String request = "GET " + target + " HTTP/1.1\r\nHost: " + base.host() + "\r\n"
        + (gzip ? "Accept-Encoding: gzip\r\n" : "") + "User-Agent: solrscale\r\n\r\n";
    long deadline = clock.nanoTime() + timeoutNanos;
    loop.submit(new HttpLoop.Exchange(base.server(), request.getBytes(StandardCharsets.UTF_8),
        deadline, new HttpLoop.Listener() {
          @Override
          public void response(ResponseParser p, long sentNanos, long doneNanos) {
            done.complete(outcome(p), sentNanos, doneNanos);
          }

          @Override
          public void failure(String kind, String message, long bytes, long sentNanos, long doneNanos) {
            done.complete(Outcome.failed(0, kind, message, bytes), sentNanos, doneNanos);
          }
        }));
  }

  private static Base parse(String url) {
    URI u = URI.create(url);
    if (!"http".equals(u.getScheme()) || u.getHost() == null) {
      throw SolrscaleException.usage("bench speaks plain HTTP; '" + url + "' is not an http:// URL");
    }
    int port = u.getPort() < 0 ? 80 : u.getPort();
    String path = u.getRawPath() == null ? "" : u.getRawPath().replaceAll("/+$", "");
    return new Base(new InetSocketAddress(u.getHost(), port), u.getHost() + ":" + port, path);
  }

  private static Outcome outcome(ResponseParser p) {
    String text = text(p.head(), p.gzip);
    if (p.status != 200) {
      return Outcome.failed(p.status, "http_" + p.status, solrMessage(text), p.bytes);
    }
    return Outcome.ok(200, p.bytes, numFound(text));
  }

  private static String text(byte[] head, boolean gzipped) {
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
    loop.close();
  }
}
