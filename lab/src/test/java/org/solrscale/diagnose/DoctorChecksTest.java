package org.solrscale.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.results.DoctorReport;
import org.solrscale.results.DoctorReport.Finding;

/**
 * Each check on planted facts: the trap is found at its level with its fix; sane facts are quiet.
 */
class DoctorChecksTest {
  static final long GB = 1L << 30;

  static DoctorFacts.Zk zk(String host, long tick, long sync, long init, double rtt) {
    return new DoctorFacts.Zk(
        host + ":2181",
        host,
        Map.of(
            "tickTime", "" + tick,
            "syncLimit", "" + sync,
            "initLimit", "" + init,
            "minSessionTimeout", "" + 2 * tick,
            "maxSessionTimeout", "" + 20 * tick),
        Map.of(),
        List.of(rtt, rtt));
  }

  static DoctorFacts.Node node(String name, String host, long heap, long index) {
    return new DoctorFacts.Node(
        name,
        host,
        heap,
        64 * GB,
        32 * GB,
        0L,
        0L,
        1_048_576L,
        1_000_000L,
        index,
        null,
        Map.of(),
        8,
        0.5,
        100.0,
        "gc.log");
  }

  static DoctorFacts.Collection collection(String name, DoctorFacts.Shard... shards) {
    return new DoctorFacts.Collection(
        name, 15000L, false, -1L, 65536L, Map.of("filterCache", "0"), 0.0, List.of(shards));
  }

  static DoctorFacts.Shard shard(String name, String... nodes) {
    List<DoctorFacts.Replica> r = new java.util.ArrayList<>();
    for (int i = 0; i < nodes.length; i++) {
      r.add(new DoctorFacts.Replica(nodes[i], i == 0, "NRT"));
    }
    return new DoctorFacts.Shard(name, r);
  }

  static DoctorFacts healthy() {
    return new DoctorFacts(
        "9.10.1",
        List.of(
            zk("10.0.0.1", 2000, 5, 10, 0.5),
            zk("10.0.0.2", 2000, 5, 10, 0.5),
            zk("10.0.0.3", 2000, 5, 10, 0.5)),
        List.of(
            node("10.0.1.1:8983_solr", "10.0.1.1", 8 * GB, 10 * GB),
            node("10.0.1.2:8983_solr", "10.0.1.2", 8 * GB, 10 * GB)),
        List.of(
            collection(
                "docs",
                shard("shard1", "10.0.1.1:8983_solr"),
                shard("shard2", "10.0.1.2:8983_solr"))),
        Map.of());
  }

  static List<String> checks(DoctorFacts f) {
    return DoctorChecks.of(f).stream().map(Finding::check).toList();
  }

  static Finding find(DoctorFacts f, String check) {
    return DoctorChecks.of(f).stream()
        .filter(x -> x.check().equals(check))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aHealthyClusterHasNoFinding() {
    assertThat(DoctorChecks.of(healthy())).isEmpty();
  }

  @Test
  void zookeeperTraps() {
    DoctorFacts h = healthy();
    DoctorFacts even =
        new DoctorFacts(
            h.solrVersion(), h.zookeeper().subList(0, 2), h.nodes(), h.collections(), Map.of());
    assertThat(find(even, "zk-even-ensemble").level()).isEqualTo(DoctorReport.WARNING);
    // a WAN link: 250 ms round trips against syncLimit 2 x 2000 ms
    DoctorFacts wan =
        new DoctorFacts(
            h.solrVersion(),
            List.of(zk("10.0.0.1", 2000, 2, 10, 250)),
            h.nodes(),
            h.collections(),
            Map.of());
    Finding sync = find(wan, "zk-syncLimit");
    assertThat(sync.level()).isEqualTo(DoctorReport.WARNING);
    assertThat(sync.evidence()).contains("4,000 ms").contains("250.0 ms");
    assertThat(sync.fix()).contains("at least 10000 ms");
    DoctorFacts hopeless =
        new DoctorFacts(
            h.solrVersion(),
            List.of(zk("10.0.0.1", 100, 1, 1, 80)),
            h.nodes(),
            h.collections(),
            Map.of());
    assertThat(find(hopeless, "zk-syncLimit").level()).isEqualTo(DoctorReport.ERROR);
    // tickTime 1000: sessions of at most 20 s, and Solr asks for 30 s
    DoctorFacts shortTick =
        new DoctorFacts(
            h.solrVersion(),
            List.of(zk("10.0.0.1", 1000, 10, 20, 0.5)),
            h.nodes(),
            h.collections(),
            Map.of());
    Finding session = find(shortTick, "zk-session-timeout");
    assertThat(session.evidence())
        .contains("30,000 ms")
        .contains("2,000..20,000 ms")
        .contains("gets 20,000 ms");
    // ZooKeeper on a Solr host under load
    DoctorFacts.Node busy =
        new DoctorFacts.Node(
            "10.0.0.1:8983_solr",
            "10.0.0.1",
            8 * GB,
            64 * GB,
            32 * GB,
            0L,
            0L,
            1_048_576L,
            null,
            10 * GB,
            null,
            Map.of(),
            8,
            12.0,
            null,
            null);
    DoctorFacts shared =
        new DoctorFacts(
            h.solrVersion(),
            List.of(zk("10.0.0.1", 2000, 5, 10, 0.5)),
            List.of(busy),
            List.of(),
            Map.of());
    assertThat(find(shared, "zk-shares-host").level()).isEqualTo(DoctorReport.WARNING);
    assertThat(find(shared, "zk-single").level()).isEqualTo(DoctorReport.INFO);
  }

  @Test
  void nodeTraps() {
    DoctorFacts h = healthy();
    DoctorFacts.Node heavy =
        new DoctorFacts.Node(
            "a:8983_solr",
            "a",
            60 * GB,
            64 * GB,
            1 * GB,
            4 * GB,
            1 * GB,
            1024L,
            4096L,
            20 * GB,
            null,
            Map.of(),
            8,
            1.0,
            2500.0,
            "solr_gc.log");
    DoctorFacts f = new DoctorFacts("9.10.1", h.zookeeper(), List.of(heavy), List.of(), Map.of());
    assertThat(find(f, "node-heap-memory").level()).isEqualTo(DoctorReport.ERROR);
    assertThat(find(f, "node-page-cache").evidence()).contains("does not fit");
    assertThat(find(f, "node-swap").evidence()).contains("3.0 GB of swap in use");
    assertThat(find(f, "node-open-files").evidence()).contains("1024").contains("65000");
    assertThat(find(f, "node-processes").evidence()).contains("4096");
    assertThat(find(f, "node-gc-pause").evidence()).contains("2,500 ms");
    assertThat(DoctorChecks.of(f).get(0).level()).isEqualTo(DoctorReport.ERROR); // errors first
  }

  @Test
  void collectionTraps() {
    DoctorFacts h = healthy();
    DoctorFacts.Collection bad =
        new DoctorFacts.Collection(
            "hot",
            500L,
            true,
            200L,
            1L,
            Map.of("filterCache", "4096", "queryResultCache", "10%"),
            3.0,
            List.of(
                shard("shard1", "10.0.1.1:8983_solr", "10.0.1.1:8983_solr"),
                shard("shard2", "10.0.1.1:8983_solr", "10.0.1.2:8983_solr"),
                shard("shard3", "10.0.1.1:8983_solr", "10.0.1.2:8983_solr"),
                shard("shard4", "10.0.1.1:8983_solr", "10.0.1.2:8983_solr")));
    DoctorFacts f = new DoctorFacts("9.7.0", h.zookeeper(), h.nodes(), List.of(bad), Map.of());
    assertThat(find(f, "coll-autocommit-opensearcher").level()).isEqualTo(DoctorReport.ERROR);
    assertThat(find(f, "coll-soft-commit").level()).isEqualTo(DoctorReport.WARNING);
    assertThat(find(f, "coll-autowarm").evidence()).contains("filterCache autowarmCount 4096");
    assertThat(checks(f)).containsOnlyOnce("coll-autowarm"); // 10 % is fine
    assertThat(find(f, "coll-version-buckets").level()).isEqualTo(DoctorReport.WARNING);
    assertThat(find(f, "coll-replicas-host").subject()).isEqualTo("collection hot shard1");
    assertThat(find(f, "coll-leader-heavy").subject()).isEqualTo("10.0.1.1:8983_solr");
    assertThat(find(f, "SOLR-5939").evidence()).contains("hot");
    // from 9.8 version buckets are gone: a note, not a warning
    DoctorFacts later = new DoctorFacts("9.10.1", h.zookeeper(), h.nodes(), List.of(bad), Map.of());
    assertThat(find(later, "coll-version-buckets").level()).isEqualTo(DoctorReport.INFO);
  }

  @Test
  void replicasInOneDcWhenTheNodesSpanTwo() {
    DoctorFacts h = healthy();
    DoctorFacts.Node east1 = withDc(h.nodes().get(0), "east");
    DoctorFacts.Node east2 =
        withDc(node("10.0.1.3:8983_solr", "10.0.1.3", 8 * GB, 10 * GB), "east");
    DoctorFacts.Node west = withDc(h.nodes().get(1), "west");
    DoctorFacts f =
        new DoctorFacts(
            "9.10.1",
            h.zookeeper(),
            List.of(east1, east2, west),
            List.of(collection("docs", shard("shard1", east1.name(), east2.name()))),
            Map.of());
    assertThat(find(f, "coll-replicas-dc").evidence()).contains("dc east");
  }

  private static DoctorFacts.Node withDc(DoctorFacts.Node n, String dc) {
    return new DoctorFacts.Node(
        n.name(),
        n.host(),
        n.heapMaxBytes(),
        n.physicalBytes(),
        n.freePhysicalBytes(),
        n.swapTotalBytes(),
        n.swapFreeBytes(),
        n.maxOpenFiles(),
        n.maxProcesses(),
        n.indexBytes(),
        n.zkClientTimeoutMs(),
        Map.of("dc", dc),
        n.processors(),
        n.loadAverage(),
        n.longestGcPauseMs(),
        n.gcLog());
  }

  @Test
  void connectStringsAndVersions() {
    assertThat(Doctor.servers("a:2181,b:2182,c/solr"))
        .containsExactly("a:2181", "b:2182", "c:2181");
    assertThat(DoctorChecks.versionBefore("9.7.0", 9, 8)).isTrue();
    assertThat(DoctorChecks.versionBefore("9.10.1", 9, 8)).isFalse();
    assertThat(DoctorChecks.versionBefore("10.0.0", 9, 8)).isFalse();
  }
}
