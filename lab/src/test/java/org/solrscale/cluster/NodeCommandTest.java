package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeCommandTest {
  private static List<String> solr(ClusterState c) {
    return NodeCommand.solr(
        "java", "cp", List.of(), "Main", c, c.node("solr1"), Path.of("/n/solr1"));
  }

  @Test
  void thisMachinesNodeOptionsComeLastBeforeTheMainClassOfEveryNode() {
    ClusterState c = NodeFilesTest.threeZk();
    String old = System.getProperty("solrscale.node.java.opts");
    System.setProperty("solrscale.node.java.opts", "  -XX:TieredStopAtLevel=1   -Dx=y ");
    try {
      List<String> s = solr(c);
      assertThat(s.subList(s.size() - 6, s.size()))
          .containsExactly(
              "-XX:+AlwaysPreTouch", "-XX:TieredStopAtLevel=1", "-Dx=y", "-cp", "cp", "Main");
      List<String> z = NodeCommand.zk("java", "cp", List.of(), c, c.node("zk1"), Path.of("/n/zk1"));
      assertThat(z.subList(z.size() - 6, z.size() - 1))
          .containsExactly("-XX:TieredStopAtLevel=1", "-Dx=y", "-cp", "cp", NodeCommand.ZK_MAIN);
      System.setProperty("solrscale.node.java.opts", " ");
      assertThat(solr(c))
          .doesNotContain("-XX:TieredStopAtLevel=1", "")
          .endsWith("-cp", "cp", "Main");
    } finally {
      if (old == null) {
        System.clearProperty("solrscale.node.java.opts");
      } else {
        System.setProperty("solrscale.node.java.opts", old);
      }
    }
  }

  @Test
  void theClassArchiveOptionComesBeforeTheUsersOwnSoThatTheirsWin() {
    ClusterState c = NodeFilesTest.threeZk();
    List<String> s =
        NodeCommand.solr(
            "java",
            "cp",
            List.of("-XX:SharedArchiveFile=/a/solr.jsa"),
            "Main",
            c,
            c.node("solr1"),
            Path.of("/n/solr1"));
    assertThat(s).contains("-XX:SharedArchiveFile=/a/solr.jsa");
    assertThat(s.indexOf("-XX:SharedArchiveFile=/a/solr.jsa"))
        .isLessThan(s.indexOf("-XX:+AlwaysPreTouch"));
    List<String> z =
        NodeCommand.zk(
            "java",
            "cp",
            List.of("-XX:SharedArchiveFile=/a/zk.jsa"),
            c,
            c.node("zk1"),
            Path.of("/z"));
    assertThat(z).contains("-XX:SharedArchiveFile=/a/zk.jsa");
  }
}
