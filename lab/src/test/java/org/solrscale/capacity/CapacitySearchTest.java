package org.solrscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.solrscale.results.CapacityResult;
import org.solrscale.spec.Slo;

/**
 * The search on a model server whose p99 is known at every rate: 10 ms of service over (1 - rate /
 * 400), so p99 < 100 ms holds below 360 requests/s. (The search against a real server of known
 * capacity is CapacityIT's and the benchmark's.)
 */
class CapacitySearchTest {
  static final Slo SLO = Slo.parse("p99<100ms,errors<0.1%");

  static CapacityResult.Measured model(double rate, double noise, String driver, double errors) {
    double p99 = rate >= 400 ? 10_000 : 10 / (1 - rate / 400) * (1 + noise);
    return new CapacityResult.Measured(
        rate, Math.min(rate, 400), 2000, Map.of("p50", p99 / 3, "p99", p99), errors, driver);
  }

  /** A probe during which the server stalled: p99 far above any bound. */
  static CapacityResult.Measured stalled(double rate) {
    return new CapacityResult.Measured(
        rate, rate * 0.8, 2000, Map.of("p50", 155.0, "p99", 450.0), 0, null);
  }

  @Test
  void findsTheRateWhereTheModelsP99CrossesTheBoundWithinTheTolerance() throws Exception {
    CapacityResult r =
        CapacitySearch.search(
            SLO, CapacitySearch.Options.defaults(10, null), rate -> model(rate, 0, null, 0));
    assertThat(r.converged()).isTrue();
    assertThat(r.low()).isLessThan(360).isGreaterThan(360 / 1.05);
    assertThat(r.high()).isGreaterThanOrEqualTo(360);
    assertThat((r.high() - r.low()) / r.low()).isLessThanOrEqualTo(0.05);
    assertThat(r.capacity()).isEqualTo(r.low());
    // doubling from 10: 10, 20, ..., 640 (7 probes), then bisection between 320 and 640
    assertThat(r.probes().get(6).measured().rate()).isEqualTo(640);
    assertThat(r.probes().get(6).meets()).isFalse();
    assertThat(r.probes().get(6).why()).startsWith("p99 10000 ms >= 100 ms");
    assertThat(r.probes().size()).isLessThan(14);
    assertThat(r.requestsPerProbe()).isEqualTo(1522);
    assertThat(r.ended()).startsWith("converged: ");
  }

  @Test
  void startingNearTheAnswerWithTheSaturationAboveTakesFewerProbesForTheSameAnswer()
      throws Exception {
    // the model saturates at 400 requests/s, as a closed loop would find; the search starts at
    // 75 % of that and tries the saturation next instead of twice the start
    CapacitySearch.Options near = CapacitySearch.Options.defaults(10, null).startingAt(300, 400.0);
    CapacityResult r = CapacitySearch.search(SLO, near, rate -> model(rate, 0, null, 0));
    CapacityResult far =
        CapacitySearch.search(
            SLO, CapacitySearch.Options.defaults(10, null), rate -> model(rate, 0, null, 0));
    assertThat(r.probes().get(0).measured().rate()).isEqualTo(300);
    assertThat(r.probes().get(1).measured().rate()).isEqualTo(400);
    assertThat(r.converged()).isTrue();
    assertThat(r.low()).isLessThan(360).isGreaterThan(360 / 1.05);
    assertThat(Math.abs(r.capacity() - far.capacity()) / far.capacity()).isLessThanOrEqualTo(0.05);
    // 300, 400, then bisection of a third: 350, 375, 362.5 (p99 107 ms: near the bound, so
    // probed twice)
    assertThat(r.probes())
        .extracting(p -> p.measured().rate())
        .containsExactly(300.0, 400.0, 350.0, 375.0, 362.5, 362.5);
    assertThat(far.probes().size()).isGreaterThan(r.probes().size() + 4);
  }

  @Test
  void aStartFoundByTheClosedLoopThatFailsOnceIsProbedAgainAndTheMajorityDecides()
      throws Exception {
    // the first probe after the closed loop stalls (the loop's garbage collected there); the
    // same rate then meets twice, so the search goes on up from it instead of halving
    int[] calls = {0};
    CapacityResult r =
        CapacitySearch.search(
            SLO,
            CapacitySearch.Options.defaults(10, null).startingAt(300, 400.0),
            rate -> ++calls[0] == 1 ? stalled(rate) : model(rate, 0, null, 0));
    assertThat(r.probes())
        .extracting(p -> p.measured().rate())
        .startsWith(300.0, 300.0, 300.0, 400.0);
    assertThat(r.probes().get(2).meets()).isTrue();
    assertThat(r.low()).isGreaterThan(360 / 1.05);
    // an explicit start is not confirmed: one failure halves
    calls[0] = 0;
    CapacityResult plain =
        CapacitySearch.search(
            SLO,
            CapacitySearch.Options.defaults(300, null),
            rate -> ++calls[0] == 1 ? stalled(rate) : model(rate, 0, null, 0));
    assertThat(plain.probes().get(1).measured().rate()).isEqualTo(150);
  }

  @Test
  void probesNearTheBoundAreRepeatedAndTheMajorityDecides() throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    CapacityResult r =
        CapacitySearch.search(
            SLO,
            CapacitySearch.Options.defaults(10, null),
            rate -> model(rate, (random.nextDouble() * 2 - 1) * 0.08, null, 0));
    assertThat(r.probes()).anyMatch(p -> p.repeat() > 1);
    assertThat(r.probes()).allMatch(p -> p.repeat() <= 3);
    assertThat(r.low()).isBetween(320.0, 375.0);
  }

  @Test
  void aDriverThatCannotKeepUpEndsTheSearchAndSaysSo() throws Exception {
    CapacityResult r =
        CapacitySearch.search(
            SLO,
            CapacitySearch.Options.defaults(10, null),
            rate -> model(rate, 0, rate > 100 ? "driver: it used 190% CPU of 2 cores" : null, 0));
    assertThat(r.converged()).isFalse();
    assertThat(r.ended()).startsWith("driver-bound at 160 requests/s: driver: it used 190% CPU");
    assertThat(r.capacity()).isEqualTo(80);
    assertThat(r.high()).isNull();
  }

  @Test
  void errorsFailAProbeAndTheMaximumRateAndTheFloorEndTheSearch() throws Exception {
    CapacityResult errors =
        CapacitySearch.search(
            SLO,
            CapacitySearch.Options.defaults(10, null),
            rate -> model(rate, 0, null, rate >= 250 ? 0.02 : 0));
    assertThat(errors.high()).isLessThanOrEqualTo(262.5).isGreaterThanOrEqualTo(250);
    assertThat(errors.probes())
        .anyMatch(p -> p.why() != null && p.why().equals("errors 2 % > 0.1 %"));
    CapacityResult capped =
        CapacitySearch.search(
            SLO, CapacitySearch.Options.defaults(10, 100.0), rate -> model(rate, 0, null, 0));
    assertThat(capped.capacity()).isEqualTo(100);
    assertThat(capped.ended())
        .isEqualTo(
            "the maximum rate, 100 requests/s, met the objective: the capacity is at least that");
    CapacityResult never =
        CapacitySearch.search(
            SLO, CapacitySearch.Options.defaults(10, null), rate -> model(rate, 0, null, 0.5));
    assertThat(never.capacity()).isNull();
    assertThat(never.ended())
        .startsWith("even 0.625 requests/s failed the objective (errors 50 % > 0.1 %)");
  }

  @Test
  void theObjectiveParsesItsBoundsAndSaysWhatItAccepts() {
    Slo s = Slo.parse("p99<0.2s, p50 < 20ms, errors<0.5%");
    assertThat(s.latencyMs()).containsEntry("p99", 200.0).containsEntry("p50", 20.0);
    assertThat(s.maxErrorRate()).isEqualTo(0.005);
    assertThat(s.toString()).isEqualTo("p50<20ms,p99<200ms,errors<0.5%");
    assertThat(Slo.parse("p99.9<1s").requiredRequests()).isEqualTo(15352);
    assertThat(Slo.parse("p50<10ms").requiredRequests()).isEqualTo(200);
    assertThat(Slo.parse("p99<10ms").maxErrorRate()).isZero();
    assertThatThrownBy(() -> Slo.parse("p98<10ms"))
        .hasMessage(
            "slo 'p98<10ms': 'p98<10ms' is not a bound; give PERCENTILE<LIMIT (p50, p90, p95,"
                + " p99, p99.9 or max; ms or s) or errors<PCT%, comma-separated, e.g."
                + " 'p99<200ms,errors<0.1%'");
    assertThatThrownBy(() -> Slo.parse("errors<1%"))
        .hasMessage("slo 'errors<1%' bounds no latency; add one, e.g. p99<200ms");
  }
}
