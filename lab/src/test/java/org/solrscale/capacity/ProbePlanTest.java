package org.solrscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.results.CapacityResult;
import org.solrscale.spec.Slo;

/**
 * The plan printed before the first probe: its figures are the ones the prober uses, and its bound
 * on the rates is one the search never exceeds and can reach.
 */
class ProbePlanTest {
  static final Slo P99 = Slo.parse("p99<50ms");
  static final Duration FIVE = Duration.ofSeconds(5);

  @Test
  void theDefaultFirstProbeIsTenRequestsASecondForTwoAndAHalfMinutes() {
    ProbePlan p = ProbePlan.of(P99, CapacitySearch.Options.of(10.0, null, 5, 24), FIVE, FIVE);
    assertThat(p.start()).isEqualTo(10);
    assertThat(p.required()).isEqualTo(1522);
    assertThat(p.measuredSeconds()).isEqualTo(154); // ceil(1522 / 10) + 1
    assertThat(p.measuredRequests()).isEqualTo(1540);
    assertThat(p.warmupRequests()).isEqualTo(50);
    assertThat(p.firstProbeSeconds()).isEqualTo(159);
    assertThat(p.bisections()).isEqualTo(5); // 1, 1/2, ..., 1/32 <= 5 %
    assertThat(p.halvings()).isEqualTo(5); // 10, 5, 2.5, 1.25, 0.625
    assertThat(p.rates()).isNull(); // no --max-rate: the doublings depend on the capacity
    assertThat(p.probes()).isEqualTo(24);
  }

  @Test
  void theMinimumDurationAndAMaximumBelowTheStartSetTheFirstProbe() {
    ProbePlan p =
        ProbePlan.of(
            P99,
            CapacitySearch.Options.of(500.0, 200.0, 5, 24),
            Duration.ZERO,
            Duration.ofSeconds(20));
    assertThat(p.start()).isEqualTo(200);
    assertThat(p.measuredSeconds()).isEqualTo(20); // 1522 / 200 + 1 = 9 s is below 20 s
    assertThat(p.warmupRequests()).isZero();
    assertThat(p.measuredRequests()).isEqualTo(4000);
  }

  @Test
  void withAMaximumRateTheBoundCountsTheWorstPath() {
    // up: 10, 20, 40, 80, 100; down: 10, 5, 2.5, 1.25, 0.625, then 5 bisections: 10 rates
    ProbePlan p = ProbePlan.of(P99, CapacitySearch.Options.of(10.0, 100.0, 5, 24), FIVE, FIVE);
    assertThat(p.rates()).isEqualTo(10);
    assertThat(p.probes()).isEqualTo(24); // 10 rates x 3 probes, capped by --max-probes
    ProbePlan alone = ProbePlan.of(P99, CapacitySearch.Options.of(10.0, 10.0, 5, 24), FIVE, FIVE);
    assertThat(alone.rates()).isEqualTo(10); // only the way down is left
    ProbePlan few =
        ProbePlan.of(
            P99, new CapacitySearch.Options(1.0, 4.0, 0.5, 24, 0.1, 1, 1, null), FIVE, FIVE);
    // up: 1, 2, 4 (then 1 bisection at most for 50 %); down: nothing below the floor of 1
    assertThat(few.rates()).isEqualTo(4);
    assertThat(few.probes()).isEqualTo(4);
  }

  /** The search on a server that meets the objective below {@code capacity} and fails above. */
  static int ratesTried(CapacitySearch.Options o, double capacity) throws InterruptedException {
    CapacityResult r =
        CapacitySearch.search(
            P99,
            o,
            rate ->
                new CapacityResult.Measured(
                    rate, rate, 2000, Map.of("p99", rate < capacity ? 1.0 : 500.0), 0, null));
    return r.probes().size(); // sharp: no probe is near the bound, so one probe a rate
  }

  @Test
  void theSearchNeverTriesMoreRatesThanThePlanSaysAndCanTryThatMany() throws Exception {
    double[][] cases = {{10, 100, 5}, {10, 1000, 5}, {7, 300, 1}, {50, 50, 5}, {3, 97, 20}};
    for (double[] c : cases) {
      CapacitySearch.Options o = CapacitySearch.Options.of(c[0], c[1], c[2], 1000);
      ProbePlan plan = ProbePlan.of(P99, o, FIVE, FIVE);
      int most = 0;
      for (double capacity = 0.01; capacity <= c[1] * 1.5; capacity *= 1.002) {
        most = Math.max(most, ratesTried(o, capacity));
      }
      assertThat(most)
          .as("start %s, max %s, tolerance %s %%", c[0], c[1], c[2])
          .isEqualTo(plan.rates());
    }
  }
}
