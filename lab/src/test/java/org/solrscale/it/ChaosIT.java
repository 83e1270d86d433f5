package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.chaos.ChaosRun;
import org.solrscale.chaos.LossChecker;
import org.solrscale.cluster.Cluster;
import org.solrscale.results.LossVerdict;
import org.solrscale.testing.Await;

/** `chaos` against a real cluster: 3 ZooKeepers, 2 Solr nodes, 2 shards x 2 replicas. */
class ChaosIT {
  static final String NAME = "it-chaos";
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  /** The class's cluster, up before its first test and checked gone after its last. */
  @RegisterExtension
  static final ItCluster CLUSTER =
      new ItCluster(
          NAME,
          "--nodes",
          "2",
          "--zookeepers",
          "3",
          "--heap",
          "384m",
          // a 10 s ZooKeeper session (Solr's default is 30 s): the faults below outlast it in 13-14
          // s
          "--jvm-arg",
          "-DzkClientTimeout=10000",
          "--collection",
          "c",
          "--shards",
          "2",
          "--replicas",
          "2");

  static Cluster cluster() {
    return CLUSTER.cluster();
  }

  /** Documents in a collection, counted with a plain query. */
  static long count(String collection) throws Exception {
    return numFound(collection + "/select?q=*:*&rows=0&wt=json");
  }

  /** numFound of a GET of {@code path} under the first node's /solr, which must answer 200. */
  static long numFound(String path) throws Exception {
    return get(path).get("response").get("numFound").asLong();
  }

  /** The answer to a GET of {@code path} under the first node's /solr, which must be 200. */
  static JsonNode get(String path) throws Exception {
    HttpResponse<String> q =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(cluster().solrUrls().get(0) + "/" + path))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
    return JSON.readTree(q.body());
  }

  static JsonNode chaos(Path out, String... args) throws Exception {
    return chaos(true, out, args);
  }

  static JsonNode chaos(boolean mustPass, Path out, String... args) throws Exception {
    Cli.Result r = runChaos(out, args);
    JsonNode v = JSON.readTree(r.out());
    assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(v.get("ok").asBoolean() ? 0 : 1);
    if (mustPass) {
      assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    }
    return v;
  }

  /** {@code chaos} on c at 100 documents/s, 10 queries/s, the fault 3 s in, 3 s after it. */
  static Cli.Result runChaos(Path out, String... args) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "chaos",
                "--name",
                NAME,
                "--collection",
                "c",
                "--write-rate",
                "100",
                "--at",
                "3s",
                "--after",
                "3s",
                "--out",
                out.toString(),
                "--json"));
    a.addAll(List.of(args));
    if (!a.contains("--query-rate")) {
      a.addAll(List.of("--query-rate", "10"));
    }
    return Cli.run(a.toArray(String[]::new));
  }

  /**
   * The command a new user ran on 2 shards x 1 replica printed "not injected", then PASS, and
   * exited 0. The topology is read before any load: the kill is refused up front in one line naming
   * the shape it needs and the flag that allows it, exit 2, and nothing is written.
   */
  @Test
  void aKillTheSafetyRulesRefuseIsRefusedBeforeAnyLoad() throws Exception {
    createOneReplicaEach("docs");
    Path runs = Path.of("runs").toAbsolutePath();
    Set<String> before = listing(runs);
    try {
      Cli.Result r =
          Cli.run(
              "chaos",
              "--name",
              NAME,
              "--collection",
              "docs",
              "--fault",
              "kill",
              "--target",
              "leader-of:shard1",
              "--duration",
              "15s");
      assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(2);
      assertThat(r.out()).doesNotContain("PASS");
      assertThat(r.err().strip().lines()).hasSize(1);
      assertThat(r.err().strip())
          .matches(
              "(?s)solrscale: fault 'kill': kill solr[12] refused: shard1 has 1 live replica, on"
                  + " solr[12]; kill needs 2 live replicas of shard1, so one stays up, or use"
                  + " --unsafe");
      assertThat(listing(runs)).isEqualTo(before);
      // the scratch collection was never made: only c and docs are there
      Cli.Result status = Cli.run("status", "--name", NAME, "--json");
      assertThat(status.out()).doesNotContain("chaos-");
    } finally {
      Cli.run("collection", "delete", "--name", NAME, "--collection", "docs");
    }
  }

  /** A collection of 2 shards x 1 replica on the class's cluster. */
  private static void createOneReplicaEach(String collection) {
    Cli.Result made =
        Cli.run(
            "collection",
            "create",
            "--name",
            NAME,
            "--collection",
            collection,
            "--shards",
            "2",
            "--replicas",
            "1");
    assertThat(made.exitCode()).as(made.err()).isZero();
  }

  private static Set<String> listing(Path d) throws Exception {
    if (!Files.isDirectory(d)) {
      return Set.of();
    }
    try (var s = Files.list(d)) {
      return new HashSet<>(s.map(p -> p.getFileName().toString()).toList());
    }
  }

  /** `watch` on a finished chaos run: every second of timeline.csv, and the fault's window. */
  private static void liveViewMatchesTheTimeline(Path out) throws Exception {
    long start =
        JSON.readTree(out.resolve("history-start.json").toFile()).get("started_ms").asLong();
    Map<Long, org.solrscale.results.TimelineRow> rows = new java.util.TreeMap<>();
    for (org.solrscale.results.TimelineRow row :
        org.solrscale.results.TimelineRow.TABLE.read(out.resolve("timeline.csv"))) {
      if (row.requests() > 0) { // the view draws the seconds that had requests
        rows.put(start + Math.round(row.second()) * 1000, row);
      }
    }
    try (org.solrscale.live.LiveServer view =
        org.solrscale.live.LiveServer.start(
            org.solrscale.live.RunFollower.of(out), "127.0.0.1", 0, w -> {})) {
      java.net.http.HttpResponse<java.io.InputStream> events =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(java.net.URI.create(view.url() + "events"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofInputStream());
      try (java.io.BufferedReader in =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  events.body(), java.nio.charset.StandardCharsets.UTF_8))) {
        String line = in.readLine();
        while (!line.startsWith("data: ")) {
          line = in.readLine();
        }
        JsonNode step = JSON.readTree(line.substring(6)).get("steps").get(0);
        Map<Long, JsonNode> points = new java.util.TreeMap<>();
        step.get("points").forEach(p -> points.put(p.get(0).asLong(), p));
        assertThat(points.keySet()).isEqualTo(rows.keySet());
        rows.forEach(
            (t, row) -> {
              JsonNode p = points.get(t);
              assertThat(p.get(1).asLong()).as("requests at " + t).isEqualTo(row.requests());
              assertThat(p.get(2).asLong()).as("errors at " + t).isEqualTo(row.errors());
              assertThat(p.get(5).asDouble()).as("p99 at " + t).isEqualTo(row.latencyP99Ms());
            });
        assertThat(step.get("faults")).hasSize(1);
        assertThat(step.get("faults").get(0).get("fault").asText()).isEqualTo("kill");
        assertThat(step.get("faults").get(0).get("end_ms").asLong()).isPositive();
      }
    }
  }

  @Test
  void aLeaderKilledDuringWritesIsCheckedReplicaByReplica() throws Exception {
    Path out = dir.resolve("kill");
    // down for longer than the 10 s ZooKeeper session: a new leader is elected before the old one
    // returns (a shorter kill lost acknowledged writes here; see docs/chaos.md). With min_rf=2 an
    // answer on fewer replicas is no acknowledgement; the scratch collection is kept to count in.
    Cli.Result r =
        runChaos(
            out,
            "--fault",
            "kill",
            "--target",
            "leader-of:shard1",
            "--duration",
            "13s",
            "--min-rf",
            "2",
            "--keep");
    JsonNode v = JSON.readTree(r.out());
    // passes or fails as its own verdict says: whether Solr kept everything is not this test's
    assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(v.get("ok").asBoolean() ? 0 : 1);
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("scratch collection (c-chaos-[0-9a-z]+)").matcher(r.err());
    assertThat(m.find()).as(r.err()).isTrue();
    String scratch = m.group(1);
    // Independent count: the history read as plain JSON (not through History), and every id it
    // sent asked of each replica alone by real-time get in the kept collection.
    Set<String> acked = new LinkedHashSet<>();
    Set<String> sent = new LinkedHashSet<>();
    long belowMinRf = 0;
    for (String line : Files.readAllLines(out.resolve("history.jsonl"))) {
      JsonNode e = JSON.readTree(line);
      if (!"add".equals(e.path("op").asText())) {
        continue;
      }
      e.path("ids").forEach(id -> sent.add(id.asText()));
      boolean answered200 =
          e.path("status").asInt() == 200 || "ok".equals(e.path("outcome").asText());
      if (answered200 && e.has("rf") && e.get("rf").asInt() < 2) {
        belowMinRf++;
        assertThat(e.path("outcome").asText()).as(line).isEqualTo("fail");
        assertThat(e.path("message").asText()).as(line).endsWith("below min_rf=2");
      } else if ("ok".equals(e.path("outcome").asText())) {
        e.get("ids").forEach(id -> acked.add(id.asText()));
      }
    }
    assertThat(v.get("acknowledged").asLong()).isEqualTo(acked.size());
    Map<String, Map<String, Set<String>>> held =
        OnAnyReplica.byReplica(
            java.net.http.HttpClient.newHttpClient(),
            cluster().solrUrls().get(0),
            scratch,
            new ArrayList<>(sent),
            null);
    Set<String> onAny = new HashSet<>();
    held.values().forEach(replicas -> replicas.values().forEach(onAny::addAll));
    long found = acked.stream().filter(onAny::contains).count();
    assertThat(v.get("found").asLong()).as("%d answers below min_rf", belowMinRf).isEqualTo(found);
    assertThat(v.get("lost").asLong()).isEqualTo(acked.size() - found);
    // the live view of the finished run draws each second as timeline.csv does (HistoryStats's
    // own count, another reader of the same history), with the kill's window
    liveViewMatchesTheTimeline(out);
    // the --out folder is a run of one chaos step: the report reads its verdict
    Cli.Result report = Cli.run("report", out.toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    assertThat(Files.readString(out.resolve("report.html")))
        .contains("Faults and verdicts", "<td>" + acked.size() + "</td><td>" + found + "</td>");
    // Whether the replicas agree, seen independently. Solr may leave them apart after its leader
    // returns (a write answered on one replica, below min_rf, stays there): CI saw shard1 at 544
    // and 748 documents once. What is asserted is that solrscale says so, replica by replica.
    assertThat(v.get("shards")).hasSize(2);
    int divergent = 0;
    for (JsonNode sh : v.get("shards")) {
      Map<String, Set<String>> replicas = held.get(sh.get("shard").asText());
      assertThat(sh.get("replicas")).hasSize(2).hasSize(replicas.size());
      for (JsonNode rc : sh.get("replicas")) {
        assertThat(rc.get("run_docs").asLong())
            .as(rc.toString())
            .isPositive()
            .isEqualTo(replicas.get(rc.get("replica").asText()).size());
      }
      boolean agree = new HashSet<>(replicas.values()).size() == 1;
      assertThat(sh.get("agree").asBoolean()).as(sh.toString()).isEqualTo(agree);
      divergent += agree ? 0 : 1;
    }
    assertThat(v.get("divergent_shards").asInt()).isEqualTo(divergent);
    if (divergent > 0 || found < acked.size()) {
      assertThat(v.get("verdict").asText()).isEqualTo("fail");
    }
    assertThat(Cli.run("collection", "delete", "--name", NAME, "--collection", scratch).exitCode())
        .isZero();
    assertThat(v.get("acknowledged").asLong()).isGreaterThan(250);
    assertThat(v.get("recovery_seconds").asDouble()).isPositive();
    assertThat(v.get("availability").asDouble()).isBetween(0.0, 1.0);
    JsonNode f = v.get("faults").get(0).get("fault");
    assertThat(f.get("fault").asText()).isEqualTo("kill");
    assertThat(f.get("nodes")).hasSize(1);
    assertThat(f.get("heal_s").asDouble() - f.get("start_s").asDouble()).isBetween(12.5, 23.0);
    assertThat(v.get("latency_ms").has("before")).isTrue();
    assertThat(v.get("latency_ms").get("after").get("count").asLong()).isPositive();
    for (String file :
        new String[] {"history.jsonl", "faults.json", "timeline.csv", "verdict.json"}) {
      assertThat(out.resolve(file)).exists();
    }
    assertThat(Files.readString(out.resolve("history.jsonl")))
        .contains("\"op\":\"fault\"")
        .contains("\"rf\":");
  }

  @Test
  void losingTheZooKeeperQuorumRefusesUpdatesAndKeepsServingQueries() throws Exception {
    // Solr disables updates once its session is likely expired: 9 s into the 10 s session timeout
    // whether writes acknowledged around the sessions' expiry survive is for the verdict to say
    // (they did not always here; see docs/chaos.md): this test asserts the documented behaviours
    JsonNode v = chaos(false, dir.resolve("quorum"), "--fault", "zk-quorum", "--duration", "14s");
    JsonNode fv = v.get("faults").get(0);
    assertThat(fv.get("fault").get("nodes")).hasSize(2);
    assertThat(fv.get("behaviours")).hasSize(2);
    for (JsonNode b : fv.get("behaviours")) {
      assertThat(b.get("pass").asBoolean()).as(b.toString()).isTrue();
    }
    assertThat(fv.get("writes").get("failed").asLong()).isPositive();
    assertThat(fv.get("queries").get("zk_disconnected").asLong()).isPositive();
    assertThat(fv.get("queries").get("failed").asLong()).isZero();
    assertThat(v.get("recovered").asBoolean()).isTrue();
  }

  @Test
  void theCheckerListsDocumentsDeletedBehindItsBackById() throws Exception {
    Path out = dir.resolve("planted");
    // into c itself (its schema takes the documents): the test deletes some there afterwards
    chaos(
        out,
        "--into",
        "c",
        "--fault",
        "pause",
        "--target",
        "solr1",
        "--duration",
        "1s",
        "--query-rate",
        "0");
    List<String> acked = Acknowledged.ids(out.resolve("history.jsonl"));
    List<String> victims =
        List.of(acked.get(3), acked.get(acked.size() / 2), acked.get(acked.size() - 1));
    String url = cluster().solrUrls().get(0);
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url + "/c/update?commit=true&wt=json"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            JSON.writeValueAsString(Map.of("delete", victims))))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    LossChecker.Verdict v = ChaosRun.checkLoss(cluster(), "c", out.resolve("history.jsonl"));
    assertThat(v.findings().lost()).isEqualTo(3L);
    assertThat(v.findings().lostIds()).containsExactlyInAnyOrderElementsOf(victims);
    assertThat(v.findings().found()).isEqualTo(acked.size() - 3L);
  }

  /**
   * A shard without a leader takes no commit and cannot be read: an acknowledged document on it is
   * neither found nor known lost. With shard2's only replica down, the checker calls shard2's
   * documents unsettled and none lost; with it back, all are found. Which ids were unsettled is
   * checked against Solr's own placement: the run's documents shard2 alone answers with.
   */
  @Test
  void documentsOnALeaderlessShardAreUnsettledNotLost() throws Exception {
    createOneReplicaEach("lf");
    String down = null;
    try {
      Path out = dir.resolve("leaderless");
      // a second's pause of a node whose shards have one replica each: unsafe, and harmless here
      chaos(
          false,
          out,
          "--into",
          "lf",
          "--fault",
          "pause",
          "--target",
          "solr1",
          "--duration",
          "1s",
          "--query-rate",
          "0",
          "--unsafe");
      Path history = out.resolve("history.jsonl");
      Set<String> acked = new HashSet<>(Acknowledged.ids(history));
      down = shardNode("lf", "shard2");
      assertThat(Cli.run("node", "stop", "--name", NAME, down).exitCode()).isZero();
      LossChecker.Verdict v = ChaosRun.checkLoss(cluster(), "lf", history);
      assertThat(v.notChecked()).isNull();
      assertThat(v.findings().lost()).as(v.toString()).isZero();
      LossVerdict.Unsettled u = v.findings().unsettled();
      assertThat(u.shards()).containsExactly("shard2");
      assertThat(u.notFound()).isPositive().isEqualTo(u.ids().size());
      assertThat(v.findings().found() + u.notFound()).isEqualTo(acked.size());

      assertThat(Cli.run("node", "start", "--name", NAME, down).exitCode()).isZero();
      down = null;
      Await.until("lf's shard2 led again", Duration.ofSeconds(60), () -> led("lf"));
      LossChecker.Verdict again = ChaosRun.checkLoss(cluster(), "lf", history);
      assertThat(again.findings().lost()).isZero();
      assertThat(again.findings().unsettled()).isNull();
      assertThat(again.findings().found()).isEqualTo(acked.size());
      // Solr's own placement: the acknowledged ids shard2 alone holds are those that were unsettled
      Set<String> onShard2 = ids("lf/select?q=*:*&fl=id&rows=100000&wt=json&shards=shard2");
      onShard2.retainAll(acked);
      assertThat(new HashSet<>(u.ids())).isEqualTo(onShard2);
    } finally {
      if (down != null) {
        Cli.run("node", "start", "--name", NAME, down);
      }
      Cli.run("collection", "delete", "--name", NAME, "--collection", "lf");
    }
  }

  /** Whether every shard of {@code collection} has an active leader. */
  private static boolean led(String collection) {
    return cluster().status(false).collections().stream()
        .filter(c -> c.name().equals(collection))
        .flatMap(c -> c.shards().stream())
        .allMatch(
            sh -> sh.replicas().stream().anyMatch(r -> r.leader() && "active".equals(r.state())));
  }

  /** The node id of the first replica of {@code shard} of {@code collection}. */
  private static String shardNode(String collection, String shard) {
    return cluster().status(false).collections().stream()
        .filter(c -> c.name().equals(collection))
        .flatMap(c -> c.shards().stream())
        .filter(s -> s.name().equals(shard))
        .map(s -> s.replicas().get(0).nodeId())
        .findFirst()
        .orElseThrow();
  }

  /** The ids a GET of {@code path} under the first node's /solr answers with. */
  private static Set<String> ids(String path) throws Exception {
    Set<String> out = new HashSet<>();
    get(path).get("response").get("docs").forEach(d -> out.add(d.get("id").asText()));
    return out;
  }

  /**
   * On a schema that has none of the chaos workload's fields every write is refused and no replica
   * can be read for the run's documents: the verdict must be "not checked" with why, never a pass
   * (nothing acknowledged, nothing lost) nor two divergent shards (an unreadable replica).
   */
  @Test
  void checkersThatCannotRunOnAStrictSchemaSayNotCheckedNeverAVerdict() throws Exception {
    // a production-like schema: every field declared, no dynamic fields, a required title
    Path conf = Files.createDirectories(dir.resolve("strict/conf"));
    Path source = Path.of("../configsets/default/conf");
    Files.copy(source.resolve("solrconfig.xml"), conf.resolve("solrconfig.xml"));
    try (var in = ChaosIT.class.getResourceAsStream("/strict-schema.xml")) {
      Files.copy(in, conf.resolve("schema.xml"));
    }
    Cli.Result made =
        Cli.run(
            "collection",
            "create",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--shards",
            "2",
            "--replicas",
            "2",
            "--configset",
            dir.resolve("strict").toString());
    assertThat(made.exitCode()).as(made.err()).isZero();
    // --into a collection whose schema would refuse every write: one line, before any load
    Path out = dir.resolve("strict-run");
    Cli.Result into =
        Cli.run(
            "chaos",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--into",
            "strict",
            "--fault",
            "none",
            "--out",
            out.toString());
    assertThat(into.exitCode()).isEqualTo(2);
    assertThat(into.err().strip().lines()).hasSize(1);
    assertThat(into.err())
        .contains("cannot take the chaos workload's documents")
        .contains("no field or dynamic field for chaos_seq_l, chaos_run_s")
        .contains("required without a default: title")
        .contains("--doc-template");
    assertThat(out).doesNotExist();
    // a template without the required field: named, before any load
    Path lacking = dir.resolve("lacking.json");
    Files.writeString(lacking, "{\"id\": \"{{id}}\", \"seq\": \"{{seq}}\"}");
    Cli.Result stillLacking =
        Cli.run(
            "chaos",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--into",
            "strict",
            "--doc-template",
            lacking.toString(),
            "--fault",
            "none",
            "--out",
            out.toString());
    assertThat(stillLacking.exitCode()).isEqualTo(2);
    assertThat(stillLacking.err().strip().lines()).hasSize(1);
    assertThat(stillLacking.err()).contains("required without a default: title");
    // with a template it takes, the workload runs and its verdict matches an independent count
    Path template = dir.resolve("strict-doc.json");
    Files.writeString(
        template,
        "{\"id\": \"{{id}}\", \"title\": \"chaos run {{run}} doc {{seq}}\", \"seq\": \"{{seq}}\","
            + " \"category\": \"chaos\"}");
    Path templated = dir.resolve("strict-templated");
    Cli.Result t =
        Cli.run(
            "chaos",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--into",
            "strict",
            "--doc-template",
            template.toString(),
            "--fault",
            "pause",
            "--target",
            "solr2",
            "--duration",
            "1s",
            "--at",
            "2s",
            "--after",
            "2s",
            "--write-rate",
            "20",
            "--query-rate",
            "2",
            "--out",
            templated.toString(),
            "--json");
    assertThat(t.exitCode()).as(t.out() + t.err()).isZero();
    JsonNode tv = JSON.readTree(t.out());
    List<String> acked = Acknowledged.ids(templated.resolve("history.jsonl"));
    HttpResponse<String> all =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            cluster().solrUrls().get(0)
                                + "/strict/select?q=category:chaos&fl=id,seq,title&rows=100000&wt=json"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    JsonNode docs = JSON.readTree(all.body()).get("response").get("docs");
    java.util.Set<String> present = new java.util.HashSet<>();
    for (JsonNode d : docs) {
      present.add(d.get("id").asText());
      // the template's fields, typed as the schema declares them
      assertThat(d.get("seq").isNumber()).isTrue();
      assertThat(d.get("title").asText()).startsWith("chaos run chaos-");
    }
    assertThat(acked).isNotEmpty();
    assertThat(tv.get("acknowledged").asLong()).isEqualTo(acked.size());
    assertThat(tv.get("found").asLong())
        .isEqualTo(acked.stream().filter(present::contains).count());
    assertThat(tv.get("lost").asLong()).isZero();
    assertThat(tv.get("shards")).hasSize(2);
    for (JsonNode sh : tv.get("shards")) {
      assertThat(sh.get("agree").asBoolean()).isTrue();
    }
    // the indexer and the load driver on the same strict collection: the user's own fields work,
    // a document without the required field is rejected with Solr's reason (never dropped
    // silently), and queries on a field the schema lacks fail in one line before any load
    StringBuilder corpus = new StringBuilder();
    String[] words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
    for (int i = 0; i < 300; i++) {
      corpus.append(
          String.format(
              "{\"id\":\"s%d\",\"title\":\"%s %s item %d\",\"category\":\"c%d\",\"price\":%d.5,"
                  + "\"stock\":%d}%n",
              i, words[i % 8], words[(i / 8) % 8], i, i % 5, i, i % 50));
    }
    corpus.append("{\"id\":\"untitled\",\"category\":\"c1\"}\n");
    Path strictCorpus = dir.resolve("strict.jsonl");
    Files.writeString(strictCorpus, corpus.toString());
    Path rejects = dir.resolve("strict-rejects.jsonl");
    Cli.Result idx =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "strict",
            strictCorpus.toString(),
            "--rejects",
            rejects.toString(),
            "--json");
    assertThat(idx.exitCode()).as(idx.err()).isIn(0, 1);
    JsonNode ir = JSON.readTree(idx.out());
    assertThat(ir.get("accepted").asLong()).isEqualTo(300);
    assertThat(ir.get("rejected").asLong()).isEqualTo(1);
    assertThat(Files.readString(rejects)).contains("untitled").contains("title");
    Path bodyQueries = dir.resolve("strict-body.txt");
    Path titleQueries = dir.resolve("strict-title.txt");
    assertThat(
            Cli.run(
                    "data",
                    "queries",
                    strictCorpus.toString(),
                    "-o",
                    titleQueries.toString(),
                    "--field",
                    "title",
                    "--facet-fields",
                    "category",
                    "--count",
                    "40")
                .exitCode())
        .isZero();
    Files.writeString(bodyQueries, "q=body_t:alpha\n");
    Cli.Result wrongField =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--queries",
            bodyQueries.toString(),
            "--threads",
            "1",
            "--requests",
            "10",
            "--warmup",
            "0s");
    assertThat(wrongField.exitCode()).isEqualTo(2);
    assertThat(wrongField.err().strip().lines()).hasSize(1);
    assertThat(wrongField.err()).contains("undefined field body_t").contains("--field");
    Cli.Result titled =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--queries",
            titleQueries.toString(),
            "--threads",
            "1",
            "--requests",
            "40",
            "--warmup",
            "0s",
            "--json");
    assertThat(titled.exitCode()).as(titled.err()).isZero();
    assertThat(JSON.readTree(titled.out()).get("errors").get("total").asLong()).isZero();
    long strictDocs = count("strict");
    // by default the workload writes into a scratch collection shaped like it (the faults hit both)
    Cli.Result r =
        Cli.run(
            "chaos",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--fault",
            "pause",
            "--target",
            "solr1",
            "--duration",
            "1s",
            "--at",
            "2s",
            "--after",
            "2s",
            "--write-rate",
            "20",
            "--query-rate",
            "0",
            "--keep",
            "--out",
            out.toString(),
            "--json");
    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    JsonNode v = JSON.readTree(r.out());
    assertThat(v.get("acknowledged").asLong()).isPositive();
    assertThat(v.get("lost").asLong()).isZero();
    assertThat(v.get("shards")).hasSize(2);
    for (JsonNode s : v.get("shards")) {
      assertThat(s.get("replicas")).hasSize(2);
    }
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("scratch collection (strict-chaos-[0-9a-z]+)")
            .matcher(r.err());
    assertThat(m.find()).as(r.err()).isTrue();
    String scratch = m.group(1);
    // independent counts: the scratch collection holds exactly what the verdict found, the
    // collection under test nothing more
    assertThat(count(scratch)).isEqualTo(v.get("found").asLong());
    assertThat(count("strict")).isEqualTo(strictDocs);
    assertThat(Cli.run("collection", "delete", "--name", NAME, "--collection", scratch).exitCode())
        .isZero();
    // without --keep it is gone afterwards
    Cli.Result again =
        Cli.run(
            "chaos",
            "--name",
            NAME,
            "--collection",
            "strict",
            "--fault",
            "none",
            "--duration",
            "2s",
            "--after",
            "1s",
            "--write-rate",
            "20",
            "--query-rate",
            "0",
            "--out",
            dir.resolve("strict-again").toString(),
            "--json");
    assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
    assertThat(again.err()).contains("deleted the scratch collection strict-chaos-");
    assertThat(
            cluster().status(false).collections().stream()
                .map(c -> c.name())
                .filter(n -> n.startsWith("strict-chaos-")))
        .isEmpty();
    // an unknown collection: one line, and no run directory left behind
    Cli.Result unknown =
        Cli.run(
            "chaos",
            "--name",
            NAME,
            "--collection",
            "nope",
            "--fault",
            "pause",
            "--out",
            dir.resolve("nope").toString());
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err())
        .contains("there is no collection 'nope'")
        .contains("it has c, strict");
    assertThat(dir.resolve("nope")).doesNotExist();
  }
}
