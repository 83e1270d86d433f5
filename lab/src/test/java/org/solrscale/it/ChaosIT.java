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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.chaos.ChaosRun;
import org.solrscale.chaos.History;
import org.solrscale.chaos.LossChecker;
import org.solrscale.cluster.Cluster;
import org.solrscale.runtime.SolrscaleHome;

/** `chaos` against a real cluster: 3 ZooKeepers, 2 Solr nodes, 2 shards x 2 replicas. */
class ChaosIT {
  static final String NAME = "it-chaos";
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  static Cluster cluster() {
    return new Cluster(SolrscaleHome.fromEnvironment(), NAME, System.err::println);
  }

  @BeforeAll
  static void up() {
    cluster().state().ifPresent(s -> cluster().down(true));
    Cli.Result r =
        Cli.run(
            "up",
            "--name",
            NAME,
            "--nodes",
            "2",
            "--zookeepers",
            "3",
            "--heap",
            "384m",
            "--collection",
            "c",
            "--shards",
            "2",
            "--replicas",
            "2");
    assertThat(r.exitCode()).as(r.err()).isZero();
  }

  @AfterAll
  static void down() {
    if (cluster().state().isPresent()) {
      cluster().down(true);
    }
  }

  /** Documents in a collection, counted with a plain query. */
  static long count(String collection) throws Exception {
    HttpResponse<String> q =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            cluster().solrUrls().get(0)
                                + "/"
                                + collection
                                + "/select?q=*:*&rows=0&wt=json"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(q.body()).get("response").get("numFound").asLong();
  }

  static JsonNode chaos(Path out, String... args) throws Exception {
    return chaos(true, out, args);
  }

  static JsonNode chaos(boolean mustPass, Path out, String... args) throws Exception {
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
    Cli.Result r = Cli.run(a.toArray(String[]::new));
    JsonNode v = JSON.readTree(r.out());
    assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(v.get("ok").asBoolean() ? 0 : 1);
    if (mustPass) {
      assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    }
    return v;
  }

  @Test
  void aLeaderKilledDuringWritesLosesNothingAcknowledgedAndTheClusterRecovers() throws Exception {
    Path out = dir.resolve("kill");
    // down for longer than the 30 s ZooKeeper session: a new leader is elected before the old one
    // returns (a shorter kill lost acknowledged writes here; see docs/chaos.md)
    JsonNode v = chaos(out, "--fault", "kill", "--target", "leader-of:shard1", "--duration", "35s");
    assertThat(v.get("acknowledged").asLong()).isGreaterThan(500);
    assertThat(v.get("lost").asLong()).isZero();
    assertThat(v.get("found").asLong()).isEqualTo(v.get("acknowledged").asLong());
    assertThat(v.get("divergent_shards").asInt()).isZero();
    assertThat(v.get("shards")).hasSize(2);
    for (JsonNode s : v.get("shards")) {
      assertThat(s.get("replicas")).hasSize(2);
      assertThat(s.get("replicas").get(0).get("run_docs").asLong()).isPositive();
    }
    assertThat(v.get("recovery_seconds").asDouble()).isPositive();
    assertThat(v.get("availability").asDouble()).isBetween(0.0, 1.0);
    JsonNode f = v.get("faults").get(0).get("fault");
    assertThat(f.get("fault").asText()).isEqualTo("kill");
    assertThat(f.get("nodes")).hasSize(1);
    assertThat(f.get("heal_s").asDouble() - f.get("start_s").asDouble()).isBetween(34.5, 45.0);
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
    // Solr disables updates once its session is likely expired: 27 s into a 30 s session timeout
    // whether writes acknowledged around the sessions' expiry survive is for the verdict to say
    // (they did not always here; see docs/chaos.md): this test asserts the documented behaviours
    JsonNode v = chaos(false, dir.resolve("quorum"), "--fault", "zk-quorum", "--duration", "36s");
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
    List<String> acked = new ArrayList<>();
    History.read(
        out.resolve("history.jsonl"),
        e -> {
          if (e.acknowledgedAdd()) {
            acked.addAll(e.ids());
          }
        });
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
    LossChecker.Verdict v =
        ChaosRun.checkLoss(cluster().solrUrls(), "c", out.resolve("history.jsonl"));
    assertThat(v.lost()).isEqualTo(3L);
    assertThat(v.lostIds()).containsExactlyInAnyOrderElementsOf(victims);
    assertThat(v.found()).isEqualTo(acked.size() - 3L);
  }

  /**
   * On a schema that has none of the chaos workload's fields every write is refused and no replica
   * can be read for the run's documents: the verdict must be "not checked" with why, never a pass
   * (nothing acknowledged, nothing lost) nor two divergent shards (an unreadable replica).
   */
  @Test
  void checkersThatCannotRunOnAStrictSchemaSayNotCheckedNeverAVerdict() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("strict/conf"));
    Path source = Path.of("../configsets/default/conf");
    try (var files = Files.list(source)) {
      for (Path f : files.toList()) {
        Files.copy(f, conf.resolve(f.getFileName()));
      }
    }
    String schema = Files.readString(conf.resolve("schema.xml"));
    Files.writeString(
        conf.resolve("schema.xml"),
        schema
            .lines()
            .filter(l -> !l.contains("<dynamicField") && !l.contains("<copyField"))
            .collect(Collectors.joining("\n")));
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
        .contains("no field or dynamic field for chaos_seq_l, chaos_run_s");
    assertThat(out).doesNotExist();
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
    // collection under test nothing
    assertThat(count(scratch)).isEqualTo(v.get("found").asLong());
    assertThat(count("strict")).isZero();
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
