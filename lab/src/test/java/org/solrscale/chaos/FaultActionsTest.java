package org.solrscale.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.FaultKind;

/**
 * The fault registry: every kind has what it does, targets and help; nothing unknown slips through.
 */
class FaultActionsTest {
  @Test
  void everyKindHasItsActionAndHelp() {
    Topology t = HostFaultsTest.onHosts();
    for (FaultKind k : FaultKind.values()) {
      FaultAction a = FaultActions.of(k);
      assertThat(a).as(k.id()).isNotNull();
      assertThat(k.help()).as(k.id()).isNotBlank();
      assertThat(FaultActions.of(k.id()).getClass()).isEqualTo(a.getClass());
      if (a instanceof NodeFault node) {
        assertThat(node.kind()).isEqualTo(k);
        assertThat(node.targets(null, t, Set.of(), new Random(1), true)).as(k.id()).isNotEmpty();
      }
    }
  }

  @Test
  void whatTheMonkeyDrawsTakesNodes() {
    for (String id : FaultKind.monkeyNames()) {
      assertThat(FaultActions.of(id)).as(id).isInstanceOf(NodeFault.class);
    }
    assertThat(FaultKind.monkeyNames()).doesNotContain("monkey", "rolling-restart");
  }

  @Test
  void anUnknownKindIsAnErrorNotAnotherKind() {
    assertThatThrownBy(() -> FaultActions.of("explode"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown fault 'explode'")
        .hasMessageContaining("kill, stop, pause");
    assertThatThrownBy(
            () ->
                Targets.resolve(
                    "explode",
                    null,
                    FaultSchedulingTest.topology(),
                    Set.of(),
                    new Random(1),
                    false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
