package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.NodeGroup;
import org.solrscale.spec.ZkSpec;

class NodeFilesTest {
  static ClusterState threeZk() {
    ClusterSpec spec =
        new ClusterSpec(
            "lab",
            null,
            "1g",
            List.of("-XX:+AlwaysPreTouch"),
            null,
            null,
            List.of(new NodeGroup(1, Map.of("dc", "east"), null)),
            new ZkSpec(3, 3000, 7, 4, null),
            null,
            null,
            null,
            null,
            false,
            null);
    return new ClusterState(
        "lab",
        spec,
        "/jdk",
        List.of(
            new NodeState("zk1", NodeRole.ZK, "127.0.0.1", 2181, 2888, 3888, 0, "256m", Map.of()),
            new NodeState("zk2", NodeRole.ZK, "127.0.0.1", 2182, 2889, 3889, 0, "256m", Map.of()),
            new NodeState("zk3", NodeRole.ZK, "127.0.0.1", 2183, 2890, 3890, 0, "256m", Map.of()),
            new NodeState(
                "solr1", NodeRole.SOLR, "127.0.0.1", 8983, 0, 0, 0, "1g", Map.of("dc", "east"))));
  }

  @Test
  void zooCfgHasTheEnsembleTimingAndSafeDefaults(@TempDir Path dir) throws Exception {
    ClusterState c = threeZk();
    NodeFiles.writeZk(dir, c.node("zk2"), c);
    String cfg = Files.readString(dir.resolve("zoo.cfg"));
    assertThat(cfg)
        .contains(
            "tickTime=3000\n",
            "initLimit=7\n",
            "syncLimit=4\n",
            "clientPort=2182\n",
            "admin.enableServer=false\n",
            "4lw.commands.whitelist=mntr,conf,ruok,srvr,stat,isro\n",
            "server.1=127.0.0.1:2888:3888\n",
            "server.2=127.0.0.1:2889:3889\n",
            "server.3=127.0.0.1:2890:3890\n");
    assertThat(Files.readString(dir.resolve("data/myid")).trim()).isEqualTo("2");
    assertThat(c.zkHost()).isEqualTo("127.0.0.1:2181,127.0.0.1:2182,127.0.0.1:2183");
  }

  @Test
  void solrCommandCarriesHeapGcLogLabelsMarkerAndUserArgs(@TempDir Path dir) {
    ClusterState c = threeZk();
    SolrRuntime rt = new SolrRuntime("9.10.1", dir, List.of(dir.resolve("a.jar")), "10.0.26", 11);
    List<String> cmd =
        NodeCommand.solr(
            "/jdk/bin/java",
            rt.classpathString() + ":" + dir.resolve("node.jar"),
            List.of(),
            rt.launcher().mainClass(),
            c,
            c.node("solr1"),
            dir.resolve("solr1"));
    assertThat(cmd.get(0)).isEqualTo("/jdk/bin/java");
    assertThat(cmd)
        .contains(
            "-Xms1g",
            "-Xmx1g",
            "-XX:+UseG1GC",
            "-Dsolrscale.node=lab/solr1",
            "-Djetty.port=8983",
            "-Dhost=127.0.0.1",
            "-Ddc=east",
            "-XX:+AlwaysPreTouch",
            "-DzkHost=127.0.0.1:2181,127.0.0.1:2182,127.0.0.1:2183",
            "org.solrscale.node.SolrNode");
    assertThat(cmd)
        .anyMatch(a -> a.startsWith("-Xlog:gc*:file=" + dir.resolve("solr1/logs/solr_gc.log")));
    assertThat(cmd.get(cmd.size() - 2)).endsWith("a.jar:" + dir.resolve("node.jar"));
  }

  @Test
  void solrXmlKeepsProductionDefaults(@TempDir Path dir) throws Exception {
    NodeFiles.writeSolr(dir, 9);
    String xml = Files.readString(dir.resolve("home/solr.xml"));
    assertThat(xml)
        .contains(
            "${leaderVoteWait:180000}",
            "<metrics enabled=\"${metricsEnabled:true}\"/>",
            "${zkClientTimeout:30000}",
            "<str name=\"hostContext\">");
  }

  @Test
  void solr10GetsNoHostContext() {
    // Solr 10.0.0 stops at "Unknown configuration parameter in <solrcloud> section of solr.xml:
    // hostContext" (seen starting it here); everything else stays
    String xml = NodeFiles.solrXml(10);
    assertThat(xml).doesNotContain("hostContext").contains("${leaderVoteWait:180000}");
    assertThat(xml.lines().count()).isEqualTo(NodeFiles.solrXml(9).lines().count() - 1);
  }
}
