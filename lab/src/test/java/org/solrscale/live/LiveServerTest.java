package org.solrscale.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.load.Interval;
import org.solrscale.load.LoadRecorder;
import org.solrscale.load.RunLog;
import org.solrscale.results.HlogTail;
import org.solrscale.results.IndexProgressLog;
import org.solrscale.results.RunProgress;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.testing.Await;

/**
 * The live view's server on a run directory the real {@link RunLog} writes: /metrics holds exactly
 * the run's own figures (checked against HdrHistogram's reader of the same log, an independent
 * count), grows while the run is written, /events streams the seconds, and bad input gives one
 * line.
 */
@Timeout(120) // a stream that never brings what is awaited fails the test instead of hanging it
class LiveServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  @TempDir Path tmp;

  /** A second of {@code n} requests, latencies spread from 1 ms to 1 ms * n, and some failures. */
  private static Interval second(long t0, int k, boolean warmup, int n, Map<String, Long> errors) {
    Histogram lat = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
    Histogram lag = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
    for (int i = 1; i <= n; i++) {
      lat.recordValue(1000L * i + 37 * k);
      lag.recordValue(10L * i);
    }
    long start = t0 + k * 1_000_000_000L;
    long failed = errors.values().stream().mapToLong(Long::longValue).sum();
    return new Interval(
        start,
        start + 1_000_000_000L,
        warmup,
        lat,
        lat.copy(),
        lag,
        n,
        failed,
        100L * n,
        n + 1,
        errors);
  }

  private String get(String url) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url).isEqualTo(200);
    return r.body();
  }

  /** The value of each sample line of /metrics, by its name and labels as written. */
  private static Map<String, Double> samples(String text) {
    Map<String, Double> out = new TreeMap<>();
    for (String line : text.split("\n")) {
      if (!line.startsWith("#") && !line.isBlank()) {
        int sp = line.lastIndexOf(' ');
        out.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
      }
    }
    return out;
  }

  @Test
  void metricsHoldTheRunsOwnFiguresExactly() throws Exception {
    Path run = tmp.resolve("run");
    long t0 = System.nanoTime();
    try (RunLog log = new RunLog(t0, System.currentTimeMillis(), run, i -> {})) {
      log.accept(List.of(second(t0, 0, true, 50, Map.of("timeout", 2L))));
      log.accept(List.of(second(t0, 1, false, 200, Map.of("http_503", 3L, "timeout", 1L))));
      log.accept(List.of(second(t0, 2, false, 300, Map.of())));
      log.accept(List.of(second(t0, 3, false, 77, Map.of("http_503", 5L))));
    }
    Files.writeString(run.resolve("summary.json"), "{}");
    // the independent count: HdrHistogram's own reader of the same file
    Histogram expected = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
    HistogramLogReader reader = new HistogramLogReader(run.resolve("latency.hlog").toFile());
    for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
      if ("latency".equals(h.getTag())) {
        expected.add((Histogram) h);
      }
    }
    assertThat(expected.getTotalCount()).isEqualTo(577);

    try (LiveServer s = LiveServer.start(RunFollower.of(run), "127.0.0.1", 0, w -> {})) {
      Map<String, Double> m = samples(get(s.url() + "metrics"));
      String step = "step=\"run\"";
      assertThat(m)
          .containsEntry(
              "solrscale_requests_total{kind=\"\",outcome=\"ok\",phase=\"measured\"," + step + "}",
              577.0 - 9)
          .containsEntry(
              "solrscale_requests_total{kind=\"http_503\",outcome=\"error\",phase=\"measured\","
                  + step
                  + "}",
              8.0)
          .containsEntry(
              "solrscale_requests_total{kind=\"timeout\",outcome=\"error\",phase=\"measured\","
                  + step
                  + "}",
              1.0)
          .containsEntry(
              "solrscale_requests_total{kind=\"timeout\",outcome=\"error\",phase=\"warmup\","
                  + step
                  + "}",
              2.0)
          .containsEntry("solrscale_requests_sent_total{" + step + "}", 51.0 + 201 + 301 + 78);
      assertThat(m.get("solrscale_request_duration_seconds_count{" + step + "}"))
          .isEqualTo((double) expected.getTotalCount());
      assertThat(m.get("solrscale_request_duration_seconds_sum{" + step + "}"))
          .isCloseTo(expected.getMean() * expected.getTotalCount() / 1e6, within(1e-6));
      // buckets: cumulative, each the share HdrHistogram counts at or below the bound
      assertThat(m.get("solrscale_request_duration_seconds_bucket{" + step + ",le=\"0.1\"}"))
          .isEqualTo((double) expected.getCountBetweenValues(0, 100_000 - 1));
      assertThat(m.get("solrscale_request_duration_seconds_bucket{" + step + ",le=\"+Inf\"}"))
          .isEqualTo(577.0);
      assertThat(m).containsKey("solrscale_driver_cpu_seconds_total{" + step + "}");
      assertThat(m.get("solrscale_run_finished")).isEqualTo(0.0); // no progress.json: not said
    }
  }

  @Test
  void aBulkLoadsDocumentsPerSecondAreWhatCompareReadsFromTheSameFile() throws Exception {
    Path run = tmp.resolve("index");
    long began = System.currentTimeMillis() - 10_000;
    Files.createDirectories(run);
    RunProgress.stepStarted(run, "index", "c", began);
    double[][] rows = {{0.5, 300}, {1.0, 800}, {1.5, 1000}, {2.0, 2500}, {2.6, 2600}, {3.4, 4000}};
    RunFollower f = RunFollower.of(run);
    try (IndexProgressLog log = new IndexProgressLog(run);
        LiveServer s = LiveServer.start(f, "127.0.0.1", 0, w -> {})) {
      for (double[] r : rows) {
        log.record(r[0], (long) r[1]);
      }
      // the independent reading: compare's own, of the same file
      double[] perSecond = IndexProgressLog.perSecond(run);
      assertThat(perSecond).hasSize(3);
      f.poll(w -> {});
      List<Double> docs =
          f.read(st -> st.get(0).points.stream().map(StepFeed.Point::docs).toList());
      assertThat(docs).hasSize(3);
      for (int k = 0; k < 3; k++) {
        assertThat(docs.get(k)).as("second " + k).isCloseTo(perSecond[k], within(1e-9));
      }
      long second1 = f.read(st -> st.get(0).points.get(1).startMs());
      assertThat(second1).isEqualTo(began + 1000);
      Map<String, Double> m = samples(get(s.url() + "metrics"));
      assertThat(m).containsEntry("solrscale_index_documents_total{step=\"index\"}", 4000.0);
    }
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }

  @Test
  void figuresGrowWhileTheRunIsWrittenAndEventsStreamThem() throws Exception {
    Path run = tmp.resolve("growing");
    long t0 = System.nanoTime();
    Files.createDirectories(run); // progress.json is written only into a directory the run made
    RunProgress progress = new RunProgress(run, "bench");
    progress.set("planned_s", 4);
    try (RunLog log = new RunLog(t0, System.currentTimeMillis(), run, i -> {});
        LiveServer s = LiveServer.start(RunFollower.of(run), "127.0.0.1", 0, w -> {})) {
      log.accept(List.of(second(t0, 0, false, 10, Map.of())));
      String count = "solrscale_request_duration_seconds_count{step=\"growing\"}";
      Await.until(
          "the first second in /metrics",
          Duration.ofSeconds(10),
          () -> Double.valueOf(10).equals(samples(get(s.url() + "metrics")).get(count)));
      // a page's stream: the first event has the second so far
      HttpResponse<InputStream> events =
          http.send(
              HttpRequest.newBuilder(URI.create(s.url() + "events")).build(),
              HttpResponse.BodyHandlers.ofInputStream());
      BufferedReader in =
          new BufferedReader(new InputStreamReader(events.body(), StandardCharsets.UTF_8));
      // (the second's histograms and its closing comment may be read by different polls)
      JsonNode first = nextEvent(in);
      while (first.path("steps").get(0).path("points").isEmpty()) {
        first = nextEvent(in);
      }
      assertThat(first.path("steps").get(0).path("points")).hasSize(1);
      assertThat(first.path("progress").path("planned_s").asInt()).isEqualTo(4);

      log.accept(List.of(second(t0, 1, false, 20, Map.of("timeout", 1L))));
      Files.writeString(
          run.resolve("faults.jsonl"),
          "{\"at_ms\":1,\"phase\":\"start\",\"name\":\"k\",\"fault\":\"kill\",\"nodes\":[\"solr2\"]}\n");
      JsonNode next = nextEvent(in);
      while (next.path("steps").get(0).path("faults").isEmpty()
          || next.path("steps").get(0).path("points").isEmpty()) {
        next = nextEvent(in);
      }
      // only what is new: the second second, not the first again
      JsonNode p = next.path("steps").get(0).path("points");
      assertThat(p).hasSize(1);
      assertThat(p.get(0).get(1).asLong()).isEqualTo(20);
      assertThat(p.get(0).get(9).path("timeout").asLong()).isEqualTo(1);
      assertThat(next.path("steps").get(0).path("faults").get(0).path("nodes").asText())
          .isEqualTo("solr2");
      assertThat(samples(get(s.url() + "metrics")))
          .containsEntry(
              "solrscale_fault_active{fault=\"kill\",name=\"k\",nodes=\"solr2\",step=\"growing\"}",
              1.0);
      events.body().close();
    }
  }

  private static JsonNode nextEvent(BufferedReader in) throws Exception {
    for (String line; (line = in.readLine()) != null; ) {
      if (line.startsWith("data: ")) {
        return JSON.readTree(line.substring(6));
      }
    }
    throw new AssertionError("the stream ended");
  }

  @Test
  void thePageAndItsChartsComeFromTheJarWithTheirLicence() throws Exception {
    Path run = Files.createDirectories(tmp.resolve("empty"));
    try (LiveServer s = LiveServer.start(RunFollower.of(run), "127.0.0.1", 0, w -> {})) {
      assertThat(get(s.url())).contains("<script src=\"uplot.js\">");
      assertThat(get(s.url() + "uplot.js")).contains("uPlot");
      assertThat(get(s.url() + "uplot-LICENSE")).contains("MIT");
      assertThat(get(s.url() + "page.js")).contains("EventSource");
      HttpResponse<String> missing =
          http.send(
              HttpRequest.newBuilder(URI.create(s.url() + "report/../../etc/passwd")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(missing.statusCode()).isEqualTo(404);
    }
  }

  @Test
  void badInputGetsOneLine() throws Exception {
    Path notRun = Files.createDirectories(tmp.resolve("photos"));
    Files.writeString(notRun.resolve("cat.jpg"), "meow");
    assertThatThrownBy(() -> RunFollower.of(notRun))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("is not a run directory")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThatThrownBy(() -> RunFollower.of(notRun.resolve("cat.jpg")))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("is a file");

    Path run = tmp.resolve("run");
    long t0 = System.nanoTime();
    try (RunLog log = new RunLog(t0, System.currentTimeMillis(), run, i -> {})) {
      log.accept(List.of(second(t0, 0, false, 10, Map.of())));
    }
    try (ServerSocket taken = new ServerSocket(0)) {
      assertThatThrownBy(
              () ->
                  LiveServer.start(RunFollower.of(run), "127.0.0.1", taken.getLocalPort(), w -> {}))
          .isInstanceOf(SolrscaleException.class)
          .hasMessageContaining("cannot listen on 127.0.0.1:" + taken.getLocalPort())
          .hasMessageContaining("--port");
    }

    List<String> warnings = new ArrayList<>();
    RunFollower followed = RunFollower.of(run);
    try (LiveServer s =
        LiveServer.start(
            followed,
            "127.0.0.1",
            0,
            w -> {
              synchronized (warnings) {
                warnings.add(w);
              }
            })) {
      org.solrscale.runtime.FileTrees.delete(run);
      Await.until(
          "the deletion noticed",
          Duration.ofSeconds(10),
          () -> {
            synchronized (warnings) {
              return !warnings.isEmpty();
            }
          });
      // more polls (the server's own go on meanwhile): still one warning
      for (int i = 0; i < 3; i++) {
        followed.poll(
            w -> {
              synchronized (warnings) {
                warnings.add(w);
              }
            });
      }
      String metrics = get(s.url() + "metrics"); // and the figures read before still served
      assertThat(samples(metrics))
          .containsEntry("solrscale_request_duration_seconds_count{step=\"run\"}", 10.0);
      synchronized (warnings) {
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("was deleted");
      }
    }
  }

  @Test
  void aLineStillBeingWrittenWaitsForTheNextPoll() throws Exception {
    Path run = tmp.resolve("run");
    long t0 = System.nanoTime();
    try (RunLog log = new RunLog(t0, System.currentTimeMillis(), run, i -> {})) {
      log.accept(List.of(second(t0, 0, false, 10, Map.of())));
      log.accept(List.of(second(t0, 1, false, 30, Map.of())));
    }
    byte[] all = Files.readAllBytes(run.resolve("latency.hlog"));
    Path half = tmp.resolve("half/latency.hlog");
    Files.createDirectories(half.getParent());
    String text = new String(all, StandardCharsets.US_ASCII);
    int cut = text.lastIndexOf("Tag=latency") + 30; // inside the second second's histogram
    Files.write(half, java.util.Arrays.copyOf(all, cut));
    HlogTail tail = new HlogTail(half);
    long first = tail.poll().stream().filter(e -> "latency".equals(e.tag())).count();
    assertThat(first).isEqualTo(1);
    Files.write(half, all);
    List<HlogTail.Entry> rest = tail.poll();
    assertThat(rest.stream().filter(e -> "latency".equals(e.tag())).toList())
        .singleElement()
        .satisfies(e -> assertThat(e.histogram().getTotalCount()).isEqualTo(30));
    Matcher m =
        Pattern.compile("live ")
            .matcher(
                String.join("\n", rest.stream().map(e -> String.valueOf(e.comment())).toList()));
    assertThat(m.find()).as("the second's comment").isTrue();
  }
}
