package org.solrscale.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionExpiriesTest {
  private static final List<String> ZK_LOG =
      List.of(
          "2026-11-29 18:39:01.000 INFO  (SessionTracker) [] o.a.z.s.ZooKeeperServer Expiring"
              + " session 0x10004a2f3500000, timeout of 4000ms exceeded",
          "2026-11-29 18:39:05.500 INFO  (SessionTracker) [] o.a.z.s.ZooKeeperServer Expiring"
              + " session 0x30004a3560b0001, timeout of 4000ms exceeded",
          "2026-11-29 18:40:00.001 INFO  (SessionTracker) [] o.a.z.s.ZooKeeperServer Expiring"
              + " session 0x30004a3560b0002, timeout of 4000ms exceeded");

  @Test
  void countsTheLinesWithinTheWindowBothEndsIncluded() {
    Instant from = Instant.parse("2026-11-29T18:39:01Z");
    Instant to = Instant.parse("2026-11-29T18:40:00Z");
    assertThat(SessionExpiries.count(ZK_LOG, SessionExpiries.ZK_LINE, from, to)).isEqualTo(2);
    assertThat(
            SessionExpiries.count(
                ZK_LOG, SessionExpiries.ZK_LINE, from, Instant.parse("2026-11-29T18:40:00.001Z")))
        .isEqualTo(3);
    assertThat(
            SessionExpiries.count(
                ZK_LOG, SessionExpiries.ZK_LINE, Instant.parse("2026-11-29T18:39:01.001Z"), to))
        .isEqualTo(1);
  }

  @Test
  void aStackTraceLineOrAnotherMessageDoesNotCount() {
    List<String> solr =
        List.of(
            "2026-11-29 18:39:11.248 WARN  (main-SendThread(10.201.0.4:2181)) [] o.a.z.ClientCnxn"
                + " Unable to reconnect to ZooKeeper service, session 0x30004a3560b0001 has expired",
            "org.apache.zookeeper.ClientCnxn$SessionExpiredException: Our previous ZooKeeper"
                + " session was expired (a continuation line, no time of its own)",
            "2026-11-29 18:39:11.250 WARN  (zkConnectionManagerCallback-14-thread-1) []"
                + " o.a.s.c.c.ConnectionManager Our previous ZooKeeper session was expired."
                + " Attempting to reconnect to recover relationship with ZooKeeper...",
            "2026-11-29 18:39:1 Our previous ZooKeeper session was expired, a cut-off stamp");
    assertThat(
            SessionExpiries.count(
                solr,
                SessionExpiries.SOLR_LINE,
                Instant.parse("2026-11-29T00:00:00Z"),
                Instant.parse("2026-11-30T00:00:00Z")))
        .isEqualTo(1);
  }
}
