package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlownessTest {
  @Test
  void aDelayIsOneWayAndTheRoundTripSaysSo() {
    Slowness s = Slowness.of("50ms", "5ms", null, null, null, null);
    assertThat(s.roundTripMs()).isEqualTo(100);
    assertThat(s.describe()).isEqualTo("50 ms each way ±5 ms (normal), round trip +100 ms");
    Slowness out = Slowness.of("50ms", null, null, "1%", "out", null);
    assertThat(out.roundTripMs()).isEqualTo(50);
    assertThat(out.roundTripLoss()).isEqualTo(0.01);
    assertThat(out.describe()).isEqualTo("50 ms outgoing, round trip +50 ms; 1% lost outgoing");
    assertThat(Slowness.of(null, null, null, "0.02", null, null).roundTripLoss())
        .isEqualTo(1 - 0.98 * 0.98);
    assertThat(Slowness.of("0.5ms", null, null, null, null, null).delayMs()).isEqualTo(0.5);
    // a delay of 0: the baseline of a sweep, the link measured as it is
    assertThat(Slowness.of("0ms", null, null, null, null, null).describe())
        .isEqualTo("0 ms each way, round trip +0 ms");
    assertThat(Slowness.of("1s", null, null, null, null, true).args())
        .containsExactly(
            "--delay-ms",
            "1000",
            "--jitter-ms",
            "0",
            "--distribution",
            "normal",
            "--loss",
            "0.0",
            "--reorder");
  }

  @Test
  void unclearSlownessIsAOneLineReason() {
    assertThatThrownBy(() -> Slowness.of(null, null, null, null, null, null))
        .hasMessage("a slow link needs a delay (e.g. 50ms) or a loss (e.g. 1%), or both");
    assertThatThrownBy(() -> Slowness.of(null, "5ms", null, "1%", null, null))
        .hasMessage("a jitter needs a delay around which it varies");
    assertThatThrownBy(() -> Slowness.of("5ms", null, null, "120%", null, null))
        .hasMessage("'120%' is not a loss like 1% or 0.01");
    assertThatThrownBy(() -> Slowness.of("5ms", "1ms", "gauss", null, null, null))
        .hasMessage("unknown jitter distribution 'gauss'; use normal, uniform or pareto");
    assertThatThrownBy(() -> Slowness.of("5ms", null, null, null, "up", null))
        .hasMessage("unknown direction 'up'; use both, in or out");
    assertThatThrownBy(() -> Slowness.of("-5ms", null, null, null, null, null))
        .hasMessageContaining("a delay and jitter are 0 or more");
  }

  @Test
  void aLinkProfileTakesADelayWithJitterALossAndLeavesTheRateToTheCaller() {
    List<String> rest = new ArrayList<>();
    Slowness s = Slowness.parseProfile("40ms±5ms,100mbit,0.5%", rest);
    assertThat(s.delayMs()).isEqualTo(40);
    assertThat(s.jitterMs()).isEqualTo(5);
    assertThat(s.loss()).isEqualTo(0.005);
    assertThat(rest).containsExactly("100mbit");
    assertThat(Slowness.parseProfile("40ms+-5ms", new ArrayList<>()).jitterMs()).isEqualTo(5);
    List<String> only = new ArrayList<>();
    assertThat(Slowness.parseProfile("1gbit", only)).isNull();
    assertThat(only).containsExactly("1gbit");
  }
}
