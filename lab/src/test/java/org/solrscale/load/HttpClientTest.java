package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.solrscale.cluster.Access;
import org.solrscale.spec.Routing;

/**
 * The driver's HTTP/1.1 parser and event loop, against byte-exact input and a real local server.
 */
class HttpClientTest {

  static ResponseParser parseInPieces(String response, int piece) {
    ResponseParser p = new ResponseParser();
    p.reset(false);
    byte[] b = response.getBytes(StandardCharsets.ISO_8859_1);
    for (int i = 0; i < b.length && !p.done(); i += piece) {
      p.feed(ByteBuffer.wrap(b, i, Math.min(piece, b.length - i)));
    }
    return p;
  }

  static void answer(HttpExchange ex, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(200, body.length);
    try (OutputStream o = ex.getResponseBody()) {
      o.write(body);
    }
  }

  @Test
  void parsesLengthAndChunkedBodiesWhateverTheReadSizes() {
    String fixed =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n"
            + "{\"response\":{\"numFound\":9}}";
    String chunked =
        "HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n"
            + "Content-Encoding: gzip\r\nConnection: close\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n";
    for (int piece : new int[] {1, 3, 7, 1000}) {
      ResponseParser a = parseInPieces(fixed, piece);
      assertThat(a.done()).isTrue();
      assertThat(a.status).isEqualTo(200);
      assertThat(new String(a.head(), StandardCharsets.UTF_8))
          .isEqualTo("{\"response\":{\"numFound\":9}}");
      assertThat(a.bytes).isEqualTo(fixed.length());
      ResponseParser b = parseInPieces(chunked, piece);
      assertThat(b.done()).isTrue();
      assertThat(b.status).isEqualTo(503);
      assertThat(b.gzip).isTrue();
      assertThat(b.close).isTrue();
      assertThat(new String(b.head(), StandardCharsets.UTF_8)).isEqualTo("hello world");
      assertThat(b.bytes).isEqualTo(chunked.length());
    }
  }

  @Test
  void sendsTheUsersCredentialsWithEveryRequest() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    server.createContext(
        "/solr/c/select",
        ex -> {
          seen.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
          answer(ex, "{\"response\":{\"numFound\":1,\"docs\":[]}}");
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/solr";
    try (HttpSender sender =
        new HttpSender(
            HttpSender.routing(Routing.CLOUD, List.of(url)),
            "c",
            "",
            false,
            3000,
            1,
            Clock.SYSTEM,
            Access.basic("reader", "s3cret"))) {
      for (int i = 0; i < 3; i++) {
        CompletableFuture<Outcome> f = new CompletableFuture<>();
        sender.send(
            new QueryRequest("/select", "q=" + i, "t", "x"), i, (o, sent, done) -> f.complete(o));
        assertThat(f.get(10, TimeUnit.SECONDS).failed()).isFalse();
      }
    } finally {
      server.stop(0);
    }
    // base64("reader:s3cret")
    assertThat(seen).containsOnly("Basic cmVhZGVyOnMzY3JldA==").hasSize(3);
  }

  @Test
  void aLoopKeepsConnectionsAliveQueuesBeyondThemAndTimesOut() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.createContext(
        "/solr/c/select",
        ex -> {
          if (ex.getRequestURI().getQuery().contains("slow")) {
            try {
              Thread.sleep(4500); // a slow server is what is under test, not a wait
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          answer(ex, "{\"response\":{\"numFound\":42,\"docs\":[]}}");
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/solr";
    try (HttpSender sender =
        new HttpSender(
            HttpSender.routing(Routing.CLOUD, List.of(url)),
            "c",
            "",
            false,
            3000,
            2,
            Clock.SYSTEM,
            Access.NONE)) {
      List<CompletableFuture<Outcome>> results = new ArrayList<>();
      for (int i = 0; i < 50; i++) { // 50 requests over 2 connections
        CompletableFuture<Outcome> f = new CompletableFuture<>();
        sender.send(
            new QueryRequest("/select", "q=" + i, "t", "x"), i, (o, sent, done) -> f.complete(o));
        results.add(f);
      }
      for (CompletableFuture<Outcome> f : results) {
        Outcome o = f.get(10, TimeUnit.SECONDS);
        assertThat(o.failed()).as(String.valueOf(o)).isFalse();
        assertThat(o.numFound()).isEqualTo(42);
      }
      CompletableFuture<Outcome> slow = new CompletableFuture<>();
      sender.send(
          new QueryRequest("/select", "q=slow", "t", "x"), 0, (o, sent, done) -> slow.complete(o));
      assertThat(slow.get(10, TimeUnit.SECONDS).errorKind()).isEqualTo("timeout");
    } finally {
      server.stop(0);
      ((ExecutorService) server.getExecutor()).shutdownNow();
    }
    CompletableFuture<Outcome> refused = new CompletableFuture<>();
    try (HttpSender sender =
        new HttpSender(
            HttpSender.routing(Routing.CLOUD, List.of("http://127.0.0.1:1/solr")),
            "c",
            "",
            false,
            2000,
            2,
            Clock.SYSTEM,
            Access.NONE)) {
      sender.send(
          new QueryRequest("/select", "q=x", "t", "x"), 0, (o, sent, done) -> refused.complete(o));
      assertThat(refused.get(10, TimeUnit.SECONDS).errorKind()).isEqualTo("connection");
    }
  }

  @Test
  void cloudRoutingFailsOverFromANodeThatRefusesAndSkipsItForAWhile() throws Exception {
    int dead;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      dead = probe.getLocalPort(); // closed again below: connections to it are refused
    }
    AtomicInteger served = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/solr/c/select",
        ex -> {
          served.incrementAndGet();
          answer(ex, "{\"response\":{\"numFound\":7}}");
        });
    server.start();
    String live = "http://127.0.0.1:" + server.getAddress().getPort() + "/solr";
    String down = "http://127.0.0.1:" + dead + "/solr";
    HttpSender.Routing routing = HttpSender.routing(Routing.CLOUD, List.of(down, live));
    try (HttpSender sender =
        new HttpSender(routing, "c", "", false, 3000, 2, Clock.SYSTEM, Access.NONE)) {
      for (int i = 0; i < 20; i++) {
        CompletableFuture<Outcome> f = new CompletableFuture<>();
        sender.send(
            new QueryRequest("/select", "q=" + i, "t", "x"), i, (o, sent, done) -> f.complete(o));
        Outcome o = f.get(10, TimeUnit.SECONDS);
        assertThat(o.failed()).as(String.valueOf(o)).isFalse();
        assertThat(o.numFound()).isEqualTo(7);
      }
      assertThat(served.get()).isEqualTo(20);
    } finally {
      server.stop(0);
    }
    // the refusing node is skipped until its time is up, then tried again
    long now = 1_000_000_000L;
    routing.refused(down, now);
    assertThat(
            IntStream.range(0, 6).mapToObj(k -> routing.baseUrl(k, now + 1, Set.of())).distinct())
        .containsExactly(live);
    assertThat(
            IntStream.range(0, 6)
                .mapToObj(
                    k -> routing.baseUrl(k, now + HttpSender.CloudRouting.DOWN_NANOS, Set.of()))
                .distinct())
        .containsExactlyInAnyOrder(live, down);
    // a failed-over request goes to another node than the one that failed, even a refusing one
    assertThat(routing.baseUrl(0, now + 1, Set.of(live))).isEqualTo(down);
    // a round-robin slot keeps its node, and a lone node gets no second attempt
    assertThat(HttpSender.routing(Routing.parse("round-robin"), List.of(down, live)).attempts())
        .isEqualTo(1);
    assertThat(HttpSender.routing(Routing.CLOUD, List.of(live)).attempts()).isEqualTo(1);
  }
}
