package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.ReplicaCounts;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.SpecLoader;

/** ClusterPlan on planted specs and states: placement, reconcile, merging; no process started. */
class ClusterPlanTest {

  private static ClusterSpec spec(String yaml) {
    return SpecLoader.parse(yaml, "test.yaml");
  }

  /** Each host's ports, where {@code listening} are in use on every host; asked once per host. */
  private static Function<String, Ports> ports(Set<Integer> listening) {
    Map<String, Ports> byHost = new HashMap<>();
    return h ->
        byHost.computeIfAbsent(
            String.valueOf(h), k -> new Ports("127.0.0.1", h, listening, List.of()));
  }

  private static final Function<String, String> ADDRESS =
      h -> h == null ? "127.0.0.1" : "10.0.0." + h.substring(1);

  private static List<NodeState> place(ClusterSpec spec) {
    return ClusterPlan.place(spec, ports(Set.of()), ADDRESS);
  }

  private static String describe(NodeState n) {
    return n.id()
        + " "
        + n.role()
        + " "
        + n.ssh()
        + " "
        + n.host()
        + ":"
        + n.port()
        + "/"
        + n.peerPort()
        + "/"
        + n.electionPort()
        + " "
        + n.heap()
        + " "
        + new TreeMap<>(n.labels()); // sorted: a record's map prints in no set order
  }

  @Test
  void oneZooKeeperAndSolrNodesOnThisMachineCountUpFromTheBasePorts() {
    List<NodeState> nodes = place(spec("nodes: 3\n"));
    assertThat(nodes.stream().map(ClusterPlanTest::describe))
        .containsExactly(
            "zk1 ZK null 127.0.0.1:2181/0/0 256m {}",
            "solr1 SOLR null 127.0.0.1:8983/0/0 512m {}",
            "solr2 SOLR null 127.0.0.1:8984/0/0 512m {}",
            "solr3 SOLR null 127.0.0.1:8985/0/0 512m {}");
    assertThat(nodes).allMatch(n -> n.pid() == 0 && n.scheme() == null);
  }

  @Test
  void anEnsembleGetsQuorumAndElectionPortsAndEachServerItsOwnSlot() {
    List<NodeState> nodes = place(spec("nodes: 1\nzookeeper: {servers: 3, heap: 128m}\n"));
    assertThat(nodes.stream().map(ClusterPlanTest::describe))
        .containsExactly(
            "zk1 ZK null 127.0.0.1:2181/2888/3888 128m {}",
            "zk2 ZK null 127.0.0.1:2182/2889/3889 128m {}",
            "zk3 ZK null 127.0.0.1:2183/2890/3890 128m {}",
            "solr1 SOLR null 127.0.0.1:8983/0/0 512m {}");
  }

  @Test
  void portsInUseAreSkippedAndTheNextNodeCountsOnFromThere() {
    List<NodeState> nodes =
        ClusterPlan.place(spec("nodes: 3\n"), ports(Set.of(2181, 8984)), ADDRESS);
    assertThat(nodes).extracting(NodeState::port).containsExactly(2182, 8983, 8985, 8986);
  }

  @Test
  void aBasePortIsTakenExactlyOrRefusedWithTheFlagToChange() {
    assertThat(place(spec("nodes: 2\nbase_port: 9100\n")))
        .extracting(NodeState::port)
        .containsExactly(2181, 9100, 9101);
    assertThatThrownBy(
            () ->
                ClusterPlan.place(
                    spec("nodes: 2\nbase_port: 9100\n"), ports(Set.of(9101)), ADDRESS))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage("port 9101 is in use; pick another with --base-port");
  }

  @Test
  void nodeGroupsGiveTheirLabelsAndHeapsInOrderAndTlsMakesSolrHttps() {
    List<NodeState> nodes =
        place(
            spec(
                """
                heap: 1g
                tls: true
                nodes:
                  - {count: 2, labels: {dc: east}, heap: 2g}
                  - {labels: {dc: west}}
                """));
    assertThat(nodes.stream().map(ClusterPlanTest::describe))
        .containsExactly(
            "zk1 ZK null 127.0.0.1:2181/0/0 256m {}",
            "solr1 SOLR null 127.0.0.1:8983/0/0 2g {dc=east}",
            "solr2 SOLR null 127.0.0.1:8984/0/0 2g {dc=east}",
            "solr3 SOLR null 127.0.0.1:8985/0/0 1g {dc=west}");
    assertThat(nodes)
        .extracting(NodeState::scheme)
        .containsExactly(null, "https", "https", "https");
  }

  @Test
  void onHostsZooKeeperTakesOneHostEachAndSolrNodesGoRoundTheSolrHosts() {
    ClusterSpec spec =
        spec(
            """
            zookeeper: {servers: 2}
            solr_per_host: 2
            hosts:
              - {ssh: h1, labels: {dc: east}}
              - {ssh: h2, labels: {dc: west}, roles: [zk]}
              - {ssh: h3, labels: {dc: west, rack: r3}, roles: [solr]}
            """);
    assertThat(place(spec).stream().map(ClusterPlanTest::describe))
        .containsExactly(
            "zk1 ZK h1 10.0.0.1:2181/2888/3888 256m {dc=east}",
            "zk2 ZK h2 10.0.0.2:2181/2888/3888 256m {dc=west}",
            "solr1 SOLR h1 10.0.0.1:8983/0/0 512m {dc=east}",
            "solr2 SOLR h3 10.0.0.3:8983/0/0 512m {dc=west, rack=r3}",
            "solr3 SOLR h1 10.0.0.1:8984/0/0 512m {dc=east}",
            "solr4 SOLR h3 10.0.0.3:8984/0/0 512m {dc=west, rack=r3}");
  }

  @Test
  void aNodeGroupsLabelsWinOverItsHostsOfTheSameKey() {
    ClusterSpec spec =
        spec(
            """
            nodes:
              - {count: 2, labels: {dc: moved}}
            hosts:
              - {ssh: h1, labels: {dc: east, rack: r1}}
            """);
    assertThat(place(spec))
        .filteredOn(NodeState::isSolr)
        .extracting(NodeState::labels)
        .containsOnly(Map.of("dc", "moved", "rack", "r1"));
  }

  // ---------------------------------------------------------------- reconcile

  private static ClusterState existing(ClusterSpec spec) {
    return new ClusterState("c1", spec, "/jdk", place(spec));
  }

  private static String refusal(ClusterState existing, ClusterSpec asked) {
    Throwable t = catchThrowable(() -> ClusterPlan.reconcile("c1", existing, asked));
    assertThat(t).isInstanceOf(SolrscaleException.class);
    assertThat(((SolrscaleException) t).exitCode()).isEqualTo(ExitCode.USAGE);
    return t.getMessage();
  }

  @Test
  void theSameSpecOrOtherCollectionsKeepTheClusterAsItIs() {
    ClusterState c1 = existing(spec("nodes: 2\ncollections: [{name: a}]\n"));
    assertThat(ClusterPlan.reconcile("c1", c1, spec("nodes: 2\ncollections: [{name: a}]\n")))
        .isSameAs(c1);
    // collections are not recorded by reconcile: up records them once Solr holds them
    assertThat(ClusterPlan.reconcile("c1", c1, spec("nodes: 2\ncollections: [{name: b}]\n")))
        .isSameAs(c1);
  }

  @Test
  void moreNodesOrAnotherEnsembleIsRefusedWithWhatItIsAndWhatToDo() {
    ClusterState c1 = existing(spec("nodes: 2\n"));
    String message =
        "cluster 'c1' exists with 2 nodes, 1 ZooKeeper(s), Solr "
            + ClusterSpec.DEFAULT_SOLR_VERSION
            + "; change it with add-node/remove-node, or run: solrscale down --name c1 --purge";
    assertThat(refusal(c1, spec("nodes: 3\n"))).isEqualTo(message);
    assertThat(refusal(c1, spec("nodes: 2\nzookeeper: {servers: 3}\n"))).isEqualTo(message);
  }

  @Test
  void anotherSolrVersionIsRefusedBeforeAnythingElse() {
    ClusterState c1 = existing(spec("nodes: 2\nsolr_version: 9.7.0\n"));
    assertThat(refusal(c1, spec("nodes: 3\nsolr_version: 9.8.1\n")))
        .isEqualTo(
            "cluster 'c1' runs Solr 9.7.0 and one cluster runs one version (mixed versions are"
                + " not supported): give Solr 9.8.1 its own --name, or run: solrscale down --name"
                + " c1 --purge");
  }

  @Test
  void tlsAuthAndJvmArgumentsAreChosenWhenAClusterIsCreated() {
    ClusterState plain = existing(spec("nodes: 1\n"));
    assertThat(refusal(plain, spec("nodes: 1\ntls: true\n")))
        .isEqualTo(
            "cluster 'c1' exists without TLS; TLS is chosen when a cluster is created: run"
                + " solrscale down --name c1 --purge, then up with --tls");
    assertThat(refusal(existing(spec("nodes: 1\ntls: true\n")), spec("nodes: 1\n")))
        .isEqualTo(
            "cluster 'c1' exists with TLS; TLS is chosen when a cluster is created: run"
                + " solrscale down --name c1 --purge, then up without --tls");
    assertThat(refusal(plain, spec("nodes: 1\nauth: basic\n")))
        .isEqualTo(
            "cluster 'c1' exists with auth none; authentication is chosen when a cluster is"
                + " created: run solrscale down --name c1 --purge, then up with --auth basic");
    assertThat(refusal(plain, spec("nodes: 1\njvm_args: [-XX:+UseG1GC]\n")))
        .isEqualTo(
            "cluster 'c1' runs with JVM arguments [], not [-XX:+UseG1GC]; they are chosen when a"
                + " cluster is created: run solrscale down --name c1 --purge, then up with the"
                + " ones you want");
  }

  // ---------------------------------------------------------------- collections

  private static CollectionSpec collection(String name, int shards, int nrt) {
    return new CollectionSpec(name, shards, ReplicaCounts.nrt(nrt), null, null, null, null);
  }

  @Test
  void mergedKeepsRecordedCollectionsAndReplacesThoseAskedAgainAtTheEnd() {
    CollectionSpec a = collection("a", 1, 1);
    CollectionSpec b = collection("b", 1, 1);
    CollectionSpec b2 = collection("b", 2, 1);
    CollectionSpec c = collection("c", 1, 2);
    assertThat(ClusterPlan.merged(List.of(a, b), List.of(b2, c))).containsExactly(a, b2, c);
    assertThat(ClusterPlan.merged(List.of(a, b), List.of())).containsExactly(a, b);
    assertThat(ClusterPlan.merged(List.of(), List.of(c, a))).containsExactly(c, a);
  }

  private static ReplicaStatus replica(String node, String type) {
    return new ReplicaStatus("r", "core", node, node, type, "active", false);
  }

  private static CollectionStatus live(String name, List<ShardStatus> shards) {
    return new CollectionStatus(name, Configsets.DEFAULT_NAME, CollectionSpec.COMPOSITE_ID, shards);
  }

  private static ShardStatus shard(String name, ReplicaStatus... replicas) {
    return new ShardStatus(name, "active", null, -1, List.of(replicas));
  }

  @Test
  void aCollectionThereWithAnotherShapeIsRefusedNamingBothShapes() {
    CollectionStatus there = live("a", List.of(shard("shard1", replica("n1", "NRT"))));
    assertThatCode(() -> ClusterPlan.requireShape("c1", there, collection("a", 1, 1)))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> ClusterPlan.requireShape("c1", there, collection("a", 2, 1)))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage(
            "collection 'a' exists with 1 shard x 1 nrt replica (router compositeId, configset"
                + " solrscale-default); up asked for 2 shards x 1 nrt replica (router compositeId,"
                + " configset solrscale-default): delete it first (solrscale collection delete"
                + " --name c1 --collection a), or leave out the collection flags (or its spec"
                + " entry) to keep it as it is");
  }

  @Test
  void replicasOfAShardOnOneNodeAreWarnedOfOnlyWhenAnotherNodeWasFree() {
    CollectionStatus crowded =
        live(
            "a",
            List.of(
                shard("shard1", replica("n1", "NRT"), replica("n1", "NRT")),
                shard("shard2", replica("n1", "NRT"), replica("n2", "NRT"))));
    assertThat(
            ClusterPlan.placementWarnings(
                new LiveStatus(List.of("n1", "n2"), List.of(crowded)), "a"))
        .containsExactly(
            "warning: Solr placed replicas of a/shard1 on the same node although another node"
                + " was free");
    assertThat(ClusterPlan.placementWarnings(new LiveStatus(List.of("n1"), List.of(crowded)), "a"))
        .isEmpty();
    assertThat(
            ClusterPlan.placementWarnings(
                new LiveStatus(List.of("n1", "n2"), List.of(crowded)), "other"))
        .isEmpty();
  }

  // ---------------------------------------------------------------- add-node

  @Test
  void aNewSolrNodeGoesToTheSolrHostWithFewestNodesTheFirstOnATie() {
    ClusterSpec spec =
        spec(
            """
            nodes: 3
            hosts:
              - {ssh: h1, roles: [zk]}
              - {ssh: h2, roles: [solr]}
              - {ssh: h3, roles: [solr]}
              - {ssh: h4, roles: [solr]}
            """);
    ClusterState state = existing(spec); // solr1 on h2, solr2 on h3, solr3 on h4
    assertThat(ClusterPlan.leastLoadedHost(state)).isEqualTo("h2");
    assertThat(ClusterPlan.leastLoadedHost(state.without("solr2"))).isEqualTo("h3");
    assertThat(ClusterPlan.leastLoadedHost(existing(spec("nodes: 2\n")))).isNull();
  }
}
