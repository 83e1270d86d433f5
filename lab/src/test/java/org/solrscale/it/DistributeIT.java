package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeOps.NodeOp;
import org.solrscale.distribute.Distributor;
import org.solrscale.results.Distribution;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.runtime.SolrscaleJar;
import org.solrscale.testing.Await;
import org.solrscale.testing.Needs;

/**
 * `distribute` on a real cluster across four lab-network hosts (the relays started over SSH in
 * their namespaces): three PULL replicas of one shard seeded by a chain of relays, which Solr finds
 * in sync (its own replication.properties says it fetched nothing); the other shard by Solr's own
 * ADDREPLICA for contrast (which does fetch); a relay killed mid-transfer, the leader stopped
 * mid-transfer, a refresh of an existing replica after more indexing; a scenario sweeping the
 * method (on this machine); bad input refused.
 */
class DistributeIT {
  static final String NAME = "it-dist";
  static final String NET = "dit";
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  static Cluster cluster() {
    return new Cluster(SolrscaleHome.fromEnvironment(), NAME, System.err::println);
  }

  @BeforeAll
  static void up() {
    Needs.labHosts();
    cluster().state().ifPresent(s -> cluster().down(true));
    Cli.run("net", "down", "--name", NET, "--if-exists"); // what a killed earlier run left
    Cli.Result net = Cli.run("net", "up", "--name", NET, "--hosts", "4");
    assertThat(net.exitCode()).as(net.err()).isZero();
    // four lab hosts, each a network namespace with its own sshd: the relays run there over SSH
    Cli.Result r =
        Cli.run(
            "up",
            "--name",
            NAME,
            "--hosts",
            "dit-h1,dit-h2,dit-h3,dit-h4",
            "--zookeepers",
            "1",
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
    // the tests' own one-shard collections: about 9 MB each, enough to strike mid-transfer
    assertThat(
            Cli.run("data", "synth", "--docs", "8000", "-o", dir.resolve("small.jsonl").toString())
                .exitCode())
        .isZero();
  }

  @AfterAll
  static void down() {
    if (cluster().state().isPresent()) {
      cluster().down(true);
    }
    Cli.Result r = Cli.run("net", "down", "--name", NET, "--if-exists");
    assertThat(r.exitCode()).as(r.err()).isZero();
  }

  /** A test's own collection goes, whatever the test's outcome, so the next finds free nodes. */
  @org.junit.jupiter.api.AfterEach
  void dropOwnCollections() throws Exception {
    for (String c : List.of("k1", "k2", "k3", "k4")) {
      try {
        replicas(c);
      } catch (IOException e) {
        continue; // CLUSTERSTATUS answers 400 for a collection that is not there
      }
      Cli.run("collection", "delete", "--name", NAME, "--collection", c);
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
    // one target gets its first chunk damaged on arrival, once: caught by its hash, sent again
    String leaderNode =
        replicas("c").stream()
            .filter(x -> x.path("leader").asBoolean())
            .findFirst()
            .orElseThrow()
            .path("node_name")
            .asText();
    String damaged =
        cluster().requireState().solrNodes().stream()
            .filter(n -> !n.solrNodeName().equals(leaderNode))
            .findFirst()
            .orElseThrow()
            .id();
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
            "3",
            "--method",
            "chain",
            "--type",
            "pull",
            "--chunk-kb",
            "256",
            "--test-corrupt-chunk",
            damaged + "=0:0",
            "--out",
            out.toString(),
            "--json");
    assertThat(chain.exitCode()).as(chain.out() + chain.err()).isZero();
    JsonNode r = JSON.readTree(chain.out());
    JsonNode shard = r.get("shards").get(0);
    long leaderDocs = shard.get("leader_docs").asLong();
    assertThat(leaderDocs).isGreaterThan(5000);
    assertThat(shard.get("targets")).hasSize(3);
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
    List<java.time.Instant> started = new java.util.ArrayList<>();
    for (JsonNode t : shard.get("targets")) {
      assertThat(t.get("state").asText()).as(t.toString()).isEqualTo("active");
      assertThat(t.get("docs").asLong()).isEqualTo(leaderDocs);
      assertThat(t.get("bytes_received").asLong()).isEqualTo(shard.get("index_bytes").asLong());
      assertThat(t.get("resent_chunks").asInt())
          .as(t.get("node").asText())
          .isEqualTo(t.get("node").asText().equals(damaged) ? 1 : 0);
      // Solr's own word: it wrote no replication.properties, so it fetched nothing
      String node = t.get("node").asText();
      String base = cluster().requireState().node(node).baseUrl();
      String dataDir = dataDirOf(base, t.get("core").asText());
      assertThat(Path.of(dataDir, "replication.properties")).doesNotExist();
      assertThat(t.get("solr_bytes_downloaded").asLong()).isZero();
      assertThat(indexFiles(dataDir)).isEqualTo(leaderFiles);
      // the copy is where Solr has the core's data: the same instance directory on every node
      assertThat(t.get("data_dir").asText()).isEqualTo(dataDir.replaceAll("/+$", ""));
      assertThat(dataDir).contains("/distribute/c_shard1_");
      JsonNode st =
          JSON.readTree(
                  new java.net.URL(
                      base + "/admin/cores?action=STATUS&wt=json&core=" + t.get("core").asText()))
              .path("status")
              .path(t.get("core").asText());
      started.add(java.time.Instant.parse(st.path("startTime").asText()));
    }
    // created together (the default): Solr's own start times of the three cores lie within a
    // second, where one ADDREPLICA each is run by Solr one after another, about 2 s apart
    assertThat(
            java.time.Duration.between(
                started.stream().min(java.util.Comparator.naturalOrder()).orElseThrow(),
                started.stream().max(java.util.Comparator.naturalOrder()).orElseThrow()))
        .as("start times of the new cores: %s", started)
        .isLessThan(java.time.Duration.ofMillis(1000));
    assertThat(out.resolve("distribute.json")).exists();
    assertThat(Files.readAllLines(out.resolve("overview.csv")).size()).isGreaterThan(1);
    // each target's bytes as the relays reported them, for the live view: every target, growing,
    // of the index's size; and the view of the finished run serves the last report of each
    Map<String, Long> lastBytes = new java.util.HashMap<>();
    Map<String, Long> lastTotal = new java.util.HashMap<>();
    for (String line : Files.readAllLines(out.resolve("targets.jsonl"))) {
      JsonNode t = JSON.readTree(line);
      String node = t.get("node").asText();
      long total = t.get("total").asLong(); // 0 until the relay knows the index's size
      assertThat(total).as(line).isIn(0L, shard.get("index_bytes").asLong());
      assertThat(t.get("bytes").asLong())
          .as(line)
          .isGreaterThanOrEqualTo(lastBytes.getOrDefault(node, 0L))
          .isLessThanOrEqualTo(shard.get("index_bytes").asLong());
      lastBytes.put(node, t.get("bytes").asLong());
      lastTotal.put(node, total);
    }
    // the last line of each target: as the distribution ended, what distribute.json says it got
    assertThat(lastTotal.values()).containsOnly(shard.get("index_bytes").asLong());
    for (JsonNode t : shard.get("targets")) {
      assertThat(lastBytes.get(t.get("node").asText()))
          .isEqualTo(t.get("bytes_received").asLong() + t.get("bytes_had").asLong());
    }
    java.util.Set<String> targetNodes = new java.util.HashSet<>();
    shard.get("targets").forEach(t -> targetNodes.add(t.get("node").asText()));
    assertThat(lastBytes.keySet()).isEqualTo(targetNodes);
    String metrics = LiveViews.metrics(out);
    lastBytes.forEach(
        (node, bytes) -> {
          String series =
              "solrscale_distribute_received_bytes{node=\""
                  + node
                  + "\",shard=\"shard1\",step=\"chain\"} ";
          String line = metrics.lines().filter(l -> l.startsWith(series)).findFirst().orElseThrow();
          assertThat(Double.parseDouble(line.substring(series.length())))
              .as(line)
              .isEqualTo((double) bytes);
        });

    // the baseline on the other shard: Solr copies the index itself, and says so; here with one
    // ADDREPLICA per replica
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
            "2",
            "--method",
            "solr",
            "--create",
            "each",
            "--type",
            "pull",
            "--json");
    assertThat(solr.exitCode()).as(solr.out() + solr.err()).isZero();
    JsonNode targets = JSON.readTree(solr.out()).get("shards").get(0).get("targets");
    assertThat(targets).hasSize(2);
    for (JsonNode t : targets) {
      assertThat(t.get("state").asText()).isEqualTo("active");
      assertThat(t.get("solr_bytes_downloaded").asLong()).isPositive();
    }
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
            "  synth: {docs: 2000}",
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

  static final Pattern RELAY = Pattern.compile("relay on (\\S+) at \\S+ \\(pid (\\d+)\\)");

  /** A collection of one shard with {@code replicas} NRT replicas, holding 8,000 documents. */
  static void collection(String name, int replicas) {
    Cli.Result c =
        Cli.run(
            "collection",
            "create",
            "--name",
            NAME,
            "--collection",
            name,
            "--shards",
            "1",
            "--replicas",
            Integer.toString(replicas));
    assertThat(c.exitCode()).as(c.err()).isZero();
    Cli.Result i =
        Cli.run(
            "index", "--name", NAME, "--collection", name, dir.resolve("small.jsonl").toString());
    assertThat(i.exitCode()).as(i.err()).isZero();
  }

  /**
   * Distributes {@code name}'s shard1 to {@code n} replicas of a type, each link capped at {@code
   * bytesPerSecond} so that a fault can strike mid-transfer.
   */
  static Distribution slowly(String name, int n, String type, long bytesPerSecond, Distributor d) {
    return d.run(
        new Distributor.Options(
            name,
            List.of("shard1"),
            n,
            type,
            null,
            Distributor.Method.CHAIN,
            64 * 1024,
            Duration.ofMinutes(3),
            bytesPerSecond,
            false,
            Distributor.Create.TOGETHER,
            null));
  }

  /** The replicas of a one-shard collection now, as CLUSTERSTATUS gives them. */
  static List<JsonNode> replicas(String collection) throws Exception {
    JsonNode cs =
        JSON.readTree(
            new java.net.URL(
                cluster().requireState().solrNodes().get(0).baseUrl()
                    + "/admin/collections?action=CLUSTERSTATUS&wt=json&collection="
                    + collection));
    List<JsonNode> out = new java.util.ArrayList<>();
    cs.path("cluster")
        .path("collections")
        .path(collection)
        .path("shards")
        .path("shard1")
        .path("replicas")
        .forEach(out::add);
    return out;
  }

  /** The replicas of a one-shard collection now: core name to node. */
  static Map<String, String> replicasOf(String collection) throws Exception {
    Map<String, String> out = new TreeMap<>();
    replicas(collection)
        .forEach(r -> out.put(r.path("core").asText(), r.path("node_name").asText()));
    return out;
  }

  @Test
  void aTargetKilledMidTransferIsReportedWithoutAReplicaAndTheOtherCompletes() throws Exception {
    collection("k1", 1);
    Map<String, Long> pids = new ConcurrentHashMap<>();
    AtomicReference<String> victim = new AtomicReference<>();
    Distributor d =
        new Distributor(
            cluster(),
            line -> {
              System.err.println(line);
              Matcher m = RELAY.matcher(line);
              if (m.find()) {
                pids.put(m.group(1), Long.parseLong(m.group(2)));
              }
            },
            row -> {
              // the first target seen half-way: killed as a crash would (by the pid it printed)
              if (row.bytes() > 0
                  && row.bytes() < row.total() / 2
                  && pids.containsKey(row.node())
                  && victim.compareAndSet(null, row.node())) {
                ProcessHandle.of(pids.get(row.node())).ifPresent(ProcessHandle::destroyForcibly);
              }
            });
    Distribution r =
        slowly("k1", 2, "nrt", 1_000_000, d); // NRT: Solr's recovery finds it in sync too
    assertThat(victim.get()).as("a relay was killed mid-transfer").isNotNull();
    assertThat(ProcessHandle.of(pids.get(victim.get())).map(ProcessHandle::isAlive))
        .isNotEqualTo(java.util.Optional.of(true));
    Distribution.ShardRun shard = r.shards().get(0);
    assertThat(shard.targets()).hasSize(2);
    for (Distribution.Target t : shard.targets()) {
      if (t.node().equals(victim.get())) {
        assertThat(t.state()).isEqualTo("failed");
        assertThat(t.replica()).isNull();
        assertThat(t.error()).contains("killed");
        assertThat(Path.of(t.dataDir())).as("the half-made copy is removed").doesNotExist();
      } else {
        assertThat(t.state()).as(t.toString()).isEqualTo("active");
        assertThat(t.docs()).isEqualTo(shard.leaderDocs());
        assertThat(t.solrBytesDownloaded()).isZero();
        assertThat(t.bytesReceived() + t.bytesHad()).isEqualTo(shard.indexBytes());
      }
    }
    // Solr's word: the leader and the one that completed, nothing on the killed one's node
    assertThat(replicasOf("k1")).hasSize(2);
    assertThat(replicasOf("k1").values())
        .doesNotContain(cluster().requireState().node(victim.get()).solrNodeName());
  }

  @Test
  void aLeaderChangeDuringTheTransferFailsClearlyAndHandsNothingToSolr() throws Exception {
    collection("k2", 2);
    Map<String, String> before = replicasOf("k2");
    String leaderNode =
        replicas("k2").stream()
            .filter(x -> x.path("leader").asBoolean())
            .findFirst()
            .orElseThrow()
            .path("node_name")
            .asText();
    String leaderId =
        cluster().requireState().solrNodes().stream()
            .filter(n -> n.solrNodeName().equals(leaderNode))
            .findFirst()
            .orElseThrow()
            .id();
    AtomicReference<Thread> stopping = new AtomicReference<>();
    Distributor d =
        new Distributor(
            cluster(),
            System.err::println,
            row -> {
              if (row.bytes() > 0 && stopping.get() == null) {
                Thread t =
                    new Thread(
                        () -> cluster().nodes().node(NodeOp.STOP, leaderId, Duration.ofMinutes(2)));
                if (stopping.compareAndSet(null, t)) {
                  t.start();
                }
              }
            });
    try {
      Distribution r = slowly("k2", 1, "pull", 500_000, d); // time to stop it
      assertThat(stopping.get()).as("the leader was stopped mid-transfer").isNotNull();
      stopping.get().join();
      Distribution.Target t = r.shards().get(0).targets().get(0);
      assertThat(t.state()).isEqualTo("failed");
      assertThat(t.replica()).isNull();
      assertThat(t.error()).contains("the leader of shard1 changed from");
      assertThat(Path.of(t.dataDir())).doesNotExist();
      assertThat(replicasOf("k2").keySet()).isEqualTo(before.keySet());
    } finally {
      if (stopping.get() != null) {
        stopping.get().join();
        cluster().nodes().node(NodeOp.START, leaderId, Duration.ofMinutes(2));
      }
    }
  }

  @Test
  void aRefreshSendsAnExistingReplicaOnlyTheFilesItLacksAndANewOneEverything() throws Exception {
    collection("k3", 1);
    Cli.Result first =
        Cli.run("distribute", "--name", NAME, "--collection", "k3", "--replicas", "1", "--json");
    assertThat(first.exitCode()).as(first.err()).isZero();
    JsonNode a = JSON.readTree(first.out()).get("shards").get(0).get("targets").get(0);
    assertThat(a.get("state").asText()).isEqualTo("active");
    String aNode = a.get("node").asText();
    String aBase = cluster().requireState().node(aNode).baseUrl();
    // a PULL replica fetches each new commit by itself every half autoCommit time; a long one
    // leaves the new commit to distribute, as a user would set it (the cores reload with it)
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.http.HttpResponse<String> set =
        http.send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(aBase + "/k3/config?wt=json"))
                .header("Content-Type", "application/json")
                .POST(
                    java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"set-property\": {\"updateHandler.autoCommit.maxTime\": 1200000}}"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    Await.until(
        "A's core reloaded",
        Duration.ofSeconds(60),
        () ->
            JSON.readTree(
                        new java.net.URL(
                            aBase + "/" + a.get("core").asText() + "/config/updateHandler?wt=json"))
                    .path("config")
                    .path("updateHandler")
                    .path("autoCommit")
                    .path("maxTime")
                    .asLong()
                == 1200000);
    Map<String, Long> aBefore = indexFiles(a.get("data_dir").asText());
    Path more = dir.resolve("more.jsonl");
    assertThat(
            Cli.run("data", "synth", "--docs", "4000", "--seed", "77", "-o", more.toString())
                .exitCode())
        .isZero();
    Files.writeString(more, Files.readString(more).replace("\"id\":\"doc-", "\"id\":\"more-"));
    assertThat(Cli.run("index", "--name", NAME, "--collection", "k3", more.toString()).exitCode())
        .isZero();

    Cli.Result second =
        Cli.run(
            "distribute",
            "--name",
            NAME,
            "--collection",
            "k3",
            "--replicas",
            "1",
            "--refresh",
            "--json");
    assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
    JsonNode shard = JSON.readTree(second.out()).get("shards").get(0);
    long indexBytes = shard.get("index_bytes").asLong();
    assertThat(shard.get("targets")).hasSize(2);
    JsonNode fresh = null;
    JsonNode refreshed = null;
    for (JsonNode t : shard.get("targets")) {
      assertThat(t.get("state").asText()).as(t.toString()).isEqualTo("active");
      assertThat(t.get("docs").asLong()).isEqualTo(shard.get("leader_docs").asLong());
      assertThat(t.get("solr_bytes_downloaded").asLong()).as("Solr fetched nothing").isZero();
      if (t.path("replaced").isNull() || t.path("replaced").isMissingNode()) {
        fresh = t;
      } else {
        refreshed = t;
      }
    }
    assertThat(fresh.get("bytes_received").asLong()).isEqualTo(indexBytes);
    assertThat(refreshed.get("node").asText()).isEqualTo(aNode);
    assertThat(refreshed.get("replaced").asText()).isEqualTo(a.get("replica").asText());
    // the leader's commit, as the new replica has it, less what A had: counted here, on disk
    Map<String, Long> commit = indexFiles(fresh.get("data_dir").asText());
    long lacking = 0;
    for (Map.Entry<String, Long> f : commit.entrySet()) {
      if (!f.getValue().equals(aBefore.get(f.getKey()))) {
        lacking += f.getValue();
      }
    }
    assertThat(commit.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(indexBytes);
    assertThat(lacking).isPositive().isLessThan(indexBytes);
    assertThat(refreshed.get("bytes_received").asLong()).isEqualTo(lacking);
    assertThat(refreshed.get("bytes_had").asLong()).isEqualTo(indexBytes - lacking);
    // Solr's word: leader, the new one and A's replacement; A's old replica is gone
    assertThat(replicasOf("k3")).hasSize(3).doesNotContainKey(a.get("core").asText());
  }

  @Test
  void aCollectionBeingWrittenToIsDistributedAndSolrFetchesOnlyWhatCameAfterThePin()
      throws Exception {
    collection("k4", 1);
    String base = cluster().requireState().solrNodes().get(0).baseUrl();
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger written =
        new java.util.concurrent.atomic.AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              // 20 documents and a hard commit every 300 ms, at most 200 times, until stopped
              for (int round = 0; round < 200 && !stop.get(); round++) {
                StringBuilder docs = new StringBuilder("[");
                for (int i = 0; i < 20; i++) {
                  docs.append(i == 0 ? "" : ",")
                      .append("{\"id\":\"w-")
                      .append(round)
                      .append('-')
                      .append(i)
                      .append("\",\"title_t\":\"written meanwhile\"}");
                }
                try {
                  var r =
                      http.send(
                          java.net.http.HttpRequest.newBuilder(
                                  java.net.URI.create(base + "/k4/update?commit=true&wt=json"))
                              .header("Content-Type", "application/json")
                              .POST(
                                  java.net.http.HttpRequest.BodyPublishers.ofString(
                                      docs.append(']').toString()))
                              .build(),
                          java.net.http.HttpResponse.BodyHandlers.ofString());
                  if (r.statusCode() == 200) {
                    written.addAndGet(20);
                  }
                  Thread.sleep(300); // the writer's pace (a steady trickle), not a wait
                } catch (Exception e) {
                  return;
                }
              }
            },
            "writer");
    writer.start();
    Distribution r;
    try {
      Await.until("the writer's first documents", Duration.ofSeconds(60), () -> written.get() > 0);
      r =
          slowly(
              "k4",
              1,
              "tlog",
              1_000_000,
              new Distributor(cluster(), System.err::println, row -> {}));
    } finally {
      stop.set(true);
      writer.join();
    }
    assertThat(written.get()).as("documents written during the run").isGreaterThan(100);
    Distribution.ShardRun shard = r.shards().get(0);
    Distribution.Target t = shard.targets().get(0);
    assertThat(t.state()).as(t.toString()).isEqualTo("active");
    assertThat(t.docs()).isGreaterThanOrEqualTo(shard.leaderDocs());
    // and the replica ends with every document written (its next polls bring the last commits)
    String core = t.core();
    String nodeBase = cluster().requireState().node(t.node()).baseUrl();
    long want = 8000 + written.get();
    Await.until(
        "the replica holds all " + want + " documents",
        Duration.ofSeconds(60),
        () ->
            JSON.readTree(
                        new java.net.URL(
                            nodeBase + "/" + core + "/select?q=*:*&rows=0&distrib=false&wt=json"))
                    .path("response")
                    .path("numFound")
                    .asLong()
                == want);
    // Solr's own word: it fetched what the leader committed after the pin, and only that: its
    // cycles went into the seeded index (no full copy into an index.<timestamp> directory)
    Path data = Path.of(t.dataDir());
    java.util.Properties p = new java.util.Properties();
    try (var in = Files.newInputStream(data.resolve("replication.properties"))) {
      p.load(in);
    }
    assertThat(Integer.parseInt(p.getProperty("timesIndexReplicated"))).isPositive();
    assertThat(Long.parseLong(p.getProperty("lastCycleBytesDownloaded")))
        .isPositive()
        .isLessThan(shard.indexBytes() / 2);
    assertThat(data.resolve("index.properties")).doesNotExist();
  }

  @Test
  void aRelayWhoseOutputGoesNowhereEndsItself() throws Exception {
    // what a relay on a host sees when distribute is gone: its ssh closed, no hang-up signal
    Process p =
        new ProcessBuilder(
                org.solrscale.runtime.Jdk.running().java().toString(),
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
    Cli.Result create =
        Cli.run(
            "distribute",
            "--name",
            NAME,
            "--collection",
            "c",
            "--replicas",
            "1",
            "--create",
            "both");
    assertThat(create.exitCode()).isEqualTo(2);
    assertThat(create.err().strip())
        .isEqualTo("solrscale: --create 'both' is not one of together, each");
  }
}
