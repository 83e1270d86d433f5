package org.solrscale.load;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import javax.net.ssl.SSLContext;
import org.solrscale.cluster.Access;
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
    /** The node for {@code slot}; when failing over, one not in {@code tried} (else empty). */
    String baseUrl(long slot, long nowNanos, Set<String> tried);

    /** How many nodes one request may try: more than one when a failed connection fails over. */
    default int attempts() {
      return 1;
    }

    /** {@code baseUrl} refused a connection at {@code nowNanos}. */
    default void refused(String baseUrl, long nowNanos) {}
  }

  /**
   * {@code cloud} routing: the nodes in turn, as SolrJ's load balancer does. A node that refuses a
   * connection is skipped for {@link #DOWN_NANOS} (then tried again by the next request due to it),
   * and a request whose connection failed before it was answered goes to the next node, so a killed
   * node costs a few requests their latency, not the rest of the run its share of errors.
   */
  static final class CloudRouting implements Routing {
    static final long DOWN_NANOS = 2_000_000_000L;
    private final List<String> urls;
    private final AtomicLong next = new AtomicLong();
    private final Map<String, Long> downUntil = new ConcurrentHashMap<>();

    CloudRouting(List<String> urls) {
      this.urls = List.copyOf(urls);
    }

    @Override
    public String baseUrl(long slot, long nowNanos, Set<String> tried) {
      String fallback = null;
      for (int i = 0; i < urls.size(); i++) {
        String u = urls.get((int) (next.getAndIncrement() % urls.size()));
        if (tried.contains(u)) {
          continue;
        }
        Long until = downUntil.get(u);
        if (until == null || until - nowNanos <= 0) {
          return u;
        }
        fallback = fallback == null ? u : fallback;
      }
      // every other node refused lately: the request goes anyway and counts what it gets
      return fallback != null
          ? fallback
          : urls.get((int) Math.floorMod(next.getAndIncrement(), urls.size()));
    }

    @Override
    public int attempts() {
      return urls.size();
    }

    @Override
    public void refused(String baseUrl, long nowNanos) {
      downUntil.put(baseUrl, nowNanos + DOWN_NANOS);
    }
  }

  /** A base URL taken apart once: the server's address and the path prefix. */
  private record Base(InetSocketAddress server, boolean tls, String host, String path) {}

  private final HttpLoop loop;
  private final Routing routing;
  private final String collection;
  private final String extraParams;
  private final boolean gzip;
  private final long timeoutNanos;
  private final Clock clock;
  private final String authorization;
  private final Map<String, Base> bases = new ConcurrentHashMap<>();

  private volatile Attribution attribution;

  public HttpSender(
      Routing routing,
      String collection,
      String extraParams,
      boolean gzip,
      long timeoutMillis,
      int connectionsPerNode,
      Clock clock,
      Access access) {
    this.routing = routing;
    String auth = access.authorization();
    this.authorization = auth == null ? "" : "Authorization: " + auth + "\r\n";
    this.collection = collection;
    this.extraParams = extraParams;
    this.gzip = gzip;
    this.timeoutNanos = timeoutMillis * 1_000_000L;
    this.clock = clock;
    try {
      this.loop = new HttpLoop(connectionsPerNode, clock, tlsContext(access));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot open a selector for HTTP: " + e.getMessage());
    }
  }

  /** Samples a share of the requests with shards.info=true into {@code a} (null: none). */
  public HttpSender attribute(Attribution a) {
    this.attribution = a;
    return this;
  }

  @Override
  public void measuredFrom(long nanos) {
    Attribution a = attribution;
    if (a != null) {
      a.measuredFrom(nanos);
    }
  }

  @Override
  public void send(QueryRequest r, long slot, Completion done) {
    long now = clock.nanoTime();
    if (attribution != null && attribution.sample()) {
      QueryRequest sampled =
          new QueryRequest(
              r.handler(),
              r.params() + "&shards.info=true",
              r.template(),
              r.source(),
              r.collection(),
              r.index());
      attempt(
          sampled,
          slot,
          (o, sent, finished) -> {
            if (!o.failed()) {
              // its time on the wire: a wait for a free connection is the driver's, not a shard's
              long wire = finished - (sent > 0 ? sent : now);
              attribution.add(now, wire / 1e6, o.shards(), o.coordinator());
            }
            done.complete(o, sent, finished);
          },
          Set.of(),
          now + timeoutNanos);
      return;
    }
    attempt(r, slot, done, Set.of(), now + timeoutNanos);
  }

  /**
   * One attempt at {@code r}. A connection that fails before the response (refused, reset, closed)
   * is tried on the next node while the routing allows; a request that failed over reports no time
   * on the wire, so its service time counts from when it was first sent.
   */
  private void attempt(
      QueryRequest r, long slot, Completion done, Set<String> tried, long deadline) {
    int attempt = tried.size() + 1;
    String url = routing.baseUrl(slot, clock.nanoTime(), tried);
    Base base = bases.computeIfAbsent(url, HttpSender::parse);
    String target =
        base.path()
            + "/"
            + (r.collection() != null ? r.collection() : collection)
            + r.handler()
            + "?"
            + r.params()
            + extraParams
            + (r.params().contains("wt=") ? "" : "&wt=json");
    String request =
        "GET "
            + target
            + " HTTP/1.1\r\nHost: "
            + base.host()
            + "\r\n"
            + (gzip ? "Accept-Encoding: gzip\r\n" : "")
            + authorization
            + "User-Agent: solrscale\r\n\r\n";
    loop.submit(
        new HttpLoop.Exchange(
            base.server(),
            base.tls(),
            request.getBytes(StandardCharsets.UTF_8),
            deadline,
            new HttpLoop.Listener() {
              @Override
              public void response(ResponseParser p, long sentNanos, long doneNanos) {
                Outcome o = outcome(p);
                if (!o.failed() && r.params().endsWith("&shards.info=true")) {
                  o = o.withShards(Attribution.parse(text(p.head(), p.gzip)), url);
                }
                done.complete(o, attempt > 1 ? 0 : sentNanos, doneNanos);
              }

              @Override
              public void failure(
                  String kind, String message, long bytes, long sentNanos, long doneNanos) {
                if (kind.equals("connection")) {
                  if (sentNanos == 0) {
                    routing.refused(url, doneNanos); // never got a connection: the node is down
                  }
                  if (attempt < routing.attempts()) {
                    Set<String> now = new HashSet<>(tried);
                    now.add(url);
                    attempt(
                        r, slot, done, now, deadline); // the first attempt's deadline still holds
                    return;
                  }
                }
                done.complete(
                    Outcome.failed(0, kind, message, bytes),
                    attempt > 1 ? 0 : sentNanos,
                    doneNanos);
              }
            }));
  }

  private static Base parse(String url) {
    URI u = URI.create(url);
    boolean tls = "https".equals(u.getScheme());
    if (!tls && !"http".equals(u.getScheme()) || u.getHost() == null) {
      throw SolrscaleException.usage(
          "bench speaks HTTP and HTTPS; '" + url + "' is not an http:// or https:// URL");
    }
    int port = u.getPort() < 0 ? (tls ? 443 : 80) : u.getPort();
    String path = u.getRawPath() == null ? "" : u.getRawPath().replaceAll("/+$", "");
    return new Base(new InetSocketAddress(u.getHost(), port), tls, u.getHost() + ":" + port, path);
  }

  /** What https connections trust: the access's trust store, else the JDK's CAs. */
  private static SSLContext tlsContext(Access access) {
    if (access.sslContext() != null) {
      return access.sslContext();
    }
    try {
      return SSLContext.getDefault();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Outcome outcome(ResponseParser p) {
    String text = text(p.head(), p.gzip);
    if (p.status != 200) {
      return Outcome.failed(p.status, "http_" + p.status, solrMessage(text), p.bytes);
    }
    return partial(text)
        ? Outcome.partial(200, p.bytes, numFound(text))
        : Outcome.ok(200, p.bytes, numFound(text));
  }

  /**
   * Whether a JSON answer's header marks it partial: {@code "partialResults":true}, or {@code
   * "omitted"} (Solr 9.8 on, when allowPartialResults=false dropped the results).
   */
  static boolean partial(String json) {
    int i = json.indexOf("\"partialResults\":");
    if (i < 0) {
      return false;
    }
    int k = i + 17;
    while (k < json.length() && json.charAt(k) == ' ') {
      k++;
    }
    return json.startsWith("true", k) || json.startsWith("\"omitted\"", k);
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

  /**
   * Routing over a fixed list: per request in turn, skipping nodes that refuse connections
   * ("cloud"), or by slot modulo ("round-robin", which keeps its node whatever happens to it).
   */
  public static Routing routing(org.solrscale.spec.Routing mode, List<String> urls) {
    if (urls.isEmpty()) {
      throw SolrscaleException.failed("no live Solr node to send to");
    }
    if (mode.mode() == org.solrscale.spec.Routing.Mode.ROUND_ROBIN) {
      return (slot, now, tried) -> urls.get((int) (slot % urls.size()));
    }
    return new CloudRouting(urls);
  }

  @Override
  public void close() {
    loop.close();
  }
}
