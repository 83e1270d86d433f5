package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * Every way a chaos run ends, as docs/chaos.md lists them: which verdict each gets. Only pass is ok
 * (exit code 0); a run whose fault made no test is "not tested", never a pass.
 */
class ChaosEndingsTest {
  static final ChaosVerdict.Counts ACKED = new ChaosVerdict.Counts(100, 90, 10, 0, null, null, 1);
  static final ChaosVerdict.Counts NONE_ACKED =
      new ChaosVerdict.Counts(100, 0, 95, 5, null, null, null);

  static StepSpec.Fault fault(String name, String kind, String target) {
    return new StepSpec.Fault(name, kind, target, "10s", "15s", 42L, false, null, null, null, null);
  }

  static FaultRecord injected(String name, String kind, String note) {
    return new FaultRecord(
        name, kind, "leader-of:shard1", List.of("solr2"), 10.0, 25.0, 31.0, 6.0, note);
  }

  static FaultRecord notInjected(String name, String kind, String why) {
    return new FaultRecord(
        name, kind, "leader-of:shard1", List.of(), null, null, null, null, "not injected: " + why);
  }

  static String verdict(List<String> untested) {
    return ChaosRun.verdict(false, untested, List.of());
  }

  @Test
  void aFaultInjectedHeldAndWrittenThroughPasses() {
    List<String> u =
        FaultCoverage.untested(
            List.of(fault("kill", "kill", "leader-of:shard1")),
            List.of(injected("kill", "kill", null)),
            ACKED);
    assertThat(u).isEmpty();
    assertThat(verdict(u)).isEqualTo(ChaosVerdict.PASS);
  }

  @Test
  void aFaultTheSafetyRulesRefusedIsNotATest() {
    List<String> u =
        FaultCoverage.untested(
            List.of(fault("kill", "kill", "leader-of:shard1")),
            List.of(
                notInjected(
                    "kill",
                    "kill",
                    "refused by a safety rule: kill solr2 refused: shard1 has 1 live replica")),
            ACKED);
    assertThat(u)
        .singleElement()
        .asString()
        .contains("fault 'kill' (kill leader-of:shard1) was not injected")
        .contains("refused by a safety rule");
    assertThat(verdict(u)).isEqualTo(ChaosVerdict.NOT_TESTED);
  }

  @Test
  void aTargetThatVanishedBeforeInjectionIsNotATest() {
    List<String> u =
        FaultCoverage.untested(
            List.of(fault("kill", "kill", "leader-of:shard1")),
            List.of(
                notInjected("kill", "kill", "no target at 10.0 s: shard1 has no leader right now")),
            NONE_ACKED);
    assertThat(u).singleElement().asString().contains("no leader right now");
    assertThat(verdict(u)).isEqualTo(ChaosVerdict.NOT_TESTED);
  }

  @Test
  void aStepThatEndedBeforeTheFaultWasDueIsNotATest() {
    List<String> u =
        FaultCoverage.untested(
            List.of(fault("late", "pause", "solr1")),
            List.of(notInjected("late", "pause", "the step ended before 90s")),
            ACKED);
    assertThat(u).singleElement().asString().contains("the step ended before 90s");
    assertThat(verdict(u)).isEqualTo(ChaosVerdict.NOT_TESTED);
  }

  @Test
  void aFaultThatFailedOrWasHealedEarlyDidNotHold() {
    List<String> failed =
        FaultCoverage.untested(
            List.of(fault("kill", "kill", "solr1")),
            List.of(injected("kill", "kill", "failed: solr1 did not start within 5 min")),
            ACKED);
    assertThat(failed).singleElement().asString().contains("did not hold: failed:");
    List<String> early =
        FaultCoverage.untested(
            List.of(fault("pause", "pause", "solr1")),
            List.of(injected("pause", "pause", "healed early: the step ended")),
            ACKED);
    assertThat(early).singleElement().asString().contains("did not hold for its duration");
    assertThat(verdict(failed)).isEqualTo(ChaosVerdict.NOT_TESTED);
    assertThat(verdict(early)).isEqualTo(ChaosVerdict.NOT_TESTED);
  }

  @Test
  void nothingAcknowledgedWhileTheFaultHeldIsNotATest() {
    List<String> u =
        FaultCoverage.untested(
            List.of(fault("kill", "kill", "solr1")),
            List.of(injected("kill", "kill", null)),
            NONE_ACKED);
    assertThat(u)
        .singleElement()
        .asString()
        .contains(
            "no write was acknowledged while the faults held (100 sent, 95 failed, 5 unanswered)");
    assertThat(verdict(u)).isEqualTo(ChaosVerdict.NOT_TESTED);
  }

  @Test
  void aMonkeyIsATestWhenSomeDrawWasInjected() {
    StepSpec.Fault monkey = fault("monkey", "monkey", null);
    assertThat(FaultCoverage.untested(List.of(monkey), List.of(), ACKED))
        .singleElement()
        .asString()
        .contains("injected nothing: it drew no fault in its 15s window");
    List<FaultRecord> someSkipped =
        List.of(
            injected("monkey:kill", "kill", null),
            notInjected("monkey:zk-quorum", "zk-quorum", "a monkey's zk-quorum needs --unsafe"));
    assertThat(FaultCoverage.untested(List.of(monkey), someSkipped, ACKED)).isEmpty();
    assertThat(
            FaultCoverage.untested(
                List.of(monkey),
                List.of(notInjected("monkey:kill", "kill", "refused by a safety rule: ...")),
                ACKED))
        .singleElement()
        .asString()
        .contains("injected nothing: refused by a safety rule");
  }

  @Test
  void noFaultAskedForIsTheWorkloadAndChecksAloneAndMayPass() {
    assertThat(FaultCoverage.untested(List.of(), List.of(), NONE_ACKED)).isEmpty();
    assertThat(verdict(List.of())).isEqualTo(ChaosVerdict.PASS);
  }

  @Test
  void aCheckerThatCouldNotRunIsNotChecked() {
    assertThat(ChaosRun.verdict(false, List.of(), List.of("loss: the commit failed")))
        .isEqualTo(ChaosVerdict.NOT_CHECKED);
  }

  @Test
  void aLossIsAFailEvenWhenTheFaultMadeNoTest() {
    assertThat(ChaosRun.verdict(true, List.of("fault 'kill' was not injected"), List.of("x")))
        .isEqualTo(ChaosVerdict.FAIL);
    // untested wins over unchecked: the first thing to fix is the fault
    assertThat(ChaosRun.verdict(false, List.of("fault 'kill' was not injected"), List.of("x")))
        .isEqualTo(ChaosVerdict.NOT_TESTED);
  }

  /** 2 Solr nodes, 2 shards x 1 replica (shard1 on solr2, shard2 on solr1), 1 ZooKeeper. */
  static Topology oneReplicaEach() {
    Map<String, List<String>> replicas = new LinkedHashMap<>();
    replicas.put("shard1", List.of("solr2"));
    replicas.put("shard2", List.of("solr1"));
    return new Topology(
        replicas,
        Map.of("shard1", "solr2", "shard2", "solr1"),
        List.of("solr1", "solr2"),
        List.of("zk1"),
        "solr1");
  }

  @Test
  void aRefusalKnownBeforeTheLoadIsRefusedUpFrontInTheUsersWords() {
    Topology t = oneReplicaEach();
    List<StepSpec.Fault> leaderKill = List.of(fault("kill", "kill", "leader-of:shard1"));
    assertThatThrownBy(() -> FaultRunner.preflight(leaderKill, t, Targets.CLI_UNSAFE))
        .isInstanceOf(SolrscaleException.class)
        .satisfies(e -> assertThat(((SolrscaleException) e).exitCode()).isEqualTo(ExitCode.USAGE))
        .hasMessage(
            "fault 'kill': kill solr2 refused: shard1 has 1 live replica, on solr2; kill needs 2"
                + " live replicas of shard1, so one stays up, or use --unsafe");
    assertThatThrownBy(() -> FaultRunner.preflight(leaderKill, t, Targets.SCENARIO_UNSAFE))
        .hasMessageEndingWith("or set unsafe: true");
    assertThatThrownBy(
            () ->
                FaultRunner.preflight(
                    List.of(fault("kill", "kill", "random")), t, Targets.CLI_UNSAFE))
        .hasMessageContaining("kill random refused: no Solr node can be taken down safely now")
        .hasMessageEndingWith("or use --unsafe");
    assertThatThrownBy(
            () ->
                FaultRunner.preflight(
                    List.of(fault("zk", "zk-kill", "zk1")), t, Targets.CLI_UNSAFE))
        .hasMessageContaining("would leave 0 of 1 ZooKeeper servers up, no majority")
        .hasMessageContaining("zk-kill needs an ensemble of 3");
    assertThatThrownBy(
            () ->
                FaultRunner.preflight(
                    List.of(fault("kill", "kill", "leader-of:shard9")), t, Targets.CLI_UNSAFE))
        .hasMessageContaining("no shard 'shard9'");
    StepSpec.Fault monkey =
        new StepSpec.Fault(
            "m",
            "monkey",
            null,
            "0s",
            "60s",
            1L,
            false,
            List.of("kill", "pause"),
            null,
            null,
            null);
    assertThatThrownBy(() -> FaultRunner.preflight(List.of(monkey), t, Targets.CLI_UNSAFE))
        .hasMessageContaining("every fault the monkey may draw is refused");
    // allowed: unsafe, a shard's replicas asked for by name, the leader unknown only now
    FaultRunner.preflight(
        List.of(
            new StepSpec.Fault(
                "k", "kill", "leader-of:shard1", "10s", "15s", 1L, true, null, null, null, null)),
        t,
        Targets.CLI_UNSAFE);
    FaultRunner.preflight(List.of(fault("r", "kill", "replicas-of:shard1")), t, Targets.CLI_UNSAFE);
    Topology leaderless =
        new Topology(t.replicaNodes(), Map.of(), t.solrNodes(), List.of("zk1", "zk2", "zk3"), null);
    FaultRunner.preflight(
        List.of(fault("k", "kill", "leader-of:shard1"), fault("o", "stop", "overseer")),
        leaderless,
        Targets.CLI_UNSAFE);
  }

  @Test
  void aFaultRefusedOnlyAtItsMomentIsRecordedWithTheFixInTheUsersWords() {
    // solr1 held down by another fault: shard1 of a 2-replica topology is left on solr2 alone
    Topology t = FaultSchedulingTest.topology();
    Targets.NoTarget e =
        org.junit.jupiter.api.Assertions.assertThrows(
            Targets.NoTarget.class,
            () ->
                Targets.resolve(
                    "kill",
                    "leader-of:shard1",
                    t,
                    java.util.Set.of("solr1"),
                    new java.util.Random(1),
                    false));
    assertThat(e.safety()).isTrue();
    assertThat(e.say(Targets.SCENARIO_UNSAFE))
        .isEqualTo(
            "kill solr2 refused: shard1 has 1 live replica, on solr2 (solr1 held down by another"
                + " fault); kill needs 2 live replicas of shard1, so one stays up, or set unsafe:"
                + " true");
  }
}
