package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.FaultKind;

/** Which hosts a network fault takes, and so which nodes the safety rules see down. */
class HostFaultsTest {
  /** The scheduling test's cluster on three hosts: zkN and solrN on hN; h1, h2 in dc east. */
  static Topology onHosts() {
    Topology t = FaultSchedulingTest.topology();
    return new Topology(
        t.replicaNodes(),
        t.leaders(),
        t.solrNodes(),
        t.zkNodes(),
        t.overseer(),
        Map.of("zk1", "h1", "zk2", "h2", "zk3", "h3", "solr1", "h1", "solr2", "h2", "solr3", "h3"),
        Map.of("h1", Map.of("dc", "east"), "h2", Map.of("dc", "east"), "h3", Map.of("dc", "west")));
  }

  static List<String> hosts(String target, boolean unsafe) {
    return HostFaults.hosts(
        target, onHosts(), Set.of(), new Random(3), unsafe, FaultKind.PARTITION);
  }

  @Test
  void aHostALabelOrTheHostOfANodeNameHosts() {
    assertThat(hosts("h2", false)).containsExactly("h2");
    assertThat(hosts("dc=east", false)).containsExactly("h1", "h2");
    assertThat(hosts("host-of:solr3", false)).containsExactly("h3");
    assertThat(hosts("h3,host-of:zk1", false)).containsExactly("h3", "h1");
    assertThat(HostFaults.nodesOn(onHosts(), List.of("h1", "h2")))
        .containsExactly("zk1", "zk2", "solr1", "solr2");
  }

  @Test
  void namesThatMatchNothingSayWhatThereIs() {
    assertThatThrownBy(() -> hosts("h9", false))
        .hasMessageContaining("no host 'h9'")
        .hasMessageContaining("h1");
    assertThatThrownBy(() -> hosts("dc=north", false))
        .hasMessageContaining("no host has the label");
    assertThatThrownBy(() -> hosts("host-of:solr9", false)).hasMessageContaining("solr9");
    assertThatThrownBy(
            () ->
                HostFaults.hosts(
                    null,
                    FaultSchedulingTest.topology(),
                    Set.of(),
                    new Random(1),
                    false,
                    FaultKind.PARTITION))
        .hasMessageContaining("partition needs a cluster on hosts");
  }

  @Test
  void aPartitionedHostCountsAsDownForTheSafetyRules() {
    // h2 holds solr2, a replica of both shards, and zk2: with solr1 already down, taking h2 would
    // leave shard1 without a replica
    Set<String> down = Set.of("solr1");
    for (int seed = 0; seed < 20; seed++) {
      List<String> h =
          HostFaults.hosts(null, onHosts(), down, new Random(seed), false, FaultKind.PARTITION);
      assertThat(h).containsExactly("h3");
    }
    NodeFault partition = new HostFaults.Partition();
    assertThatThrownBy(
            () -> Targets.resolve(partition, "dc=east", onHosts(), Set.of(), new Random(1), false))
        .hasMessageContaining("refused");
    assertThat(Targets.resolve(partition, "dc=east", onHosts(), Set.of(), new Random(1), true))
        .containsExactly("zk1", "zk2", "solr1", "solr2");
  }
}
