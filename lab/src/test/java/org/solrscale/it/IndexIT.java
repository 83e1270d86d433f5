package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeOps;
import org.solrscale.testing.Await;

/** `index` against a real 2-node, 2-shard cluster: every good document in, every bad one listed. */
class IndexIT {
  static final String NAME = "it-index";
  static final ObjectMapper JSON = new ObjectMapper();

  /** The class's cluster, up before its first test and checked gone after its last. */
  @RegisterExtension
  static final ItCluster CLUSTER =
      new ItCluster(
          NAME,
          "--nodes",
          "2",
          "--heap",
          "384m",
          "--jvm-arg", // a 10 s ZooKeeper session: killed nodes leave and lead sooner
          "-DzkClientTimeout=10000",
          "--collection",
          "docs",
          "--shards",
          "2");

  static Cluster cluster() {
    return CLUSTER.cluster();
  }

  @Test
  void indexesGoodDocumentsRejectsExactlyThePlantedOnesAndVerifies(@TempDir Path dir)
      throws Exception {
    // 5,000 good documents as gzipped JSON Lines, plus planted bad ones in Solr XML
    Path good = dir.resolve("good.jsonl.gz");
    try (var out =
        new PrintStream(new GZIPOutputStream(Files.newOutputStream(good)), false, "UTF-8")) {
      for (int i = 0; i < 5000; i++) {
        out.println(
            "{\"id\":\"g"
                + i
                + "\",\"title_t\":\"doc "
                + i
                + "\",\"n_i\":"
                + i
                + ",\"group_s\":\"grp"
                + (i % 10)
                + "\"}");
      }
      // beyond an int: sent as a number, Solr would store it wrapped around (1215752191)
      out.println("{\"id\":\"too-big\",\"n_i\":99999999999,\"group_s\":\"grp1\"}");
    }
    Path planted = dir.resolve("planted.xml");
    byte[] plantedBytes =
        String.join(
                "\n",
                "<add>",
                "<doc><field name=\"id\">p1</field><field name=\"group_s\">grp1</field></doc>",
                "<doc><field name=\"title_t\">no id</field><field name=\"group_s\">grp1</field></doc>",
                "<doc><field name=\"id\">wrong-type</field><field name=\"n_i\">not a number</field><field name=\"group_s\">grp1</field></doc>",
                "<doc><field name=\"id\">unclosed</field><field name=\"title_t\">oops</doc>",
                "<doc><field name=\"id\">control</field><field name=\"title_t\">bell \u0007</field></doc>",
                "<doc><field name=\"id\">bad-utf8</field><field name=\"title_t\">caf\u0001X</field></doc>",
                "<doc><field name=\"id\">p2</field><field name=\"group_s\">grp2</field></doc>",
                "</add>",
                "")
            .getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < plantedBytes.length; i++) {
      if (plantedBytes[i] == 1) { // 0xC3 0x28: a lead byte without its continuation
        plantedBytes[i] = (byte) 0xC3;
        plantedBytes[i + 1] = 0x28;
      }
    }
    Files.write(planted, plantedBytes);
    Path rejects = dir.resolve("rejects.jsonl");
    Cli.Result r =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--threads",
            "3",
            "--batch",
            "250",
            "--rejects",
            rejects.toString(),
            "--json",
            "--out",
            dir.resolve("run").toString(),
            good.toString(),
            planted.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode s = JSON.readTree(r.out());
    // the --out folder is a run of one index step that the report reads
    assertThat(JSON.readTree(dir.resolve("run/index.json").toFile())).isEqualTo(s);
    Cli.Result report = Cli.run("report", dir.resolve("run").toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    assertThat(Files.readString(dir.resolve("run/report.html"))).contains("accepted 5002");
    assertThat(s.get("read").asLong()).isEqualTo(5008);
    assertThat(s.get("accepted").asLong()).isEqualTo(5002);
    assertThat(s.get("rejected").asLong()).isEqualTo(6);
    assertThat(s.get("verified").asBoolean()).isTrue();
    assertThat(s.get("searchable_after").asLong() - s.get("searchable_before").asLong())
        .isEqualTo(5002);
    // which side did the work: this process and both Solr nodes, all on this machine
    JsonNode cpu = s.get("cpu");
    assertThat(cpu.get("client_s").asDouble()).isPositive();
    assertThat(cpu.get("solr_s").size()).isEqualTo(2);
    cpu.get("solr_s").forEach(v -> assertThat(v.asDouble()).isPositive());
    assertThat(cpu.get("client_share").asDouble()).isBetween(0.0, 1.0);
    assertThat(cpu.get("cores_busy").asDouble()).isPositive();

    List<JsonNode> lines = new ArrayList<>();
    for (String l : Files.readAllLines(rejects)) {
      lines.add(JSON.readTree(l));
    }
    assertThat(lines)
        .extracting(n -> n.get("file").asText() + ":" + n.get("line").asLong())
        .containsExactlyInAnyOrder(
            planted + ":3",
            planted + ":4",
            planted + ":5",
            planted + ":6",
            planted + ":7",
            good + ":5001");
    assertThat(
            lines.stream()
                .filter(n -> n.get("line").asLong() == 5001)
                .findFirst()
                .orElseThrow()
                .get("error")
                .asText())
        .contains("HTTP 400", "99999999999");
    JsonNode refused =
        lines.stream().filter(n -> n.get("line").asLong() == 4).findFirst().orElseThrow();
    assertThat(refused.get("error").asText()).contains("HTTP 400").contains("n_i");
    assertThat(refused.get("document").get("id").get(0).asText()).isEqualTo("wrong-type");
    assertThat(
            lines.stream()
                .filter(n -> n.get("line").asLong() == 5)
                .findFirst()
                .orElseThrow()
                .get("raw")
                .asText())
        .isEqualTo("<doc><field name=\"id\">unclosed</field><field name=\"title_t\">oops</doc>");
    assertThat(
            lines.stream()
                .filter(n -> n.get("line").asLong() == 7)
                .findFirst()
                .orElseThrow()
                .get("error")
                .asText())
        .contains("invalid UTF-8", "solrscale data clean");

    // the wrong-typed document's batch neighbours all made it
    try (SolrClient client = new CloudHttp2SolrClient.Builder(cluster().solrUrls()).build()) {
      assertThat(client.query("docs", new SolrQuery("id:p1 OR id:p2")).getResults().getNumFound())
          .isEqualTo(2);
      assertThat(client.query("docs", new SolrQuery("group_s:grp1")).getResults().getNumFound())
          .isEqualTo(501);
      // JSON numbers, sent as their text, are still numbers in an int field
      assertThat(client.query("docs", new SolrQuery("n_i:[10 TO 19]")).getResults().getNumFound())
          .isEqualTo(10);
    }
  }

  @Test
  void parentsAndTheirChildrenAreIndexedAsBlocksAndCountedInTheVerification(@TempDir Path dir)
      throws Exception {
    // 300 families in Solr XML: a parent, two children, a grandchild; one parent's child has no id
    StringBuilder xml = new StringBuilder("<add>\n");
    for (int i = 0; i < 300; i++) {
      String id = "fam" + i;
      xml.append("<doc><field name=\"id\">")
          .append(id)
          .append("</field><field name=\"kind_s\">parent</field>\n")
          .append("  <doc><field name=\"id\">")
          .append(id)
          .append("-a</field><field name=\"color_s\">red</field></doc>\n")
          .append("  <doc><field name=\"id\">")
          .append(id)
          .append("-b</field><field name=\"color_s\">blue</field>\n")
          .append("    <doc><field name=\"id\">")
          .append(id)
          .append("-b1</field></doc></doc>\n</doc>\n");
    }
    xml.append(
        "<doc><field name=\"id\">orphan</field><doc><field name=\"color_s\">blue</field></doc></doc>\n</add>\n");
    Path families = dir.resolve("families.xml");
    Files.writeString(families, xml);
    Path more = dir.resolve("more.jsonl"); // and JSON's form of the same
    Files.writeString(
        more,
        "{\"id\":\"famj\",\"kind_s\":\"parent\",\"pi_s\":3.141592653589793238,"
            + "\"big_s\":123456789012345678901234567890,\"_childDocuments_\":"
            + "[{\"id\":\"famj-a\",\"color_s\":\"blue\"}]}\n");
    Path rejects = dir.resolve("rejects.jsonl");
    Cli.Result r =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--batch",
            "50",
            "--rejects",
            rejects.toString(),
            "--json",
            families.toString(),
            more.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode s = JSON.readTree(r.out());
    assertThat(s.get("read").asLong()).isEqualTo(302);
    assertThat(s.get("accepted").asLong()).isEqualTo(301);
    assertThat(s.get("accepted_children").asLong()).isEqualTo(901);
    assertThat(s.get("rejected").asLong()).isEqualTo(1);
    assertThat(s.get("verified").asBoolean()).isTrue();
    assertThat(s.get("searchable_after").asLong() - s.get("searchable_before").asLong())
        .isEqualTo(1202);
    JsonNode rejected = JSON.readTree(Files.readAllLines(rejects).get(0));
    assertThat(rejected.get("line").asLong()).isEqualTo(1502);
    assertThat(rejected.get("error").asText()).contains("a child document of orphan has no id");
    assertThat(
            rejected.get("document").get("_childDocuments_").get(0).get("color_s").get(0).asText())
        .isEqualTo("blue");

    try (SolrClient client = new CloudHttp2SolrClient.Builder(cluster().solrUrls()).build()) {
      // one block per family: every member carries its root's id, on the root's shard
      assertThat(client.query("docs", new SolrQuery("_root_:fam7")).getResults().getNumFound())
          .isEqualTo(4);
      assertThat(
              client
                  .query("docs", new SolrQuery("{!parent which=kind_s:parent}color_s:blue"))
                  .getResults()
                  .getNumFound())
          .isEqualTo(301);
      // JSON numbers a double cannot hold arrive digit for digit
      var famj = client.query("docs", new SolrQuery("id:famj")).getResults().get(0);
      assertThat(famj.getFirstValue("pi_s")).isEqualTo("3.141592653589793238");
      assertThat(famj.getFirstValue("big_s")).isEqualTo("123456789012345678901234567890");
    }
  }

  @Test
  void routePrefixPutsRelatedDocumentsOnOneShard(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("tenants.jsonl");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      sb.append("{\"id\":\"t")
          .append(i)
          .append("\",\"tenant_s\":\"tenant")
          .append(i % 2)
          .append("\"}\n");
    }
    // a prefix or an id that compositeId routing would read as its own syntax
    sb.append("{\"id\":\"b1\",\"tenant_s\":\"a!b\"}\n{\"id\":\"b2\",\"tenant_s\":\"tenant0/4\"}\n")
        .append("{\"id\":\"x!b3\",\"tenant_s\":\"tenant1\"}\n");
    Files.writeString(f, sb);
    Path rejects = dir.resolve("route-rejects.jsonl");
    Cli.Result r =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--route-prefix",
            "tenant_s",
            "--json",
            "--rejects",
            rejects.toString(),
            f.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode s = JSON.readTree(r.out());
    assertThat(s.get("accepted").asLong()).isEqualTo(200);
    assertThat(s.get("rejected").asLong()).isEqualTo(3);
    assertThat(Files.readAllLines(rejects))
        .extracting(l -> JSON.readTree(l).get("line").asLong())
        .containsExactly(201L, 202L, 203L);
    // the same run with --strict: verified, but the rejects make it exit 1 (and say why); the first
    // run's rejects are moved away first, since index refuses to overwrite them
    Files.move(rejects, dir.resolve("route-rejects.first.jsonl"));
    Cli.Result strict =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--route-prefix",
            "tenant_s",
            "--strict",
            "--rejects",
            rejects.toString(),
            f.toString());
    assertThat(strict.exitCode()).as(strict.out() + strict.err()).isEqualTo(1);
    assertThat(strict.out())
        .contains("verified: ")
        .contains("--strict: 3 rejected, so the exit code is 1");
    try (SolrClient client = new CloudHttp2SolrClient.Builder(cluster().solrUrls()).build()) {
      for (String tenant : List.of("tenant0", "tenant1")) {
        int shardsWithTenant = 0;
        for (String shard : List.of("shard1", "shard2")) {
          SolrQuery q = new SolrQuery("tenant_s:" + tenant).setRows(0);
          q.set("shards", shard);
          if (client.query("docs", q).getResults().getNumFound() > 0) {
            shardsWithTenant++;
          }
        }
        assertThat(shardsWithTenant).as(tenant).isEqualTo(1);
      }
      assertThat(client.query("docs", new SolrQuery("id:tenant0!t0")).getResults().getNumFound())
          .isEqualTo(1);
    }
  }

  @Test
  void aTruncatedInputIsReportedAndTheRunStillCommitsVerifiesAndSummarises(@TempDir Path dir)
      throws Exception {
    Path whole = dir.resolve("whole.jsonl.gz");
    try (var out =
        new PrintStream(new GZIPOutputStream(Files.newOutputStream(whole)), false, "UTF-8")) {
      for (int i = 0; i < 20_000; i++) {
        out.println("{\"id\":\"cut" + i + "\",\"title_t\":\"a document that was cut " + i + "\"}");
      }
    }
    byte[] b = Files.readAllBytes(whole);
    Path cut = dir.resolve("cut.jsonl.gz");
    Files.write(cut, Arrays.copyOf(b, b.length / 2));
    Path after = dir.resolve("after.jsonl");
    Files.writeString(after, "{\"id\":\"after1\"}\n{\"id\":\"after2\"}\n");
    Path rejects = dir.resolve("cut-rejects.jsonl");
    Cli.Result r =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--json",
            "--rejects",
            rejects.toString(),
            cut.toString(),
            after.toString());
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    JsonNode s = JSON.readTree(r.out());
    long accepted = s.get("accepted").asLong();
    assertThat(accepted).isBetween(1_000L, 19_999L);
    assertThat(s.get("rejected").asLong()).isEqualTo(1);
    assertThat(s.get("verified").asBoolean()).isTrue();
    assertThat(s.get("unread_inputs"))
        .singleElement()
        .satisfies(
            u ->
                assertThat(u.asText())
                    .startsWith(
                        cut
                            + ": cannot read it after item "
                            + (accepted - 2)
                            + " (line "
                            + (accepted - 2)
                            + "): ")
                    .endsWith("; what follows was not indexed"));
    JsonNode rejected = JSON.readTree(Files.readAllLines(rejects).get(0));
    assertThat(rejected.get("file").asText()).isEqualTo(cut.toString());
    try (SolrClient client = new CloudHttp2SolrClient.Builder(cluster().solrUrls()).build()) {
      assertThat(
              client
                  .query("docs", new SolrQuery("id:after1 OR id:after2"))
                  .getResults()
                  .getNumFound())
          .isEqualTo(2);
      assertThat(client.query("docs", new SolrQuery("id:cut*")).getResults().getNumFound())
          .isEqualTo(accepted - 2);
    }
  }

  @Test
  void reindexingIdsTheCollectionHoldsIsVerifiedByCountingWhatTheyReplaced(@TempDir Path dir)
      throws Exception {
    Path first = dir.resolve("first.jsonl");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      sb.append("{\"id\":\"re").append(i).append("\",\"v_i\":1}\n");
    }
    sb.append(
        "{\"id\":\"refam\",\"_childDocuments_\":[{\"id\":\"refam-a\"},{\"id\":\"refam-b\"}]}\n");
    Files.writeString(first, sb);
    Cli.Result r1 =
        Cli.run("index", "--name", NAME, "--collection", "docs", "--json", first.toString());
    assertThat(r1.exitCode()).as(r1.out() + r1.err()).isZero();

    // all 300 again (re5 twice), 50 new ones, and the family with one child instead of two
    Path second = dir.resolve("second.jsonl");
    sb.setLength(0);
    for (int i = 0; i < 350; i++) {
      sb.append("{\"id\":\"re").append(i).append("\",\"v_i\":2}\n");
      if (i == 5) {
        sb.append("{\"id\":\"re5\",\"v_i\":3}\n");
      }
    }
    sb.append("{\"id\":\"refam\",\"_childDocuments_\":[{\"id\":\"refam-c\"}]}\n");
    Files.writeString(second, sb);
    Cli.Result r2 =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "docs",
            "--json",
            "--threads",
            "3",
            "--batch",
            "40",
            second.toString());
    assertThat(r2.exitCode()).as(r2.out() + r2.err()).isZero();
    JsonNode s = JSON.readTree(r2.out());
    assertThat(s.get("accepted").asLong()).isEqualTo(352);
    assertThat(s.get("accepted_children").asLong()).isEqualTo(1);
    assertThat(s.get("replaced").asLong())
        .isEqualTo(300 + 1 + 3); // the 300, re5's second, the old family
    assertThat(s.get("verified").asBoolean()).isTrue();
    assertThat(s.get("searchable_after").asLong() - s.get("searchable_before").asLong())
        .isEqualTo(50 - 1);

    Cli.Result text = Cli.run("index", "--name", NAME, "--collection", "docs", first.toString());
    assertThat(text.exitCode()).as(text.out() + text.err()).isZero();
    assertThat(text.out())
        .contains("before + 301 + 2 child documents accepted - 302 they replaced (same id))");
  }

  @Test
  void withoutRoomToRememberFamiliesTheirSizesAreAskedOfTheUpdateLog(@TempDir Path dir)
      throws Exception {
    // a family of three, then with twelve children, then without any, two batches apart each time
    StringBuilder sb =
        new StringBuilder(
            "{\"id\":\"fb\",\"_childDocuments_\":[{\"id\":\"fb-a\"},{\"id\":\"fb-b\"}]}\n");
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 10; i++) {
        sb.append("{\"id\":\"fb-w").append(round).append('-').append(i).append("\"}\n");
      }
      sb.append("{\"id\":\"fb\"");
      if (round == 0) {
        sb.append(",\"_childDocuments_\":[");
        for (int c = 0; c < 12; c++) {
          sb.append(c == 0 ? "" : ",").append("{\"id\":\"fb-").append(c).append("\"}");
        }
        sb.append("]");
      }
      sb.append("}\n");
    }
    Path f = dir.resolve("fb.jsonl");
    Files.writeString(f, sb);
    System.setProperty("solrscale.index.families", "0");
    Cli.Result r;
    try {
      r =
          Cli.run(
              "index",
              "--name",
              NAME,
              "--collection",
              "docs",
              "--json",
              "--batch",
              "5",
              f.toString());
    } finally {
      System.clearProperty("solrscale.index.families");
    }
    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    JsonNode s = JSON.readTree(r.out());
    assertThat(s.get("accepted").asLong()).isEqualTo(23);
    assertThat(s.get("replaced").asLong()).isEqualTo(3 + 13);
    assertThat(s.get("verified").asBoolean()).isTrue();
  }

  @Test
  void idsRepeatedInTheInputOfALoadIntoAnEmptyCollectionAreCountedAsReplacingAndItVerifies(
      @TempDir Path dir) throws Exception {
    Cli.Result create =
        Cli.run("collection", "create", "--name", NAME, "--collection", "dups", "--shards", "2");
    assertThat(create.exitCode()).as(create.err()).isZero();
    // 2,000 ids, 500 of them twice and 100 three times, repeats near (same batch, the next one,
    // sent at the same time) and far (hundreds of batches later), over two files
    Path a = dir.resolve("a.jsonl");
    Path b = dir.resolve("b.xml");
    // first a family of three with six new ids (batch 0, no look-up) that comes back far later
    // with twelve children, then without any, before any commit: each copy replaces the whole
    // family before it
    Path c = dir.resolve("c.jsonl");
    StringBuilder sc =
        new StringBuilder(
            "{\"id\":\"fam2\",\"_childDocuments_\":[{\"id\":\"fam2-a\"},{\"id\":\"fam2-b\"}]}\n");
    for (int i = 0; i < 6; i++) {
      sc.append("{\"id\":\"c").append(i).append("\",\"v_i\":1}\n");
    }
    Files.writeString(c, sc);
    StringBuilder sa = new StringBuilder();
    StringBuilder sb = new StringBuilder("<add>\n");
    int lines = 0;
    for (int i = 0; i < 2000; i++) {
      sa.append("{\"id\":\"u").append(i).append("\",\"v_i\":1}\n");
      lines++;
      if (i % 4 == 0) { // a quarter of them again at once
        sa.append("{\"id\":\"u").append(i).append("\",\"v_i\":2}\n");
        lines++;
      }
      if (i % 20 == 0) { // and a twentieth a third time, in the other file
        sb.append("<doc><field name=\"id\">u").append(i).append("</field></doc>\n");
        lines++;
      }
    }
    sb.append("<doc><field name=\"id\">fam2</field>");
    for (int k = 0; k < 12; k++) {
      sb.append("<doc><field name=\"id\">fam2-").append(k).append("</field></doc>");
    }
    sb.append("</doc>\n");
    for (int w = 0; w < 14; w++) { // two batches on
      sb.append("<doc><field name=\"id\">w").append(w).append("</field></doc>\n");
    }
    sb.append("<doc><field name=\"id\">fam2</field></doc>\n");
    sb.append("</add>\n");
    // a family, then its id again without children in the same batch (documents 2508-2509 of
    // 7-document batches, the 359th): it replaces the whole family
    sa.append("{\"id\":\"fam\",\"_childDocuments_\":[{\"id\":\"fam-a\"},{\"id\":\"fam-b\"}]}\n");
    sa.append("{\"id\":\"fam\",\"v_i\":1}\n");
    // in that batch too: a copy Solr refuses (no number), then one it accepts, which replaces
    // nothing
    sa.append("{\"id\":\"r1\",\"v_i\":\"not a number\"}\n");
    sa.append("{\"id\":\"r1\",\"v_i\":5}\n");
    Files.writeString(a, sa);
    Files.writeString(b, sb);
    assertThat(lines).isEqualTo(2000 + 500 + 100); // with c.jsonl and the lines below, 2,627
    Path rejects = dir.resolve("rejects.jsonl");
    Cli.Result r =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            "dups",
            "--json",
            "--threads",
            "3",
            "--batch",
            "7",
            "--rejects",
            rejects.toString(),
            c.toString(),
            a.toString(),
            b.toString());
    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    List<String> rejected = Files.readAllLines(rejects);
    assertThat(rejected).hasSize(1);
    assertThat(JSON.readTree(rejected.get(0)).get("line").asLong()).isEqualTo(2503);
    JsonNode s = JSON.readTree(r.out());
    assertThat(s.get("read").asLong()).isEqualTo(2627);
    assertThat(s.get("rejected").asLong()).isEqualTo(1);
    assertThat(s.get("accepted").asLong()).isEqualTo(2602 + 3 + 1 + 14 + 6);
    assertThat(s.get("accepted_children").asLong()).isEqualTo(2 + 2 + 12);
    assertThat(s.get("replaced").asLong()).isEqualTo(600 + 3 + 3 + 13);
    assertThat(s.get("searchable_before").asLong()).isZero();
    assertThat(s.get("searchable_after").asLong()).isEqualTo(2001 + 1 + 1 + 14 + 6);
    assertThat(s.get("verified").asBoolean()).isTrue();
    // batches are sent in input order where they share an id: the input's last version stays
    try (SolrClient client = new CloudHttp2SolrClient.Builder(cluster().solrUrls()).build()) {
      assertThat(client.query("dups", new SolrQuery("v_i:1")).getResults().getNumFound())
          .isEqualTo(1507);
      assertThat(client.query("dups", new SolrQuery("v_i:2")).getResults().getNumFound())
          .isEqualTo(400);
      assertThat(client.query("dups", new SolrQuery("v_i:5")).getResults().getNumFound())
          .isEqualTo(1);
      assertThat(
              client
                  .query("dups", new SolrQuery("-v_i:* -id:w* -id:fam2"))
                  .getResults()
                  .getNumFound())
          .isEqualTo(100);
      assertThat(client.query("dups", new SolrQuery("_root_:fam2")).getResults().getNumFound())
          .isEqualTo(1);

      // documents sent and not committed before a run are counted as there before it, not as its
      client.add("dups", List.of(doc("pending1"), doc("u3")));
      Path more = dir.resolve("more.jsonl");
      Files.writeString(more, "{\"id\":\"u3\",\"v_i\":7}\n{\"id\":\"new1\"}\n");
      Cli.Result again =
          Cli.run("index", "--name", NAME, "--collection", "dups", "--json", more.toString());
      assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
      JsonNode t = JSON.readTree(again.out());
      assertThat(t.get("searchable_before").asLong()).isEqualTo(2023 + 1);
      assertThat(t.get("replaced").asLong()).isEqualTo(1);
      assertThat(t.get("searchable_after").asLong()).isEqualTo(2023 + 2);
      assertThat(t.get("verified").asBoolean()).isTrue();
    }
    Cli.Result drop = Cli.run("collection", "delete", "--name", NAME, "--collection", "dups");
    assertThat(drop.exitCode()).as(drop.err()).isZero();
  }

  private static SolrInputDocument doc(String id) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", id);
    return d;
  }

  @Test
  void aWorkerThatFailsStopsTheRunWithItsReasonInsteadOfLeavingTheReaderWaiting(@TempDir Path dir)
      throws Exception {
    // one worker; its first document is refused by Solr (n_i is no number) and is too large for
    // the rejects writer's buffer, so writing it to a full device fails in the worker
    Path f = dir.resolve("many.jsonl");
    StringBuilder sb =
        new StringBuilder("{\"id\":\"wf0\",\"n_i\":\"many\",\"t_t\":\"")
            .append("x".repeat(20_000))
            .append("\"}\n");
    for (int i = 1; i <= 50; i++) {
      sb.append("{\"id\":\"wf").append(i).append("\"}\n");
    }
    Files.writeString(f, sb);
    Cli.Result r =
        Assertions.assertTimeoutPreemptively(
            Duration.ofSeconds(120),
            () ->
                Cli.run(
                    "index",
                    "--name",
                    NAME,
                    "--collection",
                    "docs",
                    "--threads",
                    "1",
                    "--batch",
                    "1",
                    "--rejects",
                    "/dev/full",
                    f.toString()));
    assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(3);
    assertThat(r.err().strip())
        .startsWith("solrscale: cannot write the rejects file /dev/full: ")
        .doesNotContain("\n");
  }

  @Test
  void aShardLeaderKilledDuringTheLoadIsRetriedUntilItIsBackAndNothingIsLost(@TempDir Path dir)
      throws Exception {
    // small batches from one thread: a load long enough to kill a node in the middle of it
    Path f = dir.resolve("k.jsonl");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 40_000; i++) {
      sb.append("{\"id\":\"k").append(i).append("\",\"kseq_i\":").append(i).append("}\n");
    }
    Files.writeString(f, sb);
    Path rejects = dir.resolve("rejects.jsonl");
    // watched live: the documents accepted so far, while the load waits for the node
    Path out = dir.resolve("run");
    int livePort = LiveViews.freePort();
    String metrics = "http://127.0.0.1:" + livePort + "/metrics";
    var load = Executors.newSingleThreadExecutor();
    try (SolrClient client = new CloudHttp2SolrClient.Builder(cluster().solrUrls()).build()) {
      Future<Cli.Result> run =
          load.submit(
              () ->
                  Cli.run(
                      "index",
                      "--name",
                      NAME,
                      "--collection",
                      "docs",
                      "--json",
                      "--threads",
                      "1",
                      "--batch",
                      "50",
                      "--retries",
                      "30",
                      "--rejects",
                      rejects.toString(),
                      "--out",
                      out.toString(),
                      "--live",
                      "--live-port",
                      Integer.toString(livePort),
                      f.toString()));
      // once the load is under way (an early document is there, uncommitted), solr2 dies: the
      // only replica, so the leader, of one shard
      Await.until(
          "k200 arrives before the load ends",
          Duration.ofSeconds(120),
          () -> {
            assertThat(run.isDone()).as("the load ended before the kill").isFalse();
            return client.getById("docs", "k200") != null;
          });
      cluster().nodes().node(NodeOps.NodeOp.KILL, "solr2", Duration.ofSeconds(30));
      assertThat(run.isDone()).as("the load ended before the kill").isFalse();
      // the load now waits for solr2: what it accepted so far is served meanwhile
      Await.until(
          "documents accepted so far, served while the load runs",
          Duration.ofSeconds(20),
          () -> {
            assertThat(run.isDone()).as("the load ended while solr2 was down").isFalse();
            return LiveViews.value(LiveViews.get(metrics), "solrscale_index_documents_total") > 0;
          });
      // no pause: solr2 is down for as long as it takes to start again, many batches' time
      cluster().nodes().node(NodeOps.NodeOp.START, "solr2", Duration.ofSeconds(180));
      Cli.Result r = run.get(300, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
      JsonNode s = JSON.readTree(r.out());
      assertThat(s.get("retries").asLong()).isPositive();
      assertThat(s.get("accepted").asLong()).isEqualTo(40_000);
      assertThat(s.get("rejected").asLong()).isZero();
      assertThat(s.get("verified").asBoolean()).isTrue();
      assertThat(s.get("searchable_after").asLong() - s.get("searchable_before").asLong())
          .isEqualTo(40_000);
      assertThat(client.query("docs", new SolrQuery("id:k*")).getResults().getNumFound())
          .isEqualTo(40_000);
      // watched afterwards: every document accepted, as index.json says
      assertThat(LiveViews.value(LiveViews.metrics(out), "solrscale_index_documents_total"))
          .isEqualTo(40_000.0);
      assertThat(JSON.readTree(out.resolve("progress.json").toFile()).get("outcome").asText())
          .isEqualTo("done");

      // a node down when a run starts: its count waits for the node as batches do (the commit
      // before it does not: Solr commits the shards it can reach)
      cluster().collections().waitUntilHealthy(Duration.ofSeconds(180));
      Path small = dir.resolve("late.jsonl");
      sb.setLength(0);
      for (int i = 0; i < 100; i++) {
        sb.append("{\"id\":\"late").append(i).append("\"}\n");
      }
      Files.writeString(small, sb);
      cluster().nodes().node(NodeOps.NodeOp.KILL, "solr2", Duration.ofSeconds(30));
      Future<Cli.Result> late =
          load.submit(
              () ->
                  Cli.run(
                      "index",
                      "--name",
                      NAME,
                      "--collection",
                      "docs",
                      "--json",
                      "--retries",
                      "30",
                      small.toString()));
      Thread.sleep(3000); // the window of a negative check: the run must NOT end meanwhile
      assertThat(late.isDone()).as("it did not wait for the node").isFalse();
      cluster().nodes().node(NodeOps.NodeOp.START, "solr2", Duration.ofSeconds(180));
      Cli.Result r2 = late.get(300, TimeUnit.SECONDS);
      assertThat(r2.exitCode()).as(r2.out() + r2.err()).isZero();
      JsonNode s2 = JSON.readTree(r2.out());
      assertThat(s2.get("retries").asLong()).isPositive();
      assertThat(s2.get("accepted").asLong()).isEqualTo(100);
      assertThat(s2.get("verified").asBoolean()).isTrue();
    } finally {
      load.shutdownNow();
      cluster().collections().waitUntilHealthy(Duration.ofSeconds(180));
    }
  }

  @Test
  void anUnknownCollectionFailsWithOneLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("one.jsonl");
    Files.writeString(f, "{\"id\":\"x\"}\n");
    Cli.Result r = Cli.run("index", "--name", NAME, "--collection", "nope", f.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo(
            "solrscale: there is no collection 'nope' in cluster '"
                + NAME
                + "'; it has docs: create it (solrscale collection create) or give --collection one of those");
  }

  @Test
  void aClusterNamedByItsZooKeeperIsIndexedAndAnUnreachableOneFailsFirst(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("zk.jsonl");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      sb.append("{\"id\":\"zk").append(i).append("\"}\n");
    }
    Files.writeString(f, sb);
    String zk = cluster().state().orElseThrow().zkHost();
    Cli.Result r = Cli.run("index", "--zk", zk, "--collection", "docs", "--json", f.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode s = JSON.readTree(r.out());
    assertThat(s.get("accepted").asLong()).isEqualTo(300);
    assertThat(s.get("verified").asBoolean()).isTrue();

    String hosts = zk.replaceAll("/.*", "");
    Cli.Result chroot =
        Cli.run("index", "--zk", hosts + "/nochroot", "--collection", "docs", f.toString());
    assertThat(chroot.exitCode()).isEqualTo(3);
    assertThat(chroot.err().strip())
        .endsWith(
            "ZooKeeper at "
                + hosts
                + " answers but has no /nochroot "
                + "(the chroot in --zk): it holds a SolrCloud at its root, so give --zk "
                + hosts);
    Cli.Result notSolr =
        Cli.run("index", "--zk", hosts + "/zookeeper", "--collection", "docs", f.toString());
    assertThat(notSolr.err())
        .contains("answers but no SolrCloud uses /zookeeper (no live_nodes there");

    Cli.Result bad = Cli.run("index", "--zk", "127.0.0.1:1", "--collection", "docs", f.toString());
    assertThat(bad.exitCode()).isEqualTo(3);
    assertThat(bad.err())
        .contains(
            "cannot reach SolrCloud at --zk 127.0.0.1:1: no ZooKeeper server accepts a connection")
        .doesNotContain("\tat ");
    assertThat(bad.err().strip().lines()).hasSize(1);
  }
}
