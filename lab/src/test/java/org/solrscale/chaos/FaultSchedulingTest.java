package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The monkey's schedule, target resolution and the safety rules, on a planted topology. */
class FaultSchedulingTest {
  /**
   * 3 Solr nodes, 2 shards x 2 replicas (shard1 on solr1+solr2, shard2 on solr2+solr3), 3
   * ZooKeepers.
   */
  static Topology topology() {
    Map<String, List<String>> replicas = new LinkedHashMap<>();
    replicas.put("shard1", List.of("solr1", "solr2"));
    replicas.put("shard2", List.of("solr2", "solr3"));
    return new Topology(
        replicas,
        Map.of("shard1", "solr2", "shard2", "solr3"),
        List.of("solr1", "solr2", "solr3"),
        List.of("zk1", "zk2", "zk3"),
        "solr1");
  }

  @Test
  void theMonkeysScheduleIsDeterministicBoundedAndNeverOverlaps() {
    List<Monkey.Planned> a =
        Monkey.schedule(7, 300_000, 20_000, 10_000, List.of("kill", "pause", "zk-kill"));
    assertThat(a)
        .isEqualTo(
            Monkey.schedule(7, 300_000, 20_000, 10_000, List.of("kill", "pause", "zk-kill")));
    assertThat(a)
        .isNotEqualTo(
            Monkey.schedule(8, 300_000, 20_000, 10_000, List.of("kill", "pause", "zk-kill")));
    assertThat(a.size()).isBetween(5, 20); // ~300 / (20 + 10) on average
    long end = 0;
    for (Monkey.Planned p : a) {
      assertThat(p.atMs()).isGreaterThanOrEqualTo(end);
      assertThat(p.atMs() + p.durationMs()).isLessThanOrEqualTo(300_000);
      end = p.atMs() + p.durationMs();
    }
    Set<String> kinds = new HashSet<>();
    for (long seed = 0; seed < 5; seed++) {
      Monkey.schedule(seed, 300_000, 20_000, 10_000, List.of("kill", "pause", "zk-kill"))
          .forEach(p -> kinds.add(p.kind()));
    }
    assertThat(kinds).containsExactlyInAnyOrder("kill", "pause", "zk-kill");
    assertThat(Monkey.schedule(1, 5_000, 20_000, 10_000, List.of("kill"))).isEmpty();
    assertThatThrownBy(() -> Monkey.schedule(1, 5_000, 20_000, 10_000, List.of()))
        .hasMessageContaining("no fault kinds");
  }

  @Test
  void safetyRulesKeepALiveReplicaPerShardAndAZooKeeperMajority() {
    Topology t = topology();
    assertThat(SafetyRules.violation(t, Set.of(), List.of("solr1"))).isNull();
    assertThat(SafetyRules.violation(t, Set.of(), List.of("solr2"))).isNull();
    assertThat(SafetyRules.violation(t, Set.of("solr1"), List.of("solr2")))
        .contains("shard1 has 1 live replica, on solr2");
    assertThat(SafetyRules.violation(t, Set.of(), List.of("solr2", "solr3"))).contains("shard2");
    assertThat(SafetyRules.violation(t, Set.of("solr1"), List.of("solr3"))).isNull();
    assertThat(SafetyRules.violation(t, Set.of(), List.of("zk1"))).isNull();
    assertThat(SafetyRules.violation(t, Set.of("zk1"), List.of("zk2")))
        .contains("leave 1 of 3 ZooKeeper servers up, no majority");
    // an even ensemble: 1 of 2 down is no quorum either
    Topology two =
        new Topology(t.replicaNodes(), t.leaders(), t.solrNodes(), List.of("zk1", "zk2"), null);
    assertThat(SafetyRules.violation(two, Set.of(), List.of("zk1"))).contains("no majority");
  }

  @Test
  void targetsResolveToNodesAndRefuseUnsafeOnesUnlessAsked() {
    Topology t = topology();
    Random r = new Random(1);
    assertThat(Targets.resolve("kill", "leader-of:shard1", t, Set.of(), r, false))
        .containsExactly("solr2");
    assertThat(Targets.resolve("stop", "overseer", t, Set.of(), r, false)).containsExactly("solr1");
    assertThat(Targets.resolve("pause", "solr3", t, Set.of(), r, false)).containsExactly("solr3");
    assertThat(Targets.resolve("kill", "replicas-of:shard2", t, Set.of(), r, false))
        .containsExactly("solr2", "solr3"); // asked for by name: the rules do not apply
    assertThat(Targets.resolve("zk-quorum", null, t, Set.of(), r, false)).hasSize(2);
    assertThat(Targets.resolve("zk-quorum", null, t, Set.of("zk3"), r, false))
        .hasSize(1)
        .doesNotContain("zk3");
    assertThat(Targets.resolve("zk-kill", null, t, Set.of(), r, false))
        .hasSize(1)
        .allMatch(n -> n.startsWith("zk"));
    assertThatThrownBy(
            () -> Targets.resolve("kill", "leader-of:shard1", t, Set.of("solr1"), r, false))
        .hasMessageContaining("shard1 has 1 live replica, on solr2")
        .satisfies(e -> assertThat(((Targets.NoTarget) e).safety()).isTrue());
    assertThat(Targets.resolve("kill", "leader-of:shard1", t, Set.of("solr1"), r, true))
        .containsExactly("solr2");
    assertThatThrownBy(() -> Targets.resolve("zk-kill", "zk2", t, Set.of("zk1"), r, false))
        .hasMessageContaining("no majority");
    assertThatThrownBy(() -> Targets.resolve("kill", "solr9", t, Set.of(), r, false))
        .hasMessageContaining("no node 'solr9'");
    assertThatThrownBy(() -> Targets.resolve("kill", "leader-of:shard7", t, Set.of(), r, false))
        .hasMessageContaining("no shard 'shard7'");
    assertThatThrownBy(() -> Targets.resolve("kill", "solr1", t, Set.of("solr1"), r, true))
        .hasMessageContaining("already down");
  }

  @Test
  void randomTargetsAreSeededAndOnlyEverSafe() {
    Topology t = topology();
    Set<String> seen = new HashSet<>();
    Random r = new Random(3);
    for (int i = 0; i < 200; i++) {
      // with solr2 down, solr1 and solr3 each hold the last replica of a shard: nothing is safe
      assertThatThrownBy(() -> Targets.resolve("kill", "random", t, Set.of("solr2"), r, false))
          .hasMessageContaining("no Solr node can be taken down safely");
      // with solr1 down only solr3 is safe
      seen.addAll(Targets.resolve("kill", "random", t, Set.of("solr1"), r, false));
    }
    assertThat(seen).containsExactly("solr3");
    List<String> a =
        List.of(
            Targets.resolve("pause", null, t, Set.of(), new Random(5), false).get(0),
            Targets.resolve("pause", null, t, Set.of(), new Random(5), false).get(0));
    assertThat(a.get(0)).isEqualTo(a.get(1));
  }
}
