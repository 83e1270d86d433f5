package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeCommandTest {
  private static List<String> solr(ClusterState c) {
    return NodeCommand.solr("java", "cp", "Main", c, c.node("solr1"), Path.of("/n/solr1"));
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
      List<String> z = NodeCommand.zk("java", "cp", c, c.node("zk1"), Path.of("/n/zk1"));
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
}
