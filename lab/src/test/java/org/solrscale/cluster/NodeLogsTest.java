package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.testing.Await;

class NodeLogsTest {

  @Test
  void tailGivesTheLastLinesAcrossBlocks(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("solr.log");
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 5000; i++) {
      sb.append("line ").append(i).append(" ").append("x".repeat(i % 37)).append('\n');
    }
    Files.writeString(f, sb);
    assertThat(NodeLogs.tail(f, 3))
        .extracting(l -> l.split(" ")[1])
        .containsExactly("4998", "4999", "5000");
    assertThat(NodeLogs.tail(f, 6000)).hasSize(5000).first().asString().startsWith("line 1 ");
    Files.writeString(f, "one\r\ntwo"); // no newline at the end
    assertThat(NodeLogs.tail(f, 5)).containsExactly("one", "two");
    assertThat(NodeLogs.tail(dir.resolve("missing.log"), 5)).isEmpty();
  }

  @Test
  void theCauseOfACoreThatCouldNotBeCreatedComesFromTheNodesOwnLine(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("solr.log");
    Files.writeString(
        f,
        String.join(
            "\n",
            "2026-01-01 ERROR (qtp-1) [c:broken] o.a.s.h.RequestHandlerBase org.apache.solr.common."
                + "SolrException: Error CREATEing SolrCore 'broken_shard1_replica_n1': Unable to create core "
                + "[broken_shard1_replica_n1] Caused by: Unknown fieldType 'pfloatt' specified on field price",
            "Caused by: org.apache.solr.common.SolrException: Unknown fieldType 'pfloatt' specified on field price",
            "2026-01-01 ERROR (OverseerThreadFactory-1) [c:broken] o.a.s.c.a.c.CollectionHandlingUtils Error "
                + "from shard 127.0.0.1:8983_solr: {STATUS=failed, response=Error CREATEing SolrCore "
                + "'broken_shard1_replica_n1': Caused by: Unknown fieldType 'pfloatt' specified on field price}",
            ""));
    assertThat(NodeLogs.coreCreationCause(f, "broken"))
        .contains("Unknown fieldType 'pfloatt' specified on field price");
    assertThat(NodeLogs.coreCreationCause(f, "other")).isEmpty();
  }

  @Test
  void followPrintsNewLinesAlsoAfterTheLogWasRotated(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("solr.log");
    Files.writeString(f, "old line\n");
    List<String> seen = new CopyOnWriteArrayList<>();
    Thread follower =
        new Thread(
            () -> NodeLogs.follow(Map.of("solr1", f), (node, l) -> seen.add(node + " " + l)));
    follower.start();
    try {
      // following starts at the end of the file: once a line appended now is seen, it follows
      Await.until(
          "the follower prints an appended line",
          Duration.ofSeconds(10),
          () -> {
            Files.writeString(f, "ping\n", StandardOpenOption.APPEND);
            return seen.contains("solr1 ping");
          });
      Files.writeString(f, "new line\nhalf", StandardOpenOption.APPEND);
      waitFor(() -> seen.contains("solr1 new line"));
      Files.writeString(f, " done\n", StandardOpenOption.APPEND);
      waitFor(() -> seen.contains("solr1 half done"));
      Files.move(f, dir.resolve("solr.log.1")); // what log4j does when a node starts again
      Files.writeString(f, "after restart\n");
      waitFor(() -> seen.contains("solr1 after restart"));
      assertThat(seen.stream().filter(l -> !l.equals("solr1 ping")))
          .containsExactly("solr1 new line", "solr1 half done", "solr1 after restart");
    } finally {
      follower.interrupt();
      follower.join(5000);
    }
    assertThat(follower.isAlive()).isFalse();
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    Await.until("the follower prints it", Duration.ofSeconds(10), condition::getAsBoolean);
  }
}
