package org.solrscale.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The few HTTP calls a chaos run makes (updates, queries, per-replica reads), with JDK's client
 * over HTTP/1.1. Every call ends in a {@link Reply}, never an exception: a refused connection, a
 * timeout and a Solr error are outcomes the history must record, not failures of the tool.
 */
final class SolrHttp {
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();

  /**
   * What came back. {@code status} is 0 when no answer came: {@code refused} (nothing reached
   * Solr), or a timeout (it may have).
   */
  record Reply(int status, JsonNode body, boolean refused, boolean timedOut, String error) {
    boolean ok() {
      return status == 200 && body != null;
    }

    /** Solr's error message, or what went wrong on the way. */
    String message() {
      if (error != null) {
        return error;
      }
      String m = body == null ? "" : body.path("error").path("msg").asText("");
      return m.isEmpty() ? "HTTP " + status : m.lines().findFirst().orElse(m);
    }
  }

  Reply get(String url, Duration timeout) {
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build());
  }

  Reply post(String url, String contentType, String body, Duration timeout) {
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
        .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  /** {@link #get}, answered later: the calling thread does not wait. */
  CompletableFuture<Reply> getAsync(String url, Duration timeout) {
    return sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build());
  }

  /** {@link #post}, answered later: the calling thread does not wait. */
  CompletableFuture<Reply> postAsync(String url, String contentType, String body,
      Duration timeout) {
    return sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
        .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  private Reply send(HttpRequest req) {
    try {
      return reply(client.send(req, HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      return failure(req, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply(0, null, false, true, "interrupted");
    }
  }

  private CompletableFuture<Reply> sendAsync(HttpRequest req) {
    return client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray()).handle((r, ex) -> {
      if (ex == null) {
        return reply(r);
      }
      Throwable cause = ex instanceof CompletionException && ex.getCause() != null
          ? ex.getCause() : ex;
      return cause instanceof IOException io ? failure(req, io)
          : new Reply(0, null, false, true, "failed: " + cause);
    });
  }

  private static Reply reply(HttpResponse<byte[]> r) {
    JsonNode body = null;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException notJson) {
      // a proxy's or Jetty's HTML error page: the status says enough
    }
    return new Reply(r.statusCode(), body, false, false, null);
  }

  private static Reply failure(HttpRequest req, IOException e) {
    if (e instanceof java.net.http.HttpConnectTimeoutException) {
      // no connection (a frozen node whose accept queue is full): nothing reached Solr
      return new Reply(0, null, true, false, "connect timed out");
    }
    if (e instanceof HttpTimeoutException) {
      return new Reply(0, null, false, true, "timeout after " + req.timeout().map(Duration::toMillis)
          .orElse(0L) + " ms");
    }
    if (e instanceof ConnectException) {
      return new Reply(0, null, true, false, "connection refused");
    }
    // a connection reset or closed mid-answer: the request may have been processed
    return new Reply(0, null, false, true, "connection lost: " + e.getClass().getSimpleName());
  }
}
