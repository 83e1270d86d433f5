package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.solrscale.it.CliErrorsIT.assertOneLineError;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.NodeState;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.testing.Await;

/**
 * What a new user hit (issue 21), on one real cluster of 1 ZooKeeper and 1 Solr node with a
 * collection of 2 shards: up with another shape, a configset Solr refuses, --zk on up, status of a
 * SolrCloud by --zk or --url, logs, and down of a cluster that is not there.
 */
class NewUserIT {
  static final String NAME = "it-newuser";
  static final ObjectMapper JSON = new ObjectMapper();

  /** The class's cluster, up before its first test and checked gone after its last. */
  @RegisterExtension
  static final ItCluster CLUSTER =
      new ItCluster(
          NAME,
          "--nodes",
          "1",
          "--zookeepers",
          "1",
          "--heap",
          "384m",
          "--collection",
          "docs",
          "--shards",
          "2",
          "--timeout",
          "300s");

  static Cluster cluster() {
    return CLUSTER.cluster();
  }

  static ClusterState state() {
    ClusterState s = cluster().requireState();
    CLUSTER.record();
    return s;
  }

  static CloudHttp2SolrClient client() {
    return new CloudHttp2SolrClient.Builder(List.of(state().node("solr1").baseUrl())).build();
  }

  @BeforeAll
  static void up() throws Exception {
    try (CloudHttp2SolrClient client = client()) {
      List<SolrInputDocument> docs = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        SolrInputDocument d = new SolrInputDocument();
        d.addField("id", "d" + i);
        docs.add(d);
      }
      client.add("docs", docs);
      client.commit("docs");
    }
  }

  @Test
  void upWithAnotherShapeOfAnExistingCollectionSaysSoAndChangesNothing() throws Exception {
    assertOneLineError(
        Cli.run("up", "--name", NAME, "--collection", "docs", "--shards", "3"),
        2,
        "collection 'docs' exists with 2 shards x 1 nrt replica (router compositeId, configset "
            + "solrscale-default); up asked for 3 shards x 1 nrt replica (router compositeId, configset "
            + "solrscale-default): delete it first (solrscale collection delete --name "
            + NAME
            + " --collection docs), or leave out the collection flags");
    assertOneLineError(
        Cli.run("up", "--name", NAME, "--collection", "docs", "--shards", "2", "--tlog", "1"),
        2,
        "up asked for 2 shards x 1 nrt + 1 tlog replicas (");
    assertOneLineError(
        Cli.run(
            "up",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--router",
            "implicit",
            "--shard-names",
            "shard1,shard2"),
        2,
        "up asked for shards shard1,shard2 x 1 nrt replica (router implicit");
    // the recorded spec still holds what is there, and up without collection flags keeps it
    CollectionSpec recorded =
        state().spec().collections().stream()
            .filter(c -> c.name().equals("docs"))
            .findFirst()
            .orElseThrow();
    assertThat(recorded.shards()).isEqualTo(2);
    Cli.Result plain = Cli.run("up", "--name", NAME);
    assertThat(plain.exitCode()).as(plain.err()).isZero();
    Cli.Result same = Cli.run("up", "--name", NAME, "--collection", "docs", "--shards", "2");
    assertThat(same.exitCode()).as(same.err()).isZero();
    try (CloudHttp2SolrClient client = client()) {
      assertThat(client.getClusterState().getCollection("docs").getSlices()).hasSize(2);
      assertThat(client.query("docs", new SolrQuery("*:*")).getResults().getNumFound())
          .isEqualTo(10);
    }
  }

  @Test
  void upStillTakesZkAsTheOldNameOfZookeepersWithOneWarning() {
    Cli.Result r = Cli.run("up", "--name", NAME, "--zk", "1");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err().lines().filter(l -> l.contains("deprecated")).toList())
        .containsExactly(
            "solrscale: warning: up --zk 1 is deprecated and goes in the next release; use --zookeepers 1 "
                + "(--zk names a ZooKeeper address elsewhere)");
    assertOneLineError(
        Cli.run("up", "--name", NAME, "--zk", "1", "--zookeepers", "1"),
        2,
        "give --zookeepers, not also --zk");
    assertThat(Cli.run("up", "--help").out()).contains("Deprecated name of --zookeepers");
  }

  @Test
  void aConfigsetSolrRefusesIsNamedWithSolrsReasonAndLeavesNothingBehind(@TempDir Path dir)
      throws Exception {
    Path conf = Files.createDirectories(dir.resolve("broken/conf"));
    for (String f : List.of("solrconfig.xml", "schema.xml", "stopwords.txt", "synonyms.txt")) {
      try (var in =
          NewUserIT.class.getResourceAsStream("/solrscale/configsets/default/conf/" + f)) {
        Files.write(conf.resolve(f), in.readAllBytes());
      }
    }
    Files.writeString(
        conf.resolve("schema.xml"),
        Files.readString(conf.resolve("schema.xml"))
            .replace(
                "<uniqueKey>id</uniqueKey>",
                "<uniqueKey>id</uniqueKey>\n  <field name=\"price\" type=\"pfloatt\"/>"));
    String reason =
        "Solr refused collection 'broken': Unknown fieldType 'pfloatt' specified on field price";

    assertOneLineError(
        Cli.run(
            "collection",
            "create",
            "--name",
            NAME,
            "--collection",
            "broken",
            "--configset",
            dir.resolve("broken").toString()),
        2,
        reason);
    assertNothingLeftOf("broken");

    // through up on the running cluster: the same, and the state does not keep asking for it
    assertOneLineError(
        Cli.run(
            "up",
            "--name",
            NAME,
            "--collection",
            "broken",
            "--configset",
            dir.resolve("broken").toString()),
        2,
        reason);
    assertNothingLeftOf("broken");
    assertThat(state().spec().collections())
        .extracting(CollectionSpec::name)
        .containsExactly("docs");
    Cli.Result again = Cli.run("up", "--name", NAME);
    assertThat(again.exitCode()).as(again.err()).isZero();
  }

  private static void assertNothingLeftOf(String collection) throws Exception {
    try (CloudHttp2SolrClient client = client()) {
      assertThat(client.getClusterState().getCollectionNames()).containsExactly("docs");
      assertThat(new ConfigSetAdminRequest.List().process(client).getConfigSets())
          .doesNotContain(collection + "-config");
    }
  }

  @Test
  void statusShowsAnyCloudByItsZooKeeperOrUrlsAndEveryNodesBaseUrl() throws Exception {
    NodeState solr1 = state().node("solr1");
    for (String[] target :
        new String[][] {{"--zk", state().zkHost()}, {"--url", solr1.baseUrl()}}) {
      Cli.Result r = Cli.run("status", target[0], target[1], "--json");
      assertThat(r.exitCode()).as(r.err()).isZero();
      JsonNode s = JSON.readTree(r.out());
      assertThat(s.get("external").asBoolean()).isTrue();
      assertThat(s.get("healthy").asBoolean()).isTrue();
      assertThat(s.get("solr_version").asText()).isEqualTo("9.10.1");
      assertThat(s.get("nodes")).hasSize(1);
      assertThat(s.get("nodes").get(0).get("id").asText()).isEqualTo(solr1.solrNodeName());
      assertThat(s.get("nodes").get(0).get("url").asText()).isEqualTo(solr1.baseUrl());
      JsonNode docs = s.get("collections").get(0);
      assertThat(docs.get("name").asText()).isEqualTo("docs");
      long sum = 0;
      for (JsonNode shard : docs.get("shards")) {
        JsonNode replica = shard.get("replicas").get(0);
        assertThat(replica.get("node").asText()).isEqualTo(solr1.solrNodeName());
        assertThat(replica.get("type").asText()).isEqualTo("NRT");
        assertThat(replica.get("state").asText()).isEqualTo("active");
        assertThat(replica.get("leader").asBoolean()).isTrue();
        sum += shard.get("docs").asLong();
      }
      assertThat(sum).isEqualTo(10);
      Cli.Result table = Cli.run("status", target[0], target[1]);
      assertThat(table.out())
          .startsWith("SolrCloud at " + target[0] + " " + target[1] + "  Solr 9.10.1")
          .contains(solr1.baseUrl())
          .containsPattern(
              "docs +shard1 +\\d+ +core_node\\d+ +"
                  + solr1.solrNodeName().replace(".", "\\.")
                  + " +NRT +active +\\*");
      assertOneLineError(
          Cli.run("status", target[0], target[1], "--collection", "nope"),
          2,
          "there is no collection 'nope' in "
              + target[0]
              + " "
              + target[1]
              + "; it has docs: create it (solrscale collection create) or give --collection one of those");
    }
    JsonNode own = JSON.readTree(Cli.run("status", "--name", NAME, "--json").out());
    assertThat(own.get("external").asBoolean()).isFalse();
    for (JsonNode n : own.get("nodes")) {
      assertThat(n.get("url").isNull()).isEqualTo(n.get("role").asText().equals("zk"));
    }
    assertThat(Cli.run("status", "--name", NAME).out()).contains(solr1.baseUrl());
    assertOneLineError(
        Cli.run("collection", "delete", "--name", NAME, "--collection", "nope"),
        2,
        "there is no collection 'nope' in cluster '" + NAME + "'; it has docs: create it");
  }

  @Test
  void logsShowsANodesLogEveryNodesLastLinesAndFollows() throws Exception {
    Cli.Result one = Cli.run("logs", "--name", NAME, "solr1", "--lines", "5");
    assertThat(one.exitCode()).as(one.err()).isZero();
    assertThat(one.out().lines().toList())
        .hasSize(5)
        .allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\d .*"));
    Cli.Result all = Cli.run("logs", "--name", NAME, "--lines", "2");
    assertThat(all.out())
        .contains("==> zk1: ")
        .contains("zookeeper.log <==")
        .contains("==> solr1: ")
        .contains("solr.log <==");
    assertThat(Cli.run("logs", "--name", NAME, "solr1", "--console").exitCode()).isZero();
    assertOneLineError(
        Cli.run("logs", "--name", NAME, "solr9"),
        2,
        "cluster '" + NAME + "' has no node 'solr9'; its nodes are zk1, solr1");

    // --follow as a user runs it: the built CLI in its own JVM, stopped by its pid as Ctrl-C would
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessBuilder pb =
        new ProcessBuilder(
                java,
                "-jar",
                Path.of("target", "solrscale.jar").toString(),
                "logs",
                "--name",
                NAME,
                "solr1",
                "--follow",
                "--lines",
                "0")
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("SOLRSCALE_HOME", SolrscaleHome.fromEnvironment().dir().toString());
    Process follow = pb.start();
    List<String> seen = new CopyOnWriteArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(follow.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = in.readLine()) != null; ) {
                  seen.add(l);
                }
              } catch (IOException e) {
                // the process was stopped
              }
            });
    reader.start();
    try (CloudHttp2SolrClient client = client()) {
      Await.until(
          "logs --follow prints a query's log line",
          Duration.ofSeconds(60),
          () -> {
            client.query("docs", new SolrQuery("followmarker"));
            return seen.stream().anyMatch(l -> l.contains("followmarker"));
          });
    } finally {
      follow.destroy(); // SIGTERM to its pid, as Ctrl-C's SIGINT would end it
      follow.waitFor();
      reader.join(5000);
    }
    assertThat(follow.isAlive()).isFalse();
  }

  @Test
  void downOfAClusterThatIsNotThereNamesThoseThereAreOrWithIfExistsIsFine() {
    assertOneLineError(
        Cli.run("down", "--name", "it-not-there"),
        2,
        "no cluster named 'it-not-there' here (there are ",
        NAME,
        "check --name (down --if-exists exits 0");
    Cli.Result ok = Cli.run("down", "--name", "it-not-there", "--if-exists");
    assertThat(ok.exitCode()).as(ok.err()).isZero();
    assertThat(ok.out()).isEqualTo("no cluster named 'it-not-there' here: nothing to stop\n");
  }

  @Test
  void chaosAndRunWorkOnAnyCloudByItsZooKeeperAndSayWhatNeedsACloudOfOurs(@TempDir Path dir)
      throws Exception {
    Cli.Result made =
        Cli.run("collection", "create", "--name", NAME, "--collection", "ext", "--shards", "1");
    assertThat(made.exitCode()).as(made.err()).isZero();
    try {
      againstAnyCloud(dir, state().zkHost());
    } finally { // the other tests count this cluster's collections
      assertThat(Cli.run("collection", "delete", "--name", NAME, "--collection", "ext").exitCode())
          .isZero();
    }
  }

  private static void againstAnyCloud(Path dir, String zk) throws Exception {
    assertOneLineError(
        Cli.run("chaos", "--zk", zk, "--collection", "ext", "--fault", "kill"),
        2,
        "--fault kill stops and starts nodes by the pids solrscale recorded");
    Cli.Result c =
        Cli.run(
            "chaos",
            "--zk",
            zk,
            "--collection",
            "ext",
            "--into",
            "ext",
            "--fault",
            "none",
            "--at",
            "1s",
            "--duration",
            "1s",
            "--after",
            "1s",
            "--write-rate",
            "40",
            "--query-rate",
            "5",
            "--out",
            dir.resolve("chaos").toString(),
            "--json");
    assertThat(c.exitCode()).as(c.out() + c.err()).isZero();
    JsonNode v = JSON.readTree(c.out());
    assertThat(v.get("verdict").asText()).isEqualTo("pass");
    assertThat(v.get("acknowledged").asLong()).isPositive();
    assertThat(v.get("lost").asLong()).isZero();
    try (CloudHttp2SolrClient client = client()) { // the checker against the collection's own count
      long held = client.query("ext", new SolrQuery("*:*").setRows(0)).getResults().getNumFound();
      assertThat(held)
          .isEqualTo(v.get("acknowledged").asLong() + v.get("unacknowledged_found").asLong());
    }

    Path scenario = dir.resolve("ext.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-external",
            "cluster: {collections: [{name: ext}]}",
            "data:",
            "  synth: {docs: 500}",
            "  derive_queries: {count: 50}",
            "steps:",
            "  - index: {}",
            "  - bench: {name: q, threads: 1, warmup: 0s, requests: 50}",
            "  - chaos: {duration: 3s, after: 1s, write_rate: 20, query_rate: 5}",
            ""));
    Cli.Result r =
        Cli.run("run", scenario.toString(), "--zk", zk, "--out", dir.resolve("run").toString());
    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    JsonNode steps =
        JSON.readTree(dir.resolve("run/results.json").toFile())
            .get("combinations")
            .get(0)
            .get("steps");
    assertThat(steps.get(0).get("summary").get("accepted").asLong()).isEqualTo(500);
    assertThat(steps.get(0).get("summary").get("verified").asBoolean()).isTrue();
    assertThat(steps.get(1).get("summary").get("count").asLong()).isEqualTo(50);
    assertThat(steps.get(2).get("summary").get("verdict").asText()).isEqualTo("pass");
    // nothing was deployed or taken down: the cluster runs on, no scenario cluster was made
    assertThat(new Cluster(SolrscaleHome.fromEnvironment(), "scn-it-external", s -> {}).state())
        .isEmpty();
    for (NodeState n : state().nodes()) {
      assertThat(ProcessHandle.of(n.pid()).map(ProcessHandle::isAlive).orElse(false))
          .as(n.id())
          .isTrue();
    }
    Files.writeString(
        scenario,
        Files.readString(scenario).replace("  - index: {}", "  - restart: {nodes: [all]}"));
    assertOneLineError(
        Cli.run("run", scenario.toString(), "--zk", zk, "--out", dir.resolve("run2").toString()),
        2,
        "restart step 'restart' needs a cluster solrscale started");
    Files.writeString(
        scenario,
        Files.readString(scenario)
            .replace("  - restart: {nodes: [all]}", "  - index: {}")
            .replace("{name: ext}", "{name: nope}"));
    assertOneLineError(
        Cli.run("run", scenario.toString(), "--zk", zk, "--out", dir.resolve("run3").toString()),
        2,
        "there is no collection 'nope' in --zk " + zk);
    assertThat(dir.resolve("run3")).doesNotExist();
  }
}
