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
        null,
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
        DoctorFacts.Layout.EXTERNAL,
        3.0,
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
  void whenNoNodeCanReadTheClusterStateZooKeeperIsStillExamined() {
    DoctorFacts h = healthy();
    // the Menelic incident: a follower 1.4 s away against a 1 s sync limit, and Solr cut off
    DoctorFacts cut =
        new DoctorFacts(
            DoctorFacts.Layout.HOSTS,
            null,
            null,
            List.of(zk("10.0.0.1", 500, 2, 10, 1400), h.zookeeper().get(1), h.zookeeper().get(2)),
            List.of(),
            List.of(),
            Map.of(),
            "none of the 3 nodes asked answers its cluster status; first http://a/solr: HTTP 510");
    List<Finding> found = DoctorChecks.of(cut);
    assertThat(found.get(0).check()).isEqualTo("cluster-state");
    assertThat(found.get(0).level()).isEqualTo(DoctorReport.ERROR);
    assertThat(found.get(0).evidence()).contains("HTTP 510").contains("were not checked");
    assertThat(find(cut, "zk-syncLimit").level()).isEqualTo(DoctorReport.ERROR);
  }

  @Test
  void zookeeperTraps() {
    DoctorFacts h = healthy();
    DoctorFacts even =
        new DoctorFacts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            h.solrVersion(),
            h.zookeeper().subList(0, 2),
            h.nodes(),
            h.collections(),
            Map.of());
    assertThat(find(even, "zk-even-ensemble").level()).isEqualTo(DoctorReport.WARNING);
    // a WAN link to one of three servers: 250 ms round trips against syncLimit 2 x 2000 ms
    DoctorFacts wan =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            List.of(zk("10.0.0.1", 2000, 2, 10, 250), h.zookeeper().get(1), h.zookeeper().get(2)),
            h.nodes());
    Finding sync = find(wan, "zk-syncLimit");
    assertThat(sync.level()).isEqualTo(DoctorReport.WARNING);
    assertThat(sync.evidence()).contains("4,000 ms").contains("250.0 ms");
    assertThat(sync.fix()).contains("at least 10000 ms").contains("in zoo.cfg");
    DoctorFacts hopeless =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            List.of(zk("10.0.0.1", 100, 1, 1, 150), h.zookeeper().get(1), h.zookeeper().get(2)),
            h.nodes());
    assertThat(find(hopeless, "zk-syncLimit").level()).isEqualTo(DoctorReport.ERROR);
    // a round trip of 0.6 of the limit: ZooKeeper keeps the follower (measured in SlowNetIT),
    // so a warning (little margin), not an error
    DoctorFacts tight =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            List.of(zk("10.0.0.1", 500, 2, 10, 600), h.zookeeper().get(1), h.zookeeper().get(2)),
            h.nodes());
    assertThat(find(tight, "zk-syncLimit").level()).isEqualTo(DoctorReport.WARNING);
    // solrscale writes zoo.cfg from the cluster spec, so the fix is there
    DoctorFacts ours = facts(DoctorFacts.Layout.HOSTS, 3.0, hopeless.zookeeper(), h.nodes());
    assertThat(find(ours, "zk-syncLimit").fix()).contains("zookeeper: {sync_limit: N}");
    // tickTime 1000: sessions of at most 20 s, and Solr asks for 30 s
    DoctorFacts shortTick =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            List.of(zk("10.0.0.1", 1000, 10, 20, 0.5)),
            h.nodes());
    Finding session = find(shortTick, "zk-session-timeout");
    assertThat(session.evidence())
        .contains("30,000 ms")
        .contains("2,000..20,000 ms")
        .contains("gets 20,000 ms");
    assertThat(session.fix()).contains("maxSessionTimeout in zoo.cfg");
    DoctorFacts shortTickHere =
        facts(DoctorFacts.Layout.ONE_MACHINE, 3.0, shortTick.zookeeper(), h.nodes());
    // solrscale writes no maxSessionTimeout: 20 ticks of 1500 ms cover 30 s
    assertThat(find(shortTickHere, "zk-session-timeout").fix())
        .contains("zookeeper: {tick_time: 1500}")
        .doesNotContain("maxSessionTimeout");
  }

  @Test
  void aStandaloneServerHasNoSyncOrInitLimitToCheck() {
    DoctorFacts one =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            List.of(zk("10.0.0.1", 100, 1, 1, 80)),
            healthy().nodes());
    assertThat(checks(one)).doesNotContain("zk-syncLimit", "zk-initLimit").contains("zk-single");
  }

  @Test
  void aServerThatAnswersNothingIsUnreachableNotUnwhitelisted() {
    DoctorFacts.Zk silent = new DoctorFacts.Zk("10.0.0.9:2181", "10.0.0.9", null, null, List.of());
    DoctorFacts.Zk noConf =
        new DoctorFacts.Zk("10.0.0.8:2181", "10.0.0.8", null, null, List.of(0.4));
    DoctorFacts f =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            List.of(silent, noConf, healthy().zookeeper().get(0)),
            healthy().nodes());
    assertThat(find(f, "zk-unreachable").subject()).isEqualTo("ZooKeeper 10.0.0.9:2181");
    assertThat(find(f, "zk-conf-unreadable").subject()).isEqualTo("ZooKeeper 10.0.0.8:2181");
    assertThat(checks(f)).containsOnlyOnce("zk-conf-unreadable");
  }

  /** The report of issue 39: right after a bench, load average 3.3 on 2 idle cores. */
  @Test
  void aLoadAverageLeftByABenchIsNoWarningWhenTheSampledCpuIsIdle() {
    DoctorFacts.Node after = solrOn("127.0.0.1", 2, 3.3, window(1.0, 0.02));
    DoctorFacts f =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            List.of(zk("127.0.0.1", 2000, 5, 10, 0.1)),
            List.of(after));
    Finding shared = find(f, "zk-shares-host");
    assertThat(shared.level()).isEqualTo(DoctorReport.INFO);
    assertThat(shared.evidence())
        .contains("CPU 1 % busy over the doctor's 3.0 s window")
        .contains("1-minute load average 3.3 on 2 cores, which includes the minute before");
    // every node and ZooKeeper on one host of a cluster solrscale did not start
    assertThat(shared.fix()).startsWith("expected when every node runs on one host");
  }

  /** The example in docs/diagnose.md, word for word. */
  @Test
  void theIssuesMachineOnOneMachineSolrscaleLaidOut() {
    DoctorFacts.Node solr1 = solrOn("127.0.0.1", 2, 3.3, window(1.0, 0.01));
    DoctorFacts.Node solr2 =
        new DoctorFacts.Node(
            "127.0.0.1:8984_solr",
            "127.0.0.1",
            1 * GB,
            64 * GB,
            32 * GB,
            0L,
            0L,
            1_048_576L,
            null,
            1 * GB,
            null,
            Map.of(),
            2,
            3.3,
            window(1.0, 0.01),
            null,
            null);
    DoctorFacts f =
        facts(
            DoctorFacts.Layout.ONE_MACHINE,
            3.0,
            List.of(zk("127.0.0.1", 2000, 5, 10, 0.1)),
            List.of(solr1, solr2));
    Finding shared = find(f, "zk-shares-host");
    assertThat(shared.level()).isEqualTo(DoctorReport.INFO);
    assertThat(shared.evidence())
        .isEqualTo(
            "shares host 127.0.0.1 with 2 Solr node(s), as every node of a cluster solrscale runs"
                + " on one machine does; this machine's CPU 1 % busy over the doctor's 3.0 s"
                + " window (1-minute load average 3.3 on 2 cores, which includes the minute before"
                + " the doctor started)");
    assertThat(shared.fix())
        .isEqualTo(
            "nothing to do on one machine, where sharing is expected; on real hosts give"
                + " ZooKeeper hosts of its own (hosts: with roles: [zk])");
  }

  @Test
  void aBusySampledWindowMakesSharingAHostAWarning() {
    DoctorFacts.Node busy = solrOn("10.0.0.1", 8, 0.3, window(93.0, 7.2));
    DoctorFacts f =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            2.0,
            List.of(
                zk("10.0.0.1", 2000, 5, 10, 0.5),
                zk("10.0.0.2", 2000, 5, 10, 0.5),
                zk("10.0.0.3", 2000, 5, 10, 0.5)),
            List.of(busy, node("10.0.1.2:8983_solr", "10.0.1.2", 8 * GB, 10 * GB)));
    Finding shared = find(f, "zk-shares-host");
    assertThat(shared.level()).isEqualTo(DoctorReport.WARNING);
    assertThat(shared.evidence()).contains("CPU 93 % busy over the doctor's 2.0 s window");
    assertThat(shared.fix())
        .isEqualTo("give ZooKeeper hosts of its own (Solr's CPU and GC delay its heartbeats)");
  }

  @Test
  void onAnotherHostTheSolrNodesOwnCpuOverTheWindowDecides() {
    DoctorFacts.Zk z = zk("10.0.0.1", 2000, 5, 10, 0.5);
    DoctorFacts busy =
        facts(
            DoctorFacts.Layout.HOSTS,
            3.0,
            List.of(z),
            List.of(
                solrOn("10.0.0.1", 8, 1.0, window(null, 7.5)),
                solrOn("10.0.0.2", 8, 0.1, window(null, 0.1))));
    Finding f = find(busy, "zk-shares-host");
    assertThat(f.level()).isEqualTo(DoctorReport.WARNING);
    assertThat(f.evidence())
        .contains("its Solr node(s) used 7.5 of 8 cores over the doctor's 3.0 s window");
    assertThat(f.fix()).startsWith("give ZooKeeper hosts of its own: roles: [zk] on some hosts");
    DoctorFacts idle =
        facts(
            DoctorFacts.Layout.HOSTS,
            3.0,
            List.of(z),
            List.of(solrOn("10.0.0.1", 8, 20.0, window(null, 0.2))));
    assertThat(find(idle, "zk-shares-host").level()).isEqualTo(DoctorReport.INFO);
    assertThat(find(idle, "zk-shares-host").fix()).startsWith("every node runs on this one host");
  }

  @Test
  void withoutAWindowTheLoadAverageIsSaidForWhatItIsAndNotJudged() {
    DoctorFacts f =
        facts(
            DoctorFacts.Layout.EXTERNAL,
            null,
            List.of(zk("127.0.0.1", 2000, 5, 10, 0.1)),
            List.of(solrOn("127.0.0.1", 2, 3.3, null)));
    Finding shared = find(f, "zk-shares-host");
    assertThat(shared.level()).isEqualTo(DoctorReport.INFO);
    assertThat(shared.evidence())
        .contains(
            "1-minute load average 3.3 on 2 cores, which includes the minute before the doctor started")
        .contains("not sampled (--window 0)");
  }

  @Test
  void onOneMachineSolrscaleLaidOutSharingIsExpectedAndTheFixIsForRealHosts() {
    DoctorFacts.Zk z = zk("127.0.0.1", 2000, 5, 10, 0.1);
    DoctorFacts idle =
        facts(
            DoctorFacts.Layout.ONE_MACHINE,
            3.0,
            List.of(z),
            List.of(solrOn("127.0.0.1", 2, 3.3, window(2.0, 0.0))));
    Finding quiet = find(idle, "zk-shares-host");
    assertThat(quiet.level()).isEqualTo(DoctorReport.INFO);
    assertThat(quiet.evidence())
        .contains("as every node of a cluster solrscale runs on one machine does");
    assertThat(quiet.fix())
        .startsWith("nothing to do on one machine, where sharing is expected")
        .contains("on real hosts give ZooKeeper hosts of its own");
    assertThat(find(idle, "zk-single").fix()).startsWith("expected for a lab on one machine");
    DoctorFacts loaded =
        facts(
            DoctorFacts.Layout.ONE_MACHINE,
            3.0,
            List.of(z),
            List.of(solrOn("127.0.0.1", 2, 0.5, window(97.0, 1.8))));
    Finding busy = find(loaded, "zk-shares-host");
    assertThat(busy.level()).isEqualTo(DoctorReport.WARNING);
    assertThat(busy.fix())
        .startsWith("expected on one machine, but ZooKeeper's heartbeats wait for CPU here")
        .contains("on real hosts");
  }

  @Test
  void onOneMachineNoFixAsksForHostsOrMoreNodes() {
    DoctorFacts.Node heavy =
        new DoctorFacts.Node(
            "127.0.0.1:8983_solr",
            "127.0.0.1",
            15 * GB,
            16 * GB,
            1 * GB,
            4 * GB,
            1 * GB,
            1024L,
            4096L,
            20 * GB,
            null,
            Map.of(),
            2,
            0.1,
            window(1.0, 0.0),
            2500.0,
            "solr_gc.log (since the node started)");
    DoctorFacts f =
        facts(
            DoctorFacts.Layout.ONE_MACHINE,
            3.0,
            List.of(zk("127.0.0.1", 2000, 5, 10, 0.1)),
            List.of(heavy));
    assertThat(find(f, "node-page-cache").fix()).doesNotContain("add").contains("heap:");
    assertThat(find(f, "node-heap-memory").fix()).contains("fewer nodes on this machine");
    assertThat(find(f, "node-swap").fix()).doesNotContain("swapoff");
    assertThat(find(f, "node-swap").evidence()).contains("by any process");
    assertThat(find(f, "node-open-files").fix())
        .contains("the shell that starts the nodes")
        .doesNotContain("systemd");
    assertThat(find(f, "node-gc-pause").evidence())
        .contains("since the node started")
        .contains("over the doctor's 3.0 s window: 2 collection(s), 40 ms");
    DoctorFacts external = facts(DoctorFacts.Layout.EXTERNAL, 3.0, f.zookeeper(), f.nodes());
    assertThat(find(external, "node-page-cache").fix())
        .isEqualTo("add memory or hosts, or lower the heaps");
    assertThat(find(external, "node-open-files").fix()).contains("LimitNOFILE=");
  }

  @Test
  void theSoftCommitFindingSaysOverWhatItsUpdateRateWasTaken() {
    DoctorFacts h = healthy();
    DoctorFacts.Collection soft =
        new DoctorFacts.Collection(
            "soft",
            15000L,
            false,
            200L,
            65536L,
            Map.of(),
            12.5,
            List.of(shard("shard1", "10.0.1.1:8983_solr")));
    DoctorFacts sampled = facts(DoctorFacts.Layout.EXTERNAL, 3.0, h.zookeeper(), h.nodes(), soft);
    assertThat(find(sampled, "coll-soft-commit").evidence())
        .contains("12.5 update requests/s over the doctor's 3.0 s window");
    DoctorFacts oneMinute =
        facts(DoctorFacts.Layout.EXTERNAL, null, h.zookeeper(), h.nodes(), soft);
    assertThat(find(oneMinute, "coll-soft-commit").evidence())
        .contains("at Solr's 1-minute rate, which includes the minute before the doctor started");
  }

  @Test
  void moreReplicasThanHostsCannotBeMovedApart() {
    DoctorFacts h = healthy();
    DoctorFacts.Collection three =
        collection(
            "three",
            shard("shard1", "10.0.1.1:8983_solr", "10.0.1.1:8983_solr", "10.0.1.2:8983_solr"));
    DoctorFacts f = facts(DoctorFacts.Layout.HOSTS, 3.0, h.zookeeper(), h.nodes(), three);
    assertThat(find(f, "coll-replicas-host").fix())
        .isEqualTo(
            "add hosts (its 3 replicas need as many; the nodes are on 2) or keep fewer replicas");
    DoctorFacts.Collection two =
        collection("two", shard("shard1", "10.0.1.1:8983_solr", "10.0.1.1:8983_solr"));
    assertThat(
            find(
                    facts(DoctorFacts.Layout.HOSTS, 3.0, h.zookeeper(), h.nodes(), two),
                    "coll-replicas-host")
                .fix())
        .startsWith("move a replica to another host (MOVEREPLICA)");
  }

  @Test
  void collectionFixesNameThePropertySolrscalesConfigsetReadsOnlyForItsClusters() {
    DoctorFacts h = healthy();
    DoctorFacts.Collection hot =
        new DoctorFacts.Collection(
            "hot",
            500L,
            true,
            -1L,
            65536L,
            Map.of(),
            0.0,
            List.of(shard("shard1", "10.0.1.1:8983_solr")));
    assertThat(
            find(
                    facts(DoctorFacts.Layout.ONE_MACHINE, 3.0, h.zookeeper(), h.nodes(), hot),
                    "coll-autocommit-opensearcher")
                .fix())
        .endsWith(
            "properties: {solr.autoCommit.openSearcher: false} of the collection in the cluster spec)");
    assertThat(
            find(
                    facts(DoctorFacts.Layout.EXTERNAL, 3.0, h.zookeeper(), h.nodes(), hot),
                    "coll-autocommit-opensearcher")
                .fix())
        .doesNotContain("solrscale");
  }

  @Test
  void gcTimeIsJudgedOverTheWindowOnAnyNode() {
    DoctorFacts.Zk z = zk("10.0.0.1", 2000, 5, 10, 0.5);
    DoctorFacts.Node collecting =
        solrOn("10.0.2.1", 8, 0.5, new DoctorFacts.Window(null, 1.0, 12L, 600L));
    Finding gc =
        find(
            facts(DoctorFacts.Layout.EXTERNAL, 3.0, List.of(z), List.of(collecting)),
            "node-gc-time");
    assertThat(gc.level()).isEqualTo(DoctorReport.WARNING);
    assertThat(gc.evidence())
        .startsWith("600 ms of the doctor's 3.0 s window in 12 collection(s) (20 %)");
    DoctorFacts.Node calm = solrOn("10.0.2.1", 8, 0.5, new DoctorFacts.Window(null, 1.0, 2L, 40L));
    assertThat(checks(facts(DoctorFacts.Layout.EXTERNAL, 3.0, List.of(z), List.of(calm))))
        .doesNotContain("node-gc-time");
    // without a window there is nothing to judge it by
    assertThat(checks(facts(DoctorFacts.Layout.EXTERNAL, null, List.of(z), List.of(collecting))))
        .doesNotContain("node-gc-time");
  }

  static DoctorFacts facts(
      DoctorFacts.Layout layout,
      Double window,
      List<DoctorFacts.Zk> zks,
      List<DoctorFacts.Node> nodes,
      DoctorFacts.Collection... collections) {
    return new DoctorFacts(layout, window, "9.10.1", zks, nodes, List.of(collections), Map.of());
  }

  /** Two GCs of 40 ms in all, as a quiet node has in a few seconds. */
  static DoctorFacts.Window window(Double hostBusyPercent, double cores) {
    return new DoctorFacts.Window(hostBusyPercent, cores, 2L, 40L);
  }

  static DoctorFacts.Node solrOn(String host, int cores, double loadAverage, DoctorFacts.Window w) {
    return new DoctorFacts.Node(
        host + ":8983_solr",
        host,
        1 * GB,
        64 * GB,
        32 * GB,
        0L,
        0L,
        1_048_576L,
        null,
        1 * GB,
        null,
        Map.of(),
        cores,
        loadAverage,
        w,
        null,
        null);
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
            null,
            2500.0,
            "solr_gc.log");
    DoctorFacts f =
        new DoctorFacts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            "9.10.1",
            h.zookeeper(),
            List.of(heavy),
            List.of(),
            Map.of());
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
    DoctorFacts f =
        new DoctorFacts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            "9.7.0",
            h.zookeeper(),
            h.nodes(),
            List.of(bad),
            Map.of());
    assertThat(find(f, "coll-autocommit-opensearcher").level()).isEqualTo(DoctorReport.ERROR);
    assertThat(find(f, "coll-soft-commit").level()).isEqualTo(DoctorReport.WARNING);
    assertThat(find(f, "coll-autowarm").evidence()).contains("filterCache autowarmCount 4096");
    assertThat(checks(f)).containsOnlyOnce("coll-autowarm"); // 10 % is fine
    assertThat(find(f, "coll-version-buckets").level()).isEqualTo(DoctorReport.WARNING);
    assertThat(find(f, "coll-replicas-host").subject()).isEqualTo("collection hot shard1");
    assertThat(find(f, "coll-leader-heavy").subject()).isEqualTo("10.0.1.1:8983_solr");
    assertThat(find(f, "SOLR-5939").evidence()).contains("hot");
    // from 9.8 version buckets are gone: a note, not a warning
    DoctorFacts later =
        new DoctorFacts(
            DoctorFacts.Layout.EXTERNAL,
            3.0,
            "9.10.1",
            h.zookeeper(),
            h.nodes(),
            List.of(bad),
            Map.of());
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
            DoctorFacts.Layout.EXTERNAL,
            3.0,
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
        n.window(),
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
