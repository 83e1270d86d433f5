package org.solrscale.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.Slowness;

/** The delayer's schedule without a kernel: what each packet is held, against what was asked. */
class DelayerScheduleTest {
  /** Held times in ms of {@code n} packets arriving every {@code everyMs}, -1 for dropped ones. */
  static double[] held(Slowness s, int n, double everyMs, long seed) {
    Delayer.Schedule sc = new Delayer.Schedule(s, new Random(seed));
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      long now = Math.round(i * everyMs * 1e6);
      long at = sc.releaseAt(now);
      out[i] = at < 0 ? -1 : (at - now) / 1e6;
    }
    return out;
  }

  static double mean(double[] v) {
    return Arrays.stream(v).filter(x -> x >= 0).average().orElse(0);
  }

  static double stdev(double[] v) {
    double m = mean(v);
    double[] k = Arrays.stream(v).filter(x -> x >= 0).toArray();
    return Math.sqrt(Arrays.stream(k).map(x -> (x - m) * (x - m)).sum() / (k.length - 1));
  }

  static double median(double[] v) {
    double[] k = Arrays.stream(v).filter(x -> x >= 0).sorted().toArray();
    return k[k.length / 2];
  }

  @Test
  void aDelayWithoutJitterIsExact() {
    double[] h = held(Slowness.of("25ms", null, null, null, null, null), 1000, 0.1, 1);
    assertThat(Arrays.stream(h).min().orElseThrow()).isEqualTo(25.0);
    assertThat(Arrays.stream(h).max().orElseThrow()).isEqualTo(25.0);
  }

  @Test
  void smoothJitterKeepsOrderAndStillHasTheNamedSpread() {
    // 200,000 packets over 200 s, one every ms: order is kept, yet mean and spread are as asked
    Slowness s = Slowness.of("50ms", "5ms", null, null, null, null);
    double[] h = held(s, 200_000, 1, 7);
    for (int i = 1; i < h.length; i++) {
      assertThat(i + h[i]).as("packet %d", i).isGreaterThanOrEqualTo(i - 1 + h[i - 1]);
    }
    assertThat(mean(h)).isCloseTo(50, org.assertj.core.data.Offset.offset(0.5));
    assertThat(stdev(h)).isCloseTo(5, org.assertj.core.data.Offset.offset(0.5));
  }

  @Test
  void uniformJitterStaysWithinItsBoundsAndParetoHasItsMeanAndALongTail() {
    double[] u = held(Slowness.of("20ms", "4ms", "uniform", null, null, null), 100_000, 1, 3);
    assertThat(Arrays.stream(u).min().orElseThrow()).isGreaterThanOrEqualTo(16.0);
    assertThat(Arrays.stream(u).max().orElseThrow()).isLessThanOrEqualTo(24.0 + 1e-6);
    assertThat(stdev(u)).isCloseTo(8 / Math.sqrt(12), org.assertj.core.data.Offset.offset(0.3));
    double[] p = held(Slowness.of("20ms", "4ms", "pareto", null, null, true), 200_000, 1, 3);
    assertThat(Arrays.stream(p).min().orElseThrow()).isGreaterThanOrEqualTo(20.0);
    assertThat(mean(p)).isCloseTo(24, org.assertj.core.data.Offset.offset(0.3));
    assertThat(median(p)).isLessThan(23.0); // most packets near the floor, a few far above
    assertThat(Arrays.stream(p).max().orElseThrow()).isGreaterThan(60.0);
  }

  @Test
  void reorderDrawsEachPacketOnItsOwnAndLetsThemOvertake() {
    double[] h = held(Slowness.of("50ms", "5ms", null, null, null, true), 50_000, 0.5, 5);
    int overtaken = 0;
    for (int i = 1; i < h.length; i++) {
      if (i * 0.5 + h[i] < (i - 1) * 0.5 + h[i - 1]) {
        overtaken++;
      }
    }
    assertThat(overtaken).isGreaterThan(10_000);
    assertThat(stdev(h)).isCloseTo(5, org.assertj.core.data.Offset.offset(0.2));
  }

  @Test
  void lossDropsItsShareWithinTheBinomialInterval() {
    int n = 100_000;
    double[] h = held(Slowness.of(null, null, null, "1%", null, null), n, 1, 11);
    long dropped = Arrays.stream(h).filter(x -> x < 0).count();
    double sd = Math.sqrt(n * 0.01 * 0.99);
    assertThat((double) dropped).isBetween(n * 0.01 - 4 * sd, n * 0.01 + 4 * sd);
    assertThat(Arrays.stream(h).filter(x -> x >= 0).max().orElseThrow()).isEqualTo(0.0);
  }

  @Test
  void aRateMakesPacketsWaitTheirTurnThenDropsWhatA100MsQueueCannotHold() {
    // 12 Mbit/s = 1 ms per 1500-byte packet; packets come every 0.5 ms for 1 s
    Slowness s = Slowness.of("10ms", null, null, null, null, null).withRate(12_000_000);
    Delayer.Schedule sc = new Delayer.Schedule(s, new Random(1));
    long lastAt = 0;
    int sent = 0;
    int dropped = 0;
    for (int i = 0; i < 2000; i++) {
      long now = i * 500_000L;
      long at = sc.releaseAt(now, 1500, true);
      assertThat(sc.releaseAt(now, 40, false)).isPositive(); // the other way has its own rate
      if (at < 0) {
        dropped++;
        continue;
      }
      assertThat(at - now).isBetween(11_000_000L, 111_000_000L); // 1 ms on the wire + 10 ms + queue
      lastAt = at;
      sent++;
    }
    // the rate holds (1,000 packets a second, the rest dropped once 100 ms queued), order kept
    assertThat(sent).isBetween(1090, 1110);
    assertThat(dropped).isEqualTo(2000 - sent);
    assertThat(lastAt).isBetween(1_100_000_000L, 1_112_000_000L);
    assertThat(s.describe())
        .isEqualTo("10 ms each way, round trip +20 ms; capped at 12 Mbit/s each way");
  }
}
