package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.runtime.SolrscaleHome;

/**
 * Replaying Solr's own request logs against a real 2-node, 2-shard cluster: a bench's requests come
 * back out of the nodes' solr.log files one for one, replay at 4x with every hit count equal, and
 * after documents are deleted the answer check names exactly the requests an independent count of
 * the deleted documents says must differ.
 */
class ReplayIT {
  static final String NAME = "it-replay";
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  @RegisterExtension
  static final ItCluster CLUSTER =
      new ItCluster(
          NAME, "--nodes", "2", "--heap", "384m", "--collection", "docs", "--shards", "2");

  @Test
  void aBenchComesBackOutOfTheLogsAndReplaysWithTheSameAnswers() throws Exception {
    Path corpus = dir.resolve("synth.jsonl");
    assertThat(Cli.run("data", "synth", "--docs", "3000", "-o", corpus.toString()).exitCode())
        .isZero();
    assertThat(
            Cli.run("index", "--name", NAME, "--collection", "docs", corpus.toString()).exitCode())
        .isZero();
    Path queries = dir.resolve("queries.txt");
    assertThat(
            Cli.run(
                    "data",
                    "queries",
                    corpus.toString(),
                    "--count",
                    "120",
                    "--kinds",
                    "term,and,filter,sort,facet",
                    "-o",
                    queries.toString())
                .exitCode())
        .isZero();
    // what the bench sends starts after the last request the logs hold now (the index's own
    // count queries, each logged before index returned)
    Path before = dir.resolve("before.jsonl");
    Cli.Result earlier =
        Cli.run(
            "data",
            "log-requests",
            logs() + "/solr*/logs/solr.log*",
            "--zone",
            "UTC",
            "-o",
            before.toString());
    assertThat(earlier.exitCode()).as(earlier.err()).isZero();
    long lastBefore = 0;
    for (String line : Files.readAllLines(before)) {
      lastBefore = Math.max(lastBefore, JSON.readTree(line).get("start_ms").asLong());
    }
    String from = java.time.Instant.ofEpochMilli(lastBefore + 1).toString();
    Path b1 = dir.resolve("b1");
    Cli.Result bench =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--queries",
            queries.toString(),
            "--rate",
            "30",
            "--warmup",
            "2s",
            "--duration",
            "8s",
            "--zipf",
            "1.1",
            "--out",
            b1.toString());
    assertThat(bench.exitCode()).as(bench.err()).isZero();
    JsonNode sent = JSON.readTree(b1.resolve("summary.json").toFile());
    // the bench's own record: measured, warm-up, and the probe's one request
    long expected = sent.get("count").asLong() + sent.get("warmup").get("count").asLong() + 1;

    Path requests = dir.resolve("requests.jsonl");
    Cli.Result read =
        Cli.run(
            "data",
            "log-requests",
            logs() + "/solr*/logs/solr.log*", // as quoted on a command line: solrscale globs it
            "--zone",
            "UTC",
            "--from",
            from,
            "-o",
            requests.toString(),
            "--json");
    assertThat(read.exitCode()).as(read.err()).isZero();
    JsonNode summary = JSON.readTree(read.out());
    assertThat(summary.get("kept").asLong()).isEqualTo(expected);
    assertThat(Files.readAllLines(requests)).hasSize((int) expected);
    assertThat(summary.get("left_out").get("per-shard sub-request (isShard=true)").asLong())
        .isGreaterThanOrEqualTo(expected); // two shards: each top-level request made some
    assertThat(summary.get("bad").asLong()).isZero();
    assertThat(Files.readString(requests)).doesNotContain("isShard").doesNotContain("\"wt\"");

    // replay at 4x: every request, on schedule, with the hits production logged
    Path b2 = dir.resolve("b2");
    JsonNode replay = replay(requests, b2);
    JsonNode check = replay.get("replay");
    assertThat(check.get("scheduled").asLong()).isEqualTo(expected);
    assertThat(check.get("answered").asLong()).isEqualTo(expected);
    assertThat(check.get("checked").asLong()).isEqualTo(expected);
    assertThat(check.get("equal").asLong()).isEqualTo(expected);
    assertThat(check.get("flagged").asBoolean()).isFalse();
    assertThat(check.get("schedule_seconds").asDouble())
        .isCloseTo(
            check.get("log_seconds").asDouble() / 4, org.assertj.core.data.Offset.offset(0.01));
    // the driver sent each request at its offset over 4 itself: its verdict rests on its own
    // lateness (a request may still wait for a connection a slow, cold server holds: 600 ms once)
    assertThat(replay.get("driver").get("bottleneck").asText()).doesNotStartWith("driver");
    assertThat(replay.get("count").asLong()).isEqualTo(expected);

    // a changed index: delete one category, counting first which logged requests it answers
    String category = "category_s:" + firstValue(corpus, "category_s");
    List<JsonNode> logged = new ArrayList<>();
    for (String line : Files.readAllLines(requests)) {
      logged.add(JSON.readTree(line));
    }
    long mustDiffer = 0;
    for (JsonNode r : logged) {
      String q =
          query(r.get("params")) + "&fq=" + URLEncoder.encode(category, StandardCharsets.UTF_8);
      if (numFound("docs/select?" + q + "&rows=0&wt=json") > 0) {
        mustDiffer++;
      }
    }
    assertThat(mustDiffer).isPositive();
    HttpResponse<String> deleted =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            CLUSTER.cluster().solrUrls().get(0)
                                + "/docs/update?commit=true&wt=json"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"delete\":{\"query\":\"" + category + "\"}}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
    Path b3 = dir.resolve("b3");
    JsonNode changed = replay(requests, b3).get("replay");
    assertThat(changed.get("checked").asLong()).isEqualTo(expected);
    assertThat(changed.get("checked").asLong() - changed.get("equal").asLong())
        .isEqualTo(mustDiffer);
    assertThat(changed.get("flagged").asBoolean()).isEqualTo((double) mustDiffer / expected > 0.01);
    assertThat(changed.get("most_different").size()).isEqualTo((int) Math.min(10, mustDiffer));
    for (JsonNode d : changed.get("most_different")) {
      assertThat(d.get("replay_hits").asLong()).isLessThan(d.get("logged_hits").asLong());
    }
    // one line per request, its answer here beside the logged one
    List<String> rows = Files.readAllLines(b3.resolve("replay-requests.csv"));
    assertThat(rows).hasSize((int) expected + 1);
    long differ =
        rows.stream().skip(1).map(l -> l.split(",")).filter(c -> !c[2].equals(c[3])).count();
    assertThat(differ).isEqualTo(mustDiffer);

    // the report's Replay section, and the flag among the findings when it is raised
    Cli.Result report = Cli.run("report", b3.toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    String html = Files.readString(b3.resolve("report.html"));
    assertThat(html).contains("id=\"replay\"", "Latency here against logged QTime");
    if (changed.get("flagged").asBoolean()) {
      assertThat(html).contains("the lab&#39;s index does not answer like production&#39;s");
    }
    // two replays of one log judged kind by kind
    Cli.Result cmp = Cli.run("compare", b2.toString(), b3.toString(), "--json");
    assertThat(cmp.exitCode()).as(cmp.err()).isIn(0, 1);
    assertThat(JSON.readTree(cmp.out()).get("steps"))
        .anySatisfy(
            st -> {
              assertThat(st.get("step").asText()).isEqualTo("bench kind docs /select");
              assertThat(st.get("samples").asText()).isEqualTo("per-request");
              assertThat(st.get("metrics").get(0).get("n_a").asLong()).isEqualTo(expected);
            });

    // a scenario's replay step, its speed swept, against this cluster
    Path scenario = dir.resolve("replay.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-replay-run",
            "cluster: {nodes: 1}", // not started: the steps run against --zk
            "steps:",
            "  - bench: {name: log, collection: docs, replay: " + requests + ", warmup: 0s}",
            "matrix:",
            "  bench.log.speed: [4, 8]",
            ""));
    Path run = dir.resolve("run");
    Cli.Result ran =
        Cli.run(
            "run",
            scenario.toString(),
            "--zk",
            CLUSTER.cluster().state().orElseThrow().zkHost(),
            "--out",
            run.toString());
    assertThat(ran.exitCode()).as(ran.err()).isZero();
    JsonNode results = JSON.readTree(run.resolve("results.json").toFile());
    List<Double> speeds = new ArrayList<>();
    for (JsonNode c : results.get("combinations")) {
      JsonNode r = c.get("steps").get(0).get("summary").get("replay");
      speeds.add(r.get("speed").asDouble());
      assertThat(r.get("answered").asLong()).isEqualTo(expected);
      assertThat(r.get("checked").asLong() - r.get("equal").asLong()).isEqualTo(mustDiffer);
    }
    assertThat(speeds).containsExactly(4.0, 8.0);

    // a query file as people type it (raw spaces and quotes) is sent as meant: no errors
    Path typed = dir.resolve("typed.txt");
    Files.writeString(typed, "q=body_t:a OR body_t:\"b c\"&rows=10\nq=*:* AND NOT body_t:zz\n");
    Cli.Result ok =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--queries",
            typed.toString(),
            "--threads",
            "1",
            "--warmup",
            "0s",
            "--requests",
            "20",
            "--json");
    assertThat(ok.exitCode()).as(ok.err()).isZero();
    assertThat(JSON.readTree(ok.out()).get("errors").get("total").asLong()).isZero();
    // a query Solr cannot parse stops the bench before the load, with Solr's message and file:line
    Path bad = dir.resolve("bad.txt");
    Files.writeString(bad, "# typed by hand\nq=body_t:(unclosed\n");
    Cli.Result refused =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--queries",
            bad.toString(),
            "--rate",
            "10",
            "--duration",
            "5s");
    assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(2);
    assertThat(refused.err().strip().lines().reduce((a, b) -> b).orElse(""))
        .startsWith("solrscale: " + bad + ":2: collection docs refuses this request (HTTP 400:")
        .contains("SyntaxError");
    assertThat(refused.out()).doesNotContain("open loop:");
  }

  static JsonNode replay(Path requests, Path out) throws Exception {
    Cli.Result r =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--replay",
            requests.toString(),
            "--speed",
            "4",
            "--warmup",
            "0s",
            "--out",
            out.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("replay of " + requests + " at 4x");
    return JSON.readTree(out.resolve("summary.json").toFile());
  }

  static Path logs() {
    return SolrscaleHome.fromEnvironment().dir().resolve("clusters").resolve(NAME);
  }

  /** The parameters of a logged request as a query string. */
  static String query(JsonNode params) {
    List<String> pairs = new ArrayList<>();
    params
        .fields()
        .forEachRemaining(
            e ->
                e.getValue()
                    .forEach(
                        v ->
                            pairs.add(
                                URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                                    + "="
                                    + URLEncoder.encode(v.asText(), StandardCharsets.UTF_8))));
    return String.join("&", pairs);
  }

  static String firstValue(Path corpus, String field) throws Exception {
    return JSON.readTree(Files.readAllLines(corpus).get(0)).get(field).asText();
  }

  static long numFound(String path) throws Exception {
    HttpResponse<String> q =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(CLUSTER.cluster().solrUrls().get(0) + "/" + path))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
    return JSON.readTree(q.body()).get("response").get("numFound").asLong();
  }
}
