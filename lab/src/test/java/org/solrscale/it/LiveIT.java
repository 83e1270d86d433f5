package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.live.LiveServer;
import org.solrscale.live.RunFollower;
import org.solrscale.testing.Await;
import org.solrscale.testing.Browser;
import org.solrscale.testing.Needs;

/**
 * The live view of a real run against real Solr and ZooKeeper: a real headless Chromium follows the
 * page while it goes (the latency chart grows, a planted kill shows as a fault window with the node
 * down, the progress reaches the end, nothing is fetched from elsewhere); a real Prometheus scrapes
 * /metrics during it, and its count and histogram equal the run's own files; and {@code watch} on
 * the finished run shows the figures of its summary and report.
 */
class LiveIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** What the page holds at one moment, as its script keeps it. */
  private static final String PROBE =
      "const S = window.solrscale || {};"
          + "const faults = []; for (const l of Object.values(S.faults || {})) for (const f of l)"
          + " faults.push(f);"
          + "return {points: (S.points || []).length, events: S.events || 0,"
          + " latency: (S.points || []).filter(p => p[5] > 0).length,"
          + " seenDown: Object.keys(S.seenDown || {}), faults: faults,"
          + " downRows: Array.from(document.querySelectorAll('#nodes tr.down')).map(r =>"
          + " r.dataset.node),"
          + " progress: S.progress || {}, report: !!S.report, steps: S.steps || {},"
          + " leaders: S.leaders || {},"
          + " collections: document.getElementById('collections').textContent,"
          + " text: document.getElementById('progress-text').textContent,"
          + " resources: performance.getEntriesByType('resource').map(e => e.name)};";

  @Test
  void aRunIsFollowedLiveInABrowserScrapedByPrometheusAndWatchedAfter(@TempDir Path dir)
      throws Exception {
    String prometheus = Needs.prometheus();
    Needs.chromedriver();
    Path scenario = dir.resolve("live.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-live",
            "cluster:",
            "  nodes: 2",
            "  heap: 384m",
            "  collections: [{name: c, shards: 1, replicas: 2}]",
            "data:",
            "  synth: {docs: 500}",
            "  derive_queries: {count: 20}",
            "steps:",
            "  - index: {collection: c}",
            "  - fault: {name: planted, fault: kill, target: solr2, at: 8s, duration: 8s}",
            "  - bench: {name: during, collection: c, rate: 20, warmup: 2s, duration: 26s}",
            ""));
    int livePort = freePort();
    int replayPort = freePort();
    int promPort = freePort();
    Path promDir = Files.createDirectories(dir.resolve("prometheus"));
    Files.writeString(
        promDir.resolve("prometheus.yml"),
        String.join(
            "\n",
            "global: {scrape_interval: 1s, evaluation_interval: 1s}",
            "scrape_configs:",
            "  - job_name: solrscale",
            "    static_configs:",
            "      - targets: ['127.0.0.1:" + livePort + "', '127.0.0.1:" + replayPort + "']",
            ""));
    Process prom =
        new ProcessBuilder(
                prometheus,
                "--config.file=" + promDir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + promDir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + promPort)
            .redirectErrorStream(true)
            .redirectOutput(promDir.resolve("prometheus.log").toFile())
            .start();
    Path out = dir.resolve("run");
    AtomicReference<Cli.Result> result = new AtomicReference<>();
    Thread runner =
        new Thread(
            () ->
                result.set(
                    Cli.run(
                        "run",
                        scenario.toString(),
                        "--out",
                        out.toString(),
                        "--live",
                        "--live-port",
                        Integer.toString(livePort))));
    String url = "http://127.0.0.1:" + livePort + "/";
    List<JsonNode> seen = new ArrayList<>();
    try {
      runner.start();
      Await.until(
          "the live view answers",
          Duration.ofSeconds(60),
          () -> get(url + "metrics").statusCode() == 200);
      try (Browser browser = new Browser(dir.resolve("chromium"))) {
        browser.open(url);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(6);
        while (runner.isAlive() && System.nanoTime() < deadline) {
          seen.add(browser.eval(PROBE));
          Thread.sleep(1000); // a sample a second: the page is watched, not waited on
        }
        runner.join(TimeUnit.MINUTES.toMillis(2));
      }
      assertThat(runner.isAlive()).as("the run ended").isFalse();
      Cli.Result r = result.get();
      assertThat(r.exitCode()).as(r.err()).isIn(0, 1); // requests to the killed node may fail
      assertThat(r.err()).contains("live view: " + url);

      // the browser: the latency chart gained points while the run went on
      List<Integer> latency = seen.stream().map(j -> j.path("latency").asInt()).toList();
      assertThat(latency.stream().distinct().filter(n -> n > 0).count())
          .as("distinct sizes of the latency chart, seen each second: " + latency)
          .isGreaterThanOrEqualTo(10);
      // the planted kill as a fault window, with the node shown down while it held
      assertThat(seen)
          .anySatisfy(
              j -> {
                assertThat(j.path("faults").toString()).contains("\"fault\":\"kill\"", "solr2");
                assertThat(j.path("downRows").toString()).contains("solr2");
              });
      // each shard's leader by our name of its node, on the page as in the data
      assertThat(seen)
          .anySatisfy(
              j -> {
                assertThat(j.path("leaders").path("c").path("shard1").asText())
                    .isIn("solr1", "solr2");
                assertThat(j.path("collections").asText()).contains("leaders: shard1 solr");
              });
      JsonNode last = seen.get(seen.size() - 1);
      assertThat(last.path("faults").get(0).path("end_ms").asLong()).isPositive();
      assertThat(last.path("seenDown").toString()).contains("solr2");
      // the progress reached the end (the server holds its last event before it goes)
      assertThat(last.path("progress").path("finished").asBoolean()).as(last.toString()).isTrue();
      assertThat(last.path("text").asText()).startsWith("finished");
      // and nothing was fetched from anywhere but the server
      assertThat(last.path("resources")).isNotEmpty();
      for (JsonNode res : last.path("resources")) {
        assertThat(res.asText()).startsWith(url);
      }

      // the run's own figures: summary.json's count, and its histogram read by HdrHistogram
      JsonNode step =
          JSON.readTree(out.resolve("results.json").toFile())
              .get("combinations")
              .get(0)
              .get("steps")
              .get(1);
      String stepId = step.get("dir").asText();
      JsonNode summary = JSON.readTree(out.resolve(stepId).resolve("summary.json").toFile());
      long count = summary.get("count").asLong();
      Histogram own = new Histogram(3_600_000_000L, 3);
      HistogramLogReader reader =
          new HistogramLogReader(out.resolve(stepId).resolve("latency.hlog").toFile());
      for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
        if ("latency".equals(h.getTag())) {
          own.add((Histogram) h);
        }
      }
      assertThat(own.getTotalCount()).isEqualTo(count);

      // watch after the fact, in this process, where Prometheus scrapes its second target
      try (LiveServer replay =
              LiveServer.start(RunFollower.of(out), "127.0.0.1", replayPort, w -> {});
          Browser browser = new Browser(dir.resolve("chromium2"))) {
        String api = "http://127.0.0.1:" + promPort;
        for (int port : new int[] {livePort, replayPort}) {
          String sel = "{instance=\"127.0.0.1:" + port + "\",step=\"" + stepId + "\"";
          double requests =
              Await.value(
                  "Prometheus's count for " + port,
                  Duration.ofSeconds(60),
                  () ->
                      query(
                          api,
                          "sum(last_over_time(solrscale_requests_total"
                              + sel
                              + ",phase=\"measured\"}[10m]))"),
                  v -> v == count);
          assertThat(requests).isEqualTo((double) count);
          assertThat(
                  query(
                      api,
                      "last_over_time(solrscale_request_duration_seconds_count" + sel + "}[10m])"))
              .isEqualTo((double) own.getTotalCount());
          assertThat(
                  query(
                      api,
                      "last_over_time(solrscale_request_duration_seconds_sum" + sel + "}[10m])"))
              .isCloseTo(
                  own.getMean() * own.getTotalCount() / 1e6,
                  org.assertj.core.data.Offset.offset(
                      1e-6 * Math.max(1, own.getMean() * own.getTotalCount() / 1e6)));
        }
        // the page of the finished run: the figures of its summary, and the report's link
        browser.open("http://127.0.0.1:" + replayPort + "/");
        JsonNode page =
            Await.value(
                "the replayed page has the run",
                Duration.ofSeconds(30),
                () -> browser.eval(PROBE),
                j ->
                    j.path("steps").path(stepId).path("measured").asLong() == count
                        && j.path("report").asBoolean());
        JsonNode lat = page.path("steps").path(stepId).path("latency");
        for (String p : List.of("p50", "p99", "p99.9")) {
          assertThat(lat.path(p).asDouble())
              .as(p)
              .isEqualTo(summary.get("latency_ms").get(p).asDouble());
        }
        assertThat(get("http://127.0.0.1:" + replayPort + "/report/").body())
            .isEqualTo(Files.readString(out.resolve("report.html")));
        Files.write(dir.resolve("live.png"), browser.screenshot());
      }
    } finally {
      if (runner.isAlive()) {
        runner.interrupt();
        runner.join(TimeUnit.MINUTES.toMillis(2));
      }
      prom.destroy(); // by its pid
      if (!prom.waitFor(20, TimeUnit.SECONDS)) {
        prom.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** One number from Prometheus's query API (NaN when the query has no result yet). */
  private double query(String prom, String q) throws Exception {
    JsonNode j =
        JSON.readTree(
            get(prom + "/api/v1/query?query=" + URLEncoder.encode(q, StandardCharsets.UTF_8))
                .body());
    JsonNode r = j.path("data").path("result");
    return r.isEmpty() ? Double.NaN : r.get(0).path("value").get(1).asDouble();
  }
}
