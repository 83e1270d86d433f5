package org.solrscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.solrscale.load.Interval;
import org.solrscale.load.LoadRecorder;
import org.solrscale.spec.Slo;

/**
 * A probe decided early is decided as its full count would decide it: a tail that has already sunk
 * the full count ends it at once, tails near the bound run to the end, and over many simulated
 * probes the early verdicts agree with the full counts' (failures always, acceptances more often
 * than the stated confidence).
 */
class EarlyVerdictTest {
  static final Slo P99 = Slo.parse("p99<100ms");
  static final Slo P99_NO_ERRORS = Slo.parse("p99<100ms,errors<0.1%");

  /** A measured second of n requests, {@code above} of them at or above 100 ms. */
  static Interval second(int n, int above, long errors) {
    Histogram h = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
    for (int i = 0; i < n; i++) {
      h.recordValue(i < above ? 150_000 : 20_000);
    }
    return new Interval(0, 1_000_000_000L, false, h, h.copy(), h.copy(), n, errors, 0, n, Map.of());
  }

  @Test
  void aTailSurelyAboveTheBoundFailsAtOnce() {
    EarlyVerdict v = new EarlyVerdict(P99, 1522);
    // 25 at or above 100 ms: more than 1 % of the 1,522 the full probe would measure
    assertThat(v.add(second(500, 25, 0), false)).isTrue();
    assertThat(v.reason())
        .startsWith("failed after 500 requests: 25 at or above 100 ms, more than the 1 %");
  }

  @Test
  void aTailSurelyBelowMeetsOnlyOnceTheShortestTimeIsOver() {
    EarlyVerdict v = new EarlyVerdict(P99, 5000);
    assertThat(v.add(second(1000, 0, 0), false)).isFalse();
    assertThat(v.add(second(1000, 1, 0), true)).isTrue();
    assertThat(v.reason()).startsWith("met after 2,000 requests");
  }

  @Test
  void tooFewRequestsOrATailNearTheBoundDecideNothing() {
    EarlyVerdict few = new EarlyVerdict(P99, 2500);
    // none above, but 300 requests cannot tell 1 % apart from none at 99 %
    assertThat(few.add(second(300, 0, 0), true)).isFalse();
    EarlyVerdict near = new EarlyVerdict(P99, 2500);
    for (int s = 0; s < 5; s++) {
      // exactly 1 %: 20 of 2,000 so far, below the 25 of 2,500 that would sink the full count
      assertThat(near.add(second(400, 4, 0), true)).as("second " + s).isFalse();
    }
    assertThat(near.reason()).isNull();
  }

  @Test
  void errorsDecideToo() {
    EarlyVerdict none = new EarlyVerdict(P99, 3000); // no errors allowed
    assertThat(none.add(second(2000, 0, 1), true)).isTrue();
    assertThat(none.reason()).contains("1 errors");
    EarlyVerdict some = new EarlyVerdict(P99_NO_ERRORS, 3000);
    // 1 error: the full count may still hold 3 (0.1 % of 3,000); an error forbids meeting early
    assertThat(some.add(second(2000, 0, 1), true)).isFalse();
    assertThat(some.add(second(2000, 0, 40), true)).isTrue();
    assertThat(some.reason()).contains("41 errors");
  }

  @Test
  void aDecidedProbeStaysDecided() {
    EarlyVerdict v = new EarlyVerdict(P99, 1522);
    assertThat(v.add(second(500, 50, 0), false)).isTrue();
    String why = v.reason();
    assertThat(v.add(second(5000, 0, 0), true)).isTrue();
    assertThat(v.reason()).isEqualTo(why);
  }

  @Test
  void theWilsonBoundsAreTheTextbooksAndHoldTheirConfidence() {
    // k = 0 of 1,000 at z = 2.576: z^2 / (n + z^2)
    assertThat(EarlyVerdict.upper(0, 1000)).isCloseTo(6.6358 / 1006.6358, within(1e-6));
    assertThat(EarlyVerdict.lower(0, 1000)).isCloseTo(0, within(1e-12));
    // the independent count: simulated probes of 10 s at 300 requests/s whose true tail share is
    // known, each judged whole (Slo.failure on the full count's p99, as the search did before) and
    // second by second: an early verdict that differs from the full count's is an error
    Random rnd = new Random(7);
    int wrongFail = 0;
    int wrongMeet = 0;
    int decided = 0;
    int runs = 400;
    for (double truth : new double[] {0.004, 0.006, 0.009, 0.011, 0.014, 0.02}) {
      for (int r = 0; r < runs; r++) {
        int[] above = new int[10];
        Histogram all = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
        for (int s = 0; s < 10; s++) {
          for (int i = 0; i < 300; i++) {
            above[s] += rnd.nextDouble() < truth ? 1 : 0;
          }
          all.add(second(300, above[s], 0).latency());
        }
        boolean fullMeets =
            P99.failure(Map.of("p99", all.getValueAtPercentile(99) / 1000.0), 0) == null;
        EarlyVerdict v = new EarlyVerdict(P99, 3000);
        for (int s = 0; s < 10; s++) {
          if (v.add(second(300, above[s], 0), s >= 4)) {
            decided++;
            boolean met = v.reason().startsWith("met");
            wrongMeet += met && !fullMeets ? 1 : 0;
            wrongFail += !met && fullMeets ? 1 : 0;
            break;
          }
        }
      }
    }
    assertThat(decided).as("the clear cases end early").isGreaterThan(runs * 2);
    assertThat(wrongFail).as("failed early where the full count met").isZero();
    assertThat((double) wrongMeet / decided)
        .as("met early where the full count failed")
        .isLessThan(0.01);
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }
}
