package org.solrscale.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The one HTTP client for Solr's admin and check calls that SolrJ does not make (health, metrics,
 * chaos writes and checks, a --url's probe): JDK's client over HTTP/1.1. Every call ends in a
 * {@link Reply}, never an exception: a refused connection (nothing reached Solr), a timeout (it may
 * have) and a Solr error are outcomes, which the chaos history must tell apart.
 */
public final class SolrHttp {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How a reply's error starts when the TLS handshake failed. */
  public static final String TLS_FAILED = "TLS handshake failed: ";

  private final HttpClient client;
  private final Access access;

  /** Gives up connecting after 2 seconds; sends {@code access}'s credentials, if any. */
  public SolrHttp(Access access) {
    this(Duration.ofSeconds(2), access);
  }

  public SolrHttp(Duration connectTimeout, Access access) {
    this.access = access;
    // redirects are not followed (a redirect is an answer), as the load's own client does not
    HttpClient.Builder b =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout);
    if (access.sslContext() != null) {
      b.sslContext(access.sslContext());
    }
    client = b.build();
  }

  /**
   * What came back: the status, the body as sent and as JSON (null when it is not JSON). {@code
   * status} is 0 when no answer came: {@code refused} (nothing reached Solr), or a timeout (it may
   * have).
   */
  public record Reply(
      int status, byte[] bytes, JsonNode body, boolean refused, boolean timedOut, String error) {
    public boolean ok() {
      return status == 200 && body != null;
    }

    /** The body as text ("" when no answer came). */
    public String text() {
      return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Solr's error message, or what went wrong on the way. */
    public String message() {
      if (error != null) {
        return error;
      }
      String m = body == null ? "" : body.path("error").path("msg").asText("");
      return m.isEmpty() ? "HTTP " + status : m.lines().findFirst().orElse(m);
    }
  }

  public Reply get(String url, Duration timeout) {
    return send(request(url, timeout).GET().build());
  }

  public Reply post(String url, String contentType, String body, Duration timeout) {
    return send(postRequest(url, contentType, body, timeout));
  }

  /** {@link #get}, answered later: the calling thread does not wait. */
  public CompletableFuture<Reply> getAsync(String url, Duration timeout) {
    return sendAsync(request(url, timeout).GET().build());
  }

  /** {@link #post}, answered later: the calling thread does not wait. */
  public CompletableFuture<Reply> postAsync(
      String url, String contentType, String body, Duration timeout) {
    return sendAsync(postRequest(url, contentType, body, timeout));
  }

  private HttpRequest.Builder request(String url, Duration timeout) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(timeout);
    String authorization = access.authorization();
    return authorization == null ? b : b.header("Authorization", authorization);
  }

  private HttpRequest postRequest(String url, String contentType, String body, Duration timeout) {
    return request(url, timeout)
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private Reply send(HttpRequest req) {
    try {
      return reply(client.send(req, HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      return failure(req, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply(0, null, null, false, true, "interrupted");
    }
  }

  private CompletableFuture<Reply> sendAsync(HttpRequest req) {
    return client
        .sendAsync(req, HttpResponse.BodyHandlers.ofByteArray())
        .handle(
            (r, ex) -> {
              if (ex == null) {
                return reply(r);
              }
              Throwable cause =
                  ex instanceof CompletionException && ex.getCause() != null ? ex.getCause() : ex;
              return cause instanceof IOException io
                  ? failure(req, io)
                  : new Reply(0, null, null, false, true, "failed: " + cause);
            });
  }

  private Reply reply(HttpResponse<byte[]> r) {
    JsonNode body = null;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException notJson) {
      // a proxy's or Jetty's HTML error page: the status says enough
    }
    // 401 and 403 say who was refused, in one line
    String refusal =
        access.refusal(r.statusCode(), "Solr at " + r.uri().getHost() + ":" + r.uri().getPort());
    return new Reply(r.statusCode(), r.body(), body, false, false, refusal);
  }

  private static Reply failure(HttpRequest req, IOException e) {
    if (e instanceof HttpConnectTimeoutException) {
      // no connection (a frozen node whose accept queue is full): nothing reached Solr
      return new Reply(0, null, null, true, false, "connect timed out");
    }
    if (e instanceof HttpTimeoutException) {
      return new Reply(
          0,
          null,
          null,
          false,
          true,
          "timeout after " + req.timeout().map(Duration::toMillis).orElse(0L) + " ms");
    }
    if (e instanceof ConnectException) {
      return new Reply(0, null, null, true, false, "connection refused");
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof javax.net.ssl.SSLHandshakeException) {
        // nothing reached Solr: the certificate was not trusted, or no TLS at all
        return new Reply(0, null, null, true, false, TLS_FAILED + t.getMessage());
      }
    }
    // a connection reset or closed mid-answer: the request may have been processed
    return new Reply(
        0, null, null, false, true, "connection lost: " + e.getClass().getSimpleName());
  }
}
