package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.runtime.SolrscaleJar;

/**
 * `distribute` on a real cluster of three nodes: two PULL replicas of one shard seeded by a chain
 * of relays, which Solr finds in sync (its own replication.properties says it fetched nothing); the
 * other shard by Solr's own ADDREPLICA for contrast (which does fetch); bad input refused.
 */
class DistributeIT {
  static final String NAME = "it-dist";
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
            "3",
            "--heap",
            "384m",
            "--collection",
            "c",
            "--shards",
            "2");
    assertThat(r.exitCode()).as(r.err()).isZero();
    Path corpus = dir.resolve("synth.jsonl");
    assertThat(Cli.run("data", "synth", "--docs", "20000", "-o", corpus.toString()).exitCode())
        .isZero();
    assertThat(Cli.run("index", "--name", NAME, "--collection", "c", corpus.toString()).exitCode())
        .isZero();
  }

  @AfterAll
  static void down() {
    if (cluster().state().isPresent()) {
      cluster().down(true);
    }
  }

  /** The files of a core's current index directory: name to bytes, write.lock left out. */
  static Map<String, Long> indexFiles(String dataDir) throws IOException {
    Path data = Path.of(dataDir);
    Path index = data.resolve("index");
    Path props = data.resolve("index.properties");
    if (Files.isRegularFile(props)) { // after a full copy Solr switches to index.<ts>
      String name =
          Files.readAllLines(props).stream()
              .filter(l -> l.startsWith("index="))
              .findFirst()
              .orElseThrow()
              .substring(6);
      index = data.resolve(name);
    }
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(index)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        if (!f.getFileName().toString().equals("write.lock")) {
          out.put(f.getFileName().toString(), Files.size(f));
        }
      }
    }
    return out;
  }

  static String dataDirOf(String baseUrl, String core) throws Exception {
    JsonNode status =
        JSON.readTree(
            new java.net.URL(baseUrl + "/admin/cores?action=STATUS&wt=json&core=" + core));
    return status.path("status").path(core).path("dataDir").asText();
  }

  @Test
  void aChainSeedsPullReplicasThatSolrFindsInSyncWhileSolrsOwnCopyFetches() throws Exception {
    Path out = dir.resolve("chain");
    Cli.Result chain =
        Cli.run(
            "distribute",
            "--name",
            NAME,
            "--collection",
            "c",
            "--shard",
            "shard1",
            "--replicas",
            "2",
            "--method",
            "chain",
            "--type",
            "pull",
            "--chunk-kb",
            "256",
            "--out",
            out.toString(),
            "--json");
    assertThat(chain.exitCode()).as(chain.out() + chain.err()).isZero();
    JsonNode r = JSON.readTree(chain.out());
    JsonNode shard = r.get("shards").get(0);
    long leaderDocs = shard.get("leader_docs").asLong();
    assertThat(leaderDocs).isGreaterThan(5000);
    assertThat(shard.get("targets")).hasSize(2);
    String leaderBase = null;
    for (var n : cluster().requireState().solrNodes()) {
      JsonNode st =
          JSON.readTree(
              new java.net.URL(
                  n.baseUrl()
                      + "/admin/cores?action=STATUS&wt=json&core="
                      + shard.get("leader").asText()));
      if (st.path("status").path(shard.get("leader").asText()).has("dataDir")) {
        leaderBase = n.baseUrl();
      }
    }
    Map<String, Long> leaderFiles = indexFiles(dataDirOf(leaderBase, shard.get("leader").asText()));
    for (JsonNode t : shard.get("targets")) {
      assertThat(t.get("state").asText()).as(t.toString()).isEqualTo("active");
      assertThat(t.get("docs").asLong()).isEqualTo(leaderDocs);
      assertThat(t.get("bytes_received").asLong()).isEqualTo(shard.get("index_bytes").asLong());
      // Solr's own word: it wrote no replication.properties, so it fetched nothing
      String node = t.get("node").asText();
      String base = cluster().requireState().node(node).baseUrl();
      String dataDir = dataDirOf(base, t.get("core").asText());
      assertThat(Path.of(dataDir, "replication.properties")).doesNotExist();
      assertThat(t.get("solr_bytes_downloaded").asLong()).isZero();
      assertThat(indexFiles(dataDir)).isEqualTo(leaderFiles);
    }
    assertThat(out.resolve("distribute.json")).exists();
    assertThat(Files.readAllLines(out.resolve("overview.csv")).size()).isGreaterThan(1);

    // the baseline on the other shard: Solr copies the index itself, and says so
    Cli.Result solr =
        Cli.run(
            "distribute",
            "--name",
            NAME,
            "--collection",
            "c",
            "--shard",
            "shard2",
            "--replicas",
            "1",
            "--method",
            "solr",
            "--type",
            "pull",
            "--json");
    assertThat(solr.exitCode()).as(solr.out() + solr.err()).isZero();
    JsonNode t = JSON.readTree(solr.out()).get("shards").get(0).get("targets").get(0);
    assertThat(t.get("state").asText()).isEqualTo("active");
    assertThat(t.get("solr_bytes_downloaded").asLong()).isPositive();
  }

  @Test
  void aScenarioSweepsTheMethodAndTakesTheNewReplicasAwayAfterEachStep() throws Exception {
    Path scenario = dir.resolve("dist.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-dist-scn",
            "cluster:",
            "  nodes: 3",
            "  heap: 384m",
            "  collections: [{name: d, shards: 1}]",
            "data:",
            "  synth: {docs: 3000}",
            "steps:",
            "  - index: {collection: d}",
            "  - distribute: {collection: d, replicas: 2}",
            "  - distribute: {name: again, collection: d, replicas: 2, method: solr}",
            "matrix:",
            "  distribute.distribute.method: [chain, tree]",
            ""));
    Path out = dir.resolve("scn");
    Cli.Result r = Cli.run("run", scenario.toString(), "--out", out.toString());
    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    JsonNode combos = JSON.readTree(out.resolve("results.json").toFile()).get("combinations");
    assertThat(combos).hasSize(2);
    for (JsonNode c : combos) {
      JsonNode peer = c.get("steps").get(1).get("summary");
      assertThat(peer.get("method").asText())
          .isEqualTo(c.get("params").get("distribute.distribute.method").asText());
      for (JsonNode t : peer.get("shards").get(0).get("targets")) {
        assertThat(t.get("state").asText()).isEqualTo("active");
        assertThat(t.get("solr_bytes_downloaded").asLong()).isZero();
      }
      // the second step found the same two free nodes: the first step's replicas were deleted
      JsonNode solr = c.get("steps").get(2).get("summary").get("shards").get(0).get("targets");
      assertThat(solr).hasSize(2);
      for (JsonNode t : solr) {
        assertThat(t.get("state").asText()).isEqualTo("active");
        assertThat(t.get("solr_bytes_downloaded").asLong()).isPositive();
      }
    }
  }

  @Test
  void aRelayWhoseOutputGoesNowhereEndsItself() throws Exception {
    // what a relay on a host sees when distribute is gone: its ssh closed, no hang-up signal
    Process p =
        new ProcessBuilder(
                SolrscaleJar.java(),
                "-jar",
                SolrscaleJar.path("this test").toString(),
                "relay",
                "receive",
                "--dir",
                dir.resolve("orphan").toString(),
                "--bind",
                "127.0.0.1")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      String first =
          new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream())).readLine();
      assertThat(first).contains("\"listening\"");
      p.getInputStream().close();
      assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).as("relay ended").isTrue();
      assertThat(p.exitValue()).isEqualTo(3);
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void badInputIsOneLine() {
    Cli.Result noShard =
        Cli.run(
            "distribute",
            "--name",
            NAME,
            "--collection",
            "c",
            "--shard",
            "shard9",
            "--replicas",
            "1");
    assertThat(noShard.exitCode()).isEqualTo(2);
    assertThat(noShard.err().strip().lines()).hasSize(1);
    assertThat(noShard.err()).contains("has no shard 'shard9'; it has shard1, shard2");
    Cli.Result tooMany =
        Cli.run("distribute", "--name", NAME, "--collection", "c", "--replicas", "5");
    assertThat(tooMany.exitCode()).isEqualTo(2);
    assertThat(tooMany.err().strip().lines()).hasSize(1);
    assertThat(tooMany.err()).contains("--replicas 5 for shard1, but only");
    Cli.Result noCollection =
        Cli.run("distribute", "--name", NAME, "--collection", "nope", "--replicas", "1");
    assertThat(noCollection.err()).contains("no collection 'nope'");
  }
}
