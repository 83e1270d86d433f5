package org.solrscale.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.SolrscaleException;

/** The scenario preflight refuses a fault step the safety rules will certainly refuse. */
class FaultPreflightTest {
  static final String SCENARIO =
      """
      name: t
      cluster:
        nodes: NODES
        zookeeper: ZK
        collections:
          - {name: docs, shards: 2, replicas: REPLICAS}
      steps:
        - fault: {name: leader, fault: FAULT, target: "TARGET", at: 10s, duration: 15sUNSAFE}
        - chaos: {duration: 30s}
      """;

  static void check(int nodes, int zk, int replicas, String fault, String target, boolean unsafe) {
    String text =
        SCENARIO
            .replace("NODES", "" + nodes)
            .replace("ZK", "" + zk)
            .replace("REPLICAS", "" + replicas)
            .replace("FAULT", fault)
            .replace("TARGET", target)
            .replace("UNSAFE", unsafe ? ", unsafe: true" : "");
    Preflight.check(ScenarioLoader.parse(text, "s.yaml"), Path.of("."));
  }

  @Test
  void aLeaderKillOnOneReplicaPerShardIsRefusedWithTheScenarioKey() {
    assertThatThrownBy(() -> check(2, 1, 1, "kill", "leader-of:shard1", false))
        .isInstanceOf(SolrscaleException.class)
        .satisfies(e -> assertThat(((SolrscaleException) e).exitCode()).isEqualTo(ExitCode.USAGE))
        .hasMessageStartingWith("s.yaml:")
        .hasMessageContaining("fault step 'leader': collection docs has 1 replica per shard")
        .hasMessageContaining("kill needs 2 replicas per shard (replicas: 2)")
        .hasMessageEndingWith("or set unsafe: true")
        .hasMessageNotContaining("--unsafe");
    assertThatThrownBy(() -> check(1, 1, 1, "pause", "solr1", false))
        .hasMessageContaining("last live replica of every shard");
    assertThatThrownBy(() -> check(2, 1, 2, "zk-kill", "zk1", false))
        .hasMessageContaining("zk-kill needs an ensemble of 3");
  }

  @Test
  void whatMayBeLetThroughIsLeftToTheRun() {
    check(2, 1, 1, "kill", "leader-of:shard1", true); // unsafe
    check(2, 1, 2, "kill", "leader-of:shard1", false); // two replicas
    check(3, 1, 1, "kill", "solr3", false); // placement decides: checked before the step runs
    check(2, 1, 1, "kill", "replicas-of:shard1", false); // asked for by name
    check(2, 3, 1, "zk-kill", "zk1", false);
  }
}
