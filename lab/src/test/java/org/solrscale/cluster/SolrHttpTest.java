package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The outcomes a chaos history tells apart, against a real local server and a closed port. */
class SolrHttpTest {
  private final SolrHttp http = new SolrHttp(Access.NONE);
  private final CountDownLatch release = new CountDownLatch(1);
  private HttpServer server;
  private String base;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/ok", ex -> answer(ex, 200, "{\"status\":\"OK\"}"));
    server.createContext(
        "/refused",
        ex ->
            answer(
                ex,
                400,
                "{\"error\":{\"msg\":\"undefined field nope\\nmore lines\",\"code\":400}}"));
    server.createContext(
        "/html", ex -> answer(ex, 503, "<html><body>Service Unavailable</body></html>"));
    server.createContext(
        "/slow",
        ex -> {
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          answer(ex, 200, "{}");
        });
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.stop(0);
  }

  private static void answer(HttpExchange ex, int status, String body) throws IOException {
    ex.getRequestBody().readAllBytes();
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream o = ex.getResponseBody()) {
      o.write(b);
    }
  }

  @Test
  void anAnswerComesWithItsStatusItsTextAndItsJson() {
    SolrHttp.Reply r = http.get(base + "/ok", Duration.ofSeconds(10));
    assertThat(r.ok()).isTrue();
    assertThat(r.text()).isEqualTo("{\"status\":\"OK\"}");
    assertThat(r.body().path("status").asText()).isEqualTo("OK");
    assertThat(r.refused() || r.timedOut()).isFalse();
  }

  @Test
  void solrsErrorIsItsMessagesFirstLineAndAPageThatIsNotJsonItsStatus() {
    SolrHttp.Reply refused =
        http.post(base + "/refused", "application/json", "[]", Duration.ofSeconds(10));
    assertThat(refused.ok()).isFalse();
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.message()).isEqualTo("undefined field nope");
    SolrHttp.Reply html = http.get(base + "/html", Duration.ofSeconds(10));
    assertThat(html.body()).isNull();
    assertThat(html.message()).isEqualTo("HTTP 503");
    assertThat(html.text()).contains("Service Unavailable");
  }

  @Test
  void aClosedPortIsRefusedNothingReachedSolr() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port + "/solr/c/update";
    for (SolrHttp.Reply r :
        new SolrHttp.Reply[] {
          http.post(url, "application/json", "[]", Duration.ofSeconds(10)),
          http.postAsync(url, "application/json", "[]", Duration.ofSeconds(10))
              .get(20, TimeUnit.SECONDS)
        }) {
      assertThat(r.status()).isZero();
      assertThat(r.refused()).isTrue();
      assertThat(r.timedOut()).isFalse();
      assertThat(r.message()).isEqualTo("connection refused");
    }
  }

  @Test
  void noAnswerInTimeIsATimeoutItMayHaveBeenApplied() throws Exception {
    for (SolrHttp.Reply r :
        new SolrHttp.Reply[] {
          http.post(base + "/slow", "application/json", "[]", Duration.ofMillis(300)),
          http.postAsync(base + "/slow", "application/json", "[]", Duration.ofMillis(300))
              .get(20, TimeUnit.SECONDS)
        }) {
      assertThat(r.status()).isZero();
      assertThat(r.refused()).isFalse();
      assertThat(r.timedOut()).isTrue();
      assertThat(r.message()).isEqualTo("timeout after 300 ms");
    }
  }
}
