package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.lang.reflect.RecordComponent;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.BenchSummary;
import org.solrscale.spec.Arrivals;
import org.solrscale.spec.QueryOrder;
import org.solrscale.spec.Routing;
import org.solrscale.spec.SolrscaleException;

class BenchRequestTest {

  /** A request whose every component differs from its default, so a dropped one shows. */
  static BenchRequest full(Path dir, List<String> urls, Routing routing) {
    return new BenchRequest(
        urls,
        "docs",
        List.of(new BenchRequest.Mix(dir.resolve("q.txt"), 3)),
        List.of("term"),
        null,
        List.of(40.0, 80.0),
        Arrivals.POISSON,
        Duration.ofMillis(700),
        Duration.ofMillis(300),
        7L,
        Duration.ofMillis(900),
        11L,
        QueryOrder.SEQUENTIAL,
        1.1,
        5,
        Duration.ofMillis(2500),
        routing,
        "node.sysprop:sysprop.dc",
        true,
        Duration.ofMillis(150),
        "gzip",
        3,
        0.25,
        dir.resolve("out"),
        12345L,
        List.of("h1", "h2"),
        new BenchRequest.Replay(dir.resolve("r.jsonl"), 2.5, Duration.ofSeconds(5), true, 4, 0, 1),
        0.05);
  }

  /** The same request as a mix of query files instead of a replay. */
  static BenchRequest noReplay(BenchRequest r) {
    return BenchRequest.fromJson(
        r.toJson().replaceAll("\"replay\":\\{[^}]*\\}", "\"replay\":null"));
  }

  @Test
  void everyComponentReachesTheDriverAsSentOrAsItsShare(@TempDir Path dir) throws Exception {
    BenchRequest sent = full(dir, List.of("http://a:8983/solr"), Routing.parse("node:n1"));
    for (RecordComponent c : BenchRequest.class.getRecordComponents()) {
      if (!c.getName().equals("threads")) { // an open loop: threads is the closed loop's
        assertThat(c.getAccessor().invoke(sent)).as(c.getName() + " in the fixture").isNotNull();
      }
    }
    List<BenchRequest.Mix> there = List.of(new BenchRequest.Mix(Path.of("/h/q.txt"), 3));
    BenchRequest share = sent.share(1, 2, there, Path.of("/h/r.jsonl"), Path.of("/h/out"), 999L);
    BenchRequest received = BenchRequest.fromJson(share.toJson());
    assertThat(received).isEqualTo(share);
    // what a driver's share changes, and to what; every other component arrives as sent
    Map<String, Object> changed =
        Map.of(
            "queries",
            there,
            "rates",
            List.of(20.0, 40.0),
            "seed",
            6L,
            "routing",
            Routing.node("http://a:8983/solr"),
            "out",
            Path.of("/h/out"),
            "startAt",
            999L,
            "replay",
            new BenchRequest.Replay(
                Path.of("/h/r.jsonl"), 2.5, Duration.ofSeconds(5), true, 4, 1, 2));
    for (RecordComponent c : BenchRequest.class.getRecordComponents()) {
      Object got = c.getAccessor().invoke(received);
      if (c.getName().equals("drivers")) {
        assertThat(got).as("a driver splits nothing further").isNull();
      } else if (changed.containsKey(c.getName())) {
        assertThat(got).as(c.getName()).isEqualTo(changed.get(c.getName()));
      } else {
        assertThat(got).as(c.getName()).isEqualTo(c.getAccessor().invoke(sent));
      }
    }
    // the closed loop: the threads are shared as whole ones
    BenchRequest closed =
        BenchRequest.fromJson(
            sent.toJson()
                .replace("\"threads\":null", "\"threads\":5")
                .replace("[40.0,80.0]", "null"));
    assertThat(closed.threads()).isEqualTo(5);
    BenchRequest closedShare =
        BenchRequest.fromJson(
            closed.share(1, 2, there, Path.of("/h/r.jsonl"), Path.of("/h/out"), 999L).toJson());
    assertThat(closedShare.threads()).isEqualTo(2);
    assertThat(closedShare.rates()).isNull();
    assertThat(
            closedShare
                .toJson()
                .replace("\"threads\":2", "\"threads\":null")
                .replace("\"rates\":null", "\"rates\":[20.0,40.0]"))
        .isEqualTo(share.toJson());
  }

  @Test
  void ratesSplitEvenlyAndThreadsAsWholeOnes(@TempDir Path dir) {
    BenchRequest r = noReplay(full(dir, List.of("http://a/solr"), Routing.CLOUD));
    List<BenchRequest.Mix> q = r.queries();
    assertThat(r.share(0, 3, q, null, dir, 0).rates()).containsExactly(40.0 / 3, 80.0 / 3);
    BenchRequest threads =
        BenchRequest.fromJson(r.toJson().replace("\"threads\":null", "\"threads\":8"))
            .share(0, 1, q, null, dir, 0);
    assertThat(threads.threads()).isEqualTo(8);
    BenchRequest eight =
        BenchRequest.fromJson(
            r.toJson().replace("\"threads\":null", "\"threads\":8").replace("[40.0,80.0]", "null"));
    assertThat(List.of(0, 1, 2).stream().map(i -> eight.share(i, 3, q, null, dir, 0).threads()))
        .containsExactly(3, 3, 2);
    assertThat(eight.share(2, 3, q, null, dir, 0).load()).isEqualTo("threads 2");
    assertThat(r.share(0, 2, q, null, dir, 0).load()).isEqualTo("rate 20.0,40.0");
  }

  @Test
  void aDriverRefusesWhatIsNoRequestInOneLine() {
    assertThatThrownBy(() -> BenchRequest.fromJson("{\"collection\": \"docs\", \"nonsense\": 1}"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageStartingWith("not a bench request: ")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> BenchDriver.drive(new BufferedReader(new StringReader("")), null))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("reads a bench request");
  }

  /**
   * A driver runs its request as sent: the collection, its templates only, the pass-through
   * parameters, compression, the user, the start moment, the open loop and the run directory.
   */
  @Test
  void aDriverRunsItsRequestAsSent(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("q.txt"), "q=a&_template=term\nq=b&_template=sort\n");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    List<String> queries = new CopyOnWriteArrayList<>();
    List<String> headers = new CopyOnWriteArrayList<>();
    List<Long> at = new CopyOnWriteArrayList<>();
    server.createContext(
        "/solr/docs/select",
        ex -> {
          at.add(System.currentTimeMillis());
          queries.add(ex.getRequestURI().getRawQuery());
          headers.add(
              ex.getRequestHeaders().getFirst("Accept-Encoding")
                  + " "
                  + ex.getRequestHeaders().getFirst("Authorization"));
          answer(ex);
        });
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/solr";
      long startAt = System.currentTimeMillis() + 1500;
      BenchRequest r =
          BenchRequest.fromJson(
              noReplay(full(dir, List.of(url), Routing.CLOUD))
                  .share(
                      0,
                      1,
                      List.of(new BenchRequest.Mix(dir.resolve("q.txt"), 1)),
                      null,
                      dir.resolve("out"),
                      startAt)
                  .toJson()
                  .replace("\"warmupRequests\":7,", "\"warmupRequests\":null,")
                  .replace("\"requests\":11,", "\"requests\":null,"));
      queries.clear(); // nothing sent before the driver runs
      BenchSummary s =
          BenchDriver.drive(
              new BufferedReader(new StringReader(r.toJson() + "\ns3cret\n")), "reader");
      assertThat(s.loadModel()).isEqualTo("open");
      assertThat(s.count()).isPositive();
      assertThat(Files.isRegularFile(dir.resolve("out/summary.json"))).isTrue();
      assertThat(queries)
          .isNotEmpty()
          .allMatch(q -> q.startsWith("q=a&"), "only the template term")
          .allMatch(q -> q.contains("shards.preference=node.sysprop%3Asysprop.dc"))
          .allMatch(q -> q.contains("shards.tolerant=true"));
      // base64("reader:s3cret"); the probe (the first) asks for no compression
      assertThat(headers.stream().skip(1))
          .allMatch(h -> h.equals("gzip Basic cmVhZGVyOnMzY3JldA=="));
      // the probe goes first; the load starts at the moment it was given
      assertThat(at.stream().skip(1)).allMatch(t -> t >= startAt);
    } finally {
      server.stop(0);
    }
  }

  private static void answer(com.sun.net.httpserver.HttpExchange ex) throws IOException {
    byte[] body = "{\"response\":{\"numFound\":1,\"docs\":[]}}".getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(200, body.length);
    try (OutputStream o = ex.getResponseBody()) {
      o.write(body);
    }
  }
}
