package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.Slice;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.NodeState;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Await;

/**
 * One real cluster for the class: 3 ZooKeepers and 3 Solr nodes, a collection of 2 shards x 2
 * replicas, driven through the CLI as a user would and checked through SolrJ independently.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {
  static final String NAME = "it-cluster";
  static final String COLLECTION = "docs";
  static final int DOCS = 2000;
  static final ObjectMapper JSON = new ObjectMapper();

  /** The class's cluster, up before its first test and checked gone after its last. */
  @RegisterExtension
  static final ItCluster CLUSTER =
      new ItCluster(
          NAME,
          "--nodes",
          "3",
          "--zookeepers",
          "3",
          "--heap",
          "384m",
          "--jvm-arg", // a 10 s ZooKeeper session: killed nodes leave and lead sooner
          "-DzkClientTimeout=10000",
          "--collection",
          COLLECTION,
          "--shards",
          "2",
          "--replicas",
          "2",
          "--timeout",
          "300s");

  static Cluster cluster() {
    return CLUSTER.cluster();
  }

  static ClusterState state() {
    ClusterState s = cluster().requireState();
    CLUSTER.record(); // a node started and killed within a test is checked gone too
    return s;
  }

  static JsonNode status() throws Exception {
    Cli.Result r = Cli.run("status", "--name", NAME, "--json");
    assertThat(r.exitCode()).isZero();
    return JSON.readTree(r.out());
  }

  static JsonNode node(JsonNode status, String id) {
    for (JsonNode n : status.get("nodes")) {
      if (n.get("id").asText().equals(id)) {
        return n;
      }
    }
    throw new AssertionError("no node " + id + " in " + status);
  }

  static SolrClient client() {
    List<String> urls = state().solrNodes().stream().map(NodeState::baseUrl).toList();
    return new CloudHttp2SolrClient.Builder(urls).build();
  }

  @BeforeAll
  static void up() {
    assertThat(CLUSTER.upResult().out()).contains("cluster " + NAME + " is up").contains("healthy");
  }

  @Test
  @Order(1)
  void statusShowsEveryNodeAndAQuorum() throws Exception {
    JsonNode s = status();
    assertThat(s.get("healthy").asBoolean()).isTrue();
    assertThat(s.get("nodes")).hasSize(6);
    List<String> modes = new ArrayList<>();
    for (JsonNode n : s.get("nodes")) {
      assertThat(n.get("alive").asBoolean()).isTrue();
      assertThat(n.get("pid").asLong()).isPositive();
      if (n.get("role").asText().equals("zk")) {
        modes.add(n.get("mode").asText());
      } else {
        assertThat(n.get("mode").asText()).isEqualTo("live");
      }
    }
    assertThat(modes).containsExactlyInAnyOrder("leader", "follower", "follower");
    assertThat(s.get("zk_host").asText().split(",")).hasSize(3);
  }

  /** The class-data archives a process has mapped (HotSpot's word that it took them). */
  static List<String> mappedArchives(long pid) throws IOException {
    return Files.readAllLines(Path.of("/proc/" + pid + "/maps")).stream()
        .filter(l -> l.endsWith(".jsa") || l.endsWith(".aot"))
        .map(l -> l.substring(l.lastIndexOf(' ') + 1))
        .filter(f -> f.contains("/archives/"))
        .distinct()
        .toList();
  }

  @Test
  @Order(9) // late: its restarts leave replicas recovering, which the tests before must not meet
  void everyNodeStartsFromTheClassArchiveMadeOnceForItsRuntimeAndJdk() throws Exception {
    Path archives = SolrscaleHome.fromEnvironment().runtimes().resolve("9.10.1/archives");
    // the build of the JDK the nodes run on, from its release file
    String build =
        Files.readAllLines(Path.of(state().jdkHome(), "release")).stream()
            .filter(l -> l.startsWith("JAVA_RUNTIME_VERSION="))
            .findFirst()
            .orElseThrow()
            .replaceAll("^[^\"]*\"|\"$", "");
    List<Path> made = new ArrayList<>();
    try (var list = Files.list(archives)) {
      for (Path d : list.toList()) {
        if (Files.exists(d.resolve(".complete"))
            && Files.readString(d.resolve("jdk")).strip().equals(build)) {
          made.add(d);
        }
      }
    }
    // one for this runtime and JDK: one made for an older node jar is gone
    assertThat(made).as("archives in " + archives + " for " + build).hasSize(1);
    Path archive = made.get(0);
    // what is kept and shipped: the archives and their JDK's build, not the training's class lists
    try (var files = Files.list(archive)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .containsExactlyInAnyOrder(".complete", "jdk", "zk.jsa", "solr.jsa");
    }
    for (NodeState n : state().nodes()) {
      String file = (n.isZk() ? "zk" : "solr") + ".jsa";
      // the kernel's word: the running JVM has the archive mapped, so HotSpot took it
      assertThat(mappedArchives(n.pid()))
          .as(n.id())
          .containsExactly(archive.resolve(file).toString());
      Path dir = cluster().hosts().nodeDir(n);
      List<String> cmd = Files.readAllLines(dir.resolve("command.txt"));
      String cp = cmd.get(cmd.indexOf("-cp") + 1);
      assertThat(cp.split(":"))
          .allSatisfy(e -> assertThat(e).matches("runtime/.*\\.jar|node\\.jar"));
      assertThat(Files.readSymbolicLink(dir.resolve("runtime")))
          .isEqualTo(SolrscaleHome.fromEnvironment().runtimes().resolve("9.10.1/lib"));
    }
    // the training cluster that made it is gone, its processes too
    assertThat(Cli.run("list").out()).doesNotContain("class-archive-");
    assertThat(HostsIT.markedProcesses("-Dsolrscale.node=class-archive-")).isEmpty();

    // turned off, a restarted node starts without it
    System.setProperty("solrscale.class.archive", "off");
    try {
      assertThat(Cli.run("node", "restart", "--name", NAME, "solr3").exitCode()).isZero();
      assertThat(mappedArchives(state().node("solr3").pid())).isEmpty();
    } finally {
      System.clearProperty("solrscale.class.archive"); // on again: the default
    }
    assertThat(Cli.run("node", "restart", "--name", NAME, "solr3").exitCode()).isZero();
    assertThat(mappedArchives(state().node("solr3").pid()))
        .containsExactly(archive.resolve("solr.jsa").toString());
    cluster().collections().waitUntilHealthy(Duration.ofSeconds(180));
  }

  @Test
  @Order(2)
  void clusterStatusHasTwoShardsOfTwoReplicasOnDistinctNodes() throws Exception {
    try (CloudHttp2SolrClient client = (CloudHttp2SolrClient) client()) {
      DocCollection c = client.getClusterState().getCollection(COLLECTION);
      assertThat(c.getSlices()).hasSize(2);
      Set<String> nodesUsed = new HashSet<>();
      for (Slice slice : c.getSlices()) {
        assertThat(slice.getReplicas()).hasSize(2);
        Set<String> nodes = new HashSet<>();
        for (Replica r : slice.getReplicas()) {
          assertThat(r.getState()).isEqualTo(Replica.State.ACTIVE);
          assertThat(r.getType()).isEqualTo(Replica.Type.NRT);
          nodes.add(r.getNodeName());
        }
        assertThat(nodes).as("replicas of %s share a node", slice.getName()).hasSize(2);
        assertThat(slice.getLeader()).isNotNull();
        nodesUsed.addAll(nodes);
      }
      assertThat(nodesUsed).hasSize(3); // 4 replicas spread over all 3 nodes
    }
  }

  @Test
  @Order(3)
  void indexesAndQueriesThroughSolrJ() throws Exception {
    try (SolrClient client = client()) {
      List<SolrInputDocument> docs = new ArrayList<>();
      for (int i = 0; i < DOCS; i++) {
        SolrInputDocument d = new SolrInputDocument();
        d.addField("id", "d" + i);
        d.addField("title_t", "document number " + i + (i % 10 == 0 ? " special" : ""));
        d.addField("group_s", "g" + (i % 7));
        d.addField("n_i", i);
        docs.add(d);
      }
      client.add(COLLECTION, docs);
      client.commit(COLLECTION);
      assertThat(client.query(COLLECTION, new SolrQuery("*:*")).getResults().getNumFound())
          .isEqualTo(DOCS);
      assertThat(client.query(COLLECTION, new SolrQuery("special")).getResults().getNumFound())
          .isEqualTo(DOCS / 10);
      SolrQuery facet = new SolrQuery("*:*").setRows(0).setFacet(true).addFacetField("group_s");
      assertThat(client.query(COLLECTION, facet).getFacetField("group_s").getValueCount())
          .isEqualTo(7);
    }
    JsonNode s = status();
    long sum = 0;
    for (JsonNode shard : s.get("collections").get(0).get("shards")) {
      assertThat(shard.get("docs").asLong()).isPositive();
      sum += shard.get("docs").asLong();
    }
    assertThat(sum).isEqualTo(DOCS);
  }

  @Test
  @Order(4)
  void aKilledNodeIsReportedDownTheCollectionStillAnswersAndItRecovers() throws Exception {
    NodeState victim = state().node("solr2");
    Cli.Result kill = Cli.run("node", "kill", "--name", NAME, "solr2");
    assertThat(kill.exitCode()).isZero();
    assertThat(kill.out()).contains("solr2 killed (SIGKILL, pid " + victim.pid() + ")");
    assertThat(gone(victim.pid())).isTrue();

    JsonNode s = status();
    assertThat(node(s, "solr2").get("state").asText()).isEqualTo("dead");
    assertThat(node(s, "solr2").get("alive").asBoolean()).isFalse();
    assertThat(s.get("healthy").asBoolean()).isFalse();
    Cli.Result table = Cli.run("status", "--name", NAME);
    assertThat(table.out()).contains("NOT HEALTHY").containsPattern("solr2 +solr .* dead");

    // every shard still has a live replica: the collection answers in full
    try (SolrClient client = client()) {
      Await.until(
          "every document found with solr2 dead",
          Duration.ofSeconds(60),
          () -> client.query(COLLECTION, new SolrQuery("*:*")).getResults().getNumFound() == DOCS);
    }

    Cli.Result start = Cli.run("node", "start", "--name", NAME, "solr2");
    assertThat(start.exitCode()).as(start.err()).isZero();
    cluster().collections().waitUntilHealthy(Duration.ofSeconds(180));
    JsonNode after = status();
    assertThat(after.get("healthy").asBoolean()).isTrue();
    assertThat(node(after, "solr2").get("pid").asLong()).isNotEqualTo(victim.pid());
    assertReplicasAgree();
    // the table says what --json says: each node's pid and state, each shard's documents
    String text = Cli.run("status", "--name", NAME).out();
    JsonNode json = status();
    for (JsonNode n : json.get("nodes")) {
      assertThat(text)
          .as(n.toString())
          .containsPattern(
              "(?m)^"
                  + n.get("id").asText()
                  + " .* "
                  + (n.get("pid").asLong() > 0 ? n.get("pid").asText() : "-")
                  + " +"
                  + n.get("state").asText()
                  + " ");
    }
    for (JsonNode c : json.get("collections")) {
      for (JsonNode sh : c.get("shards")) {
        assertThat(text)
            .as(sh.toString())
            .containsPattern(" " + sh.get("name").asText() + " +" + sh.get("docs").asLong() + " ");
      }
    }
  }

  @Test
  @Order(5)
  void pauseAndResumeAreVisibleInStatus() throws Exception {
    assertThat(Cli.run("node", "pause", "--name", NAME, "solr3").exitCode()).isZero();
    // a frozen node must not freeze status or hide the collections: reads go to running nodes
    JsonNode paused = status();
    assertThat(node(paused, "solr3").get("state").asText()).isEqualTo("paused");
    assertThat(paused.get("error").isNull()).as(paused.toString()).isTrue();
    assertThat(paused.get("collections")).hasSize(1);
    assertThat(Cli.run("node", "resume", "--name", NAME, "solr3").exitCode()).isZero();
    assertThat(node(status(), "solr3").get("state").asText()).isEqualTo("running");
    cluster().collections().waitUntilHealthy(Duration.ofSeconds(120));
  }

  @Test
  @Order(6)
  void addNodeTakesReplicasAndRemoveNodeHandsThemBack() throws Exception {
    Cli.Result add = Cli.run("add-node", "--name", NAME, "--labels", "dc=east", "--heap", "384m");
    assertThat(add.exitCode()).as(add.err()).isZero();
    NodeState added = state().node("solr4");
    assertThat(added.labels()).containsEntry("dc", "east");
    JsonNode s = status();
    assertThat(s.get("healthy").asBoolean()).isTrue();
    assertThat(replicasOn("solr4", s)).isPositive();
    // the label is a system property of the node, usable by shards.preference and placement
    try (Http2SolrClient direct = new Http2SolrClient.Builder(added.baseUrl()).build()) {
      var props =
          direct.request(
              new GenericSolrRequest(
                  SolrRequest.METHOD.GET, "/admin/info/properties", new ModifiableSolrParams()));
      assertThat(props.toString()).contains("dc=east");
    }

    Cli.Result remove = Cli.run("remove-node", "--name", NAME, "solr4");
    assertThat(remove.exitCode()).as(remove.err()).isZero();
    assertThat(gone(added.pid())).isTrue();
    assertThat(state().find("solr4")).isEmpty();
    JsonNode after = status();
    assertThat(after.get("healthy").asBoolean()).isTrue();
    assertThat(after.get("nodes")).hasSize(6);
    assertThat(replicasOn("solr4", after)).isZero();
    try (SolrClient client = client()) {
      assertThat(client.query(COLLECTION, new SolrQuery("*:*")).getResults().getNumFound())
          .isEqualTo(DOCS);
    }
  }

  @Test
  @Order(7)
  void collectionCreateAndDelete() throws Exception {
    Cli.Result create =
        Cli.run(
            "collection",
            "create",
            "--name",
            NAME,
            "--collection",
            "logs",
            "--router",
            "implicit",
            "--shard-names",
            "a,b,c",
            "--replicas",
            "1",
            "--tlog",
            "1");
    assertThat(create.exitCode()).as(create.err()).isZero();
    try (CloudHttp2SolrClient client = (CloudHttp2SolrClient) client()) {
      DocCollection c = client.getClusterState().getCollection("logs");
      assertThat(c.getSlices()).extracting(Slice::getName).containsExactlyInAnyOrder("a", "b", "c");
      assertThat(c.getRouter().getName()).isEqualTo("implicit");
      for (Slice slice : c.getSlices()) {
        assertThat(slice.getReplicas())
            .extracting(Replica::getType)
            .containsExactlyInAnyOrder(Replica.Type.NRT, Replica.Type.TLOG);
      }
    }
    assertThat(Cli.run("collection", "delete", "--name", NAME, "--collection", "logs").exitCode())
        .isZero();
    assertThat(status().get("collections")).hasSize(1);
  }

  @Test
  @Order(8)
  void aUserConfigsetIsUploadedAndUsed(@TempDir Path dir) throws Exception {
    // the built-in configset plus one plain field the default schema would refuse
    Path conf = Files.createDirectories(dir.resolve("mine/conf"));
    for (String f : List.of("solrconfig.xml", "schema.xml", "stopwords.txt", "synonyms.txt")) {
      try (var in =
          ClusterIT.class.getResourceAsStream("/solrscale/configsets/default/conf/" + f)) {
        Files.write(conf.resolve(f), in.readAllBytes());
      }
    }
    String schema =
        Files.readString(conf.resolve("schema.xml"))
            .replace(
                "<uniqueKey>id</uniqueKey>",
                "<uniqueKey>id</uniqueKey>\n  <field name=\"headline\" type=\"text_general\" indexed=\"true\" stored=\"true\"/>");
    Files.writeString(conf.resolve("schema.xml"), schema);

    Cli.Result create =
        Cli.run(
            "collection",
            "create",
            "--name",
            NAME,
            "--collection",
            "mine",
            "--shards",
            "1",
            "--configset",
            dir.resolve("mine").toString());
    assertThat(create.exitCode()).as(create.err()).isZero();
    try (SolrClient client = client()) {
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", "1");
      d.addField("headline", "hello configset");
      client.add("mine", d);
      client.commit("mine");
      assertThat(client.query("mine", new SolrQuery("headline:hello")).getResults().getNumFound())
          .isEqualTo(1);
    }
    JsonNode mine = null;
    for (JsonNode c : status().get("collections")) {
      if (c.get("name").asText().equals("mine")) {
        mine = c;
      }
    }
    assertThat(mine).isNotNull();
    assertThat(mine.get("configset").asText()).isEqualTo("mine-config");
    assertThat(Cli.run("collection", "delete", "--name", NAME, "--collection", "mine").exitCode())
        .isZero();
  }

  @Test
  @Order(10)
  void upAgainIsIdempotentAndRestartsADeadNode() throws Exception {
    long zkPid = state().node("zk2").pid();
    assertThat(Cli.run("node", "kill", "--name", NAME, "zk2").exitCode()).isZero();
    Cli.Result up = Cli.run("up", "--name", NAME);
    assertThat(up.exitCode()).as(up.err()).isZero();
    assertThat(up.err()).contains("started zk2").doesNotContain("started solr");
    // one cluster runs one Solr version: another is refused before anything changes
    Cli.Result mixed = Cli.run("up", "--name", NAME, "--solr-version", "9.8.1");
    assertThat(mixed.exitCode()).as(mixed.err()).isEqualTo(2);
    assertThat(mixed.err().strip())
        .startsWith("solrscale: cluster '" + NAME + "' runs Solr 9.10.1")
        .contains("mixed versions are not supported")
        .doesNotContain("\n");
    // nor are other JVM arguments taken in silence by a running cluster
    Cli.Result args =
        Cli.run(
            "up",
            "--name",
            NAME,
            "--nodes",
            "3",
            "--zookeepers",
            "3",
            "--jvm-arg=-DzkClientTimeout=10000",
            "--jvm-arg=-Dsolr.autoSoftCommit.maxTime=500");
    assertThat(args.exitCode()).as(args.err()).isEqualTo(2);
    assertThat(args.err().strip())
        .startsWith("solrscale: cluster '" + NAME + "' runs with JVM arguments [-DzkClientTimeout")
        .contains("chosen when a cluster is created")
        .doesNotContain("\n");
    // nor another heap
    Cli.Result heap = Cli.run("up", "--name", NAME, "--heap", "1g");
    assertThat(heap.exitCode()).as(heap.err()).isEqualTo(2);
    assertThat(heap.err().strip())
        .startsWith("solrscale: cluster '" + NAME + "' runs its Solr nodes with heap 384m, not 1g")
        .contains("chosen when it is created")
        .doesNotContain("\n");
    assertThat(state().node("zk2").pid()).isNotEqualTo(zkPid);
    assertThat(status().get("healthy").asBoolean()).isTrue();
  }

  @Test
  @Order(11)
  void downStopsEveryRecordedProcess() throws Exception {
    ClusterState before = state();
    Cli.Result down = Cli.run("down", "--name", NAME);
    assertThat(down.exitCode()).isZero();
    for (NodeState n : before.nodes()) {
      assertThat(gone(n.pid())).as("%s pid %d", n.id(), n.pid()).isTrue();
    }
    JsonNode s = status();
    for (JsonNode n : s.get("nodes")) {
      assertThat(n.get("state").asText()).isEqualTo("stopped");
    }
  }

  private static int replicasOn(String nodeId, JsonNode status) {
    int count = 0;
    for (JsonNode c : status.get("collections")) {
      for (JsonNode shard : c.get("shards")) {
        for (JsonNode r : shard.get("replicas")) {
          if (r.get("node_id").asText().equals(nodeId)) {
            count++;
          }
        }
      }
    }
    return count;
  }

  /** Each replica, asked alone (distrib=false), holds as many documents as its shard should. */
  private static void assertReplicasAgree() throws Exception {
    try (CloudHttp2SolrClient client = (CloudHttp2SolrClient) client()) {
      DocCollection c = client.getClusterState().getCollection(COLLECTION);
      long total = 0;
      for (Slice slice : c.getSlices()) {
        Set<Long> counts = new HashSet<>();
        for (Replica r : slice.getReplicas()) {
          try (Http2SolrClient core = new Http2SolrClient.Builder(r.getBaseUrl()).build()) {
            SolrQuery q = new SolrQuery("*:*").setRows(0);
            q.set("distrib", "false");
            counts.add(core.query(r.getCoreName(), q).getResults().getNumFound());
          }
        }
        assertThat(counts).as("replicas of %s disagree", slice.getName()).hasSize(1);
        total += counts.iterator().next();
      }
      assertThat(total).isEqualTo(DOCS);
    }
  }

  /**
   * Dead, or a zombie its parent (this JVM, which started it through the CLI) has not reaped yet.
   */
  static boolean gone(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    try {
      String text = Files.readString(stat);
      return text.charAt(text.lastIndexOf(')') + 2) == 'Z';
    } catch (IOException e) {
      return true;
    }
  }
}
