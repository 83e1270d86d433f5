package org.solrscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UslTest {
  /** Capacities at N = 1..8 from the law, each times (1 + noise), noise uniform in +-amplitude. */
  static double[][] points(double lambda, double sigma, double kappa, double amplitude, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] n = new double[8];
    double[] x = new double[8];
    for (int i = 0; i < 8; i++) {
      n[i] = i + 1;
      x[i] = Usl.capacity(lambda, sigma, kappa, n[i]) * (1 + (r.nextDouble() * 2 - 1) * amplitude);
    }
    return new double[][] {n, x};
  }

  @Test
  void recoversSigmaAndKappaFromPointsOfTheLawWithPlantedNoise() {
    for (long seed = 1; seed <= 5; seed++) {
      double[][] p = points(120, 0.06, 0.004, 0.02, seed);
      Usl.Fit f = Usl.fit(p[0], p[1]);
      assertThat(f.ok()).as(f.refused()).isTrue();
      assertThat(f.sigma()).as("seed %d", seed).isCloseTo(0.06, within(0.03));
      assertThat(f.kappa()).as("seed %d", seed).isCloseTo(0.004, within(0.003));
      // the optimiser's minimum is at least as good as the law's own parameters on these points
      double fitted = 0;
      double planted = 0;
      for (int i = 0; i < 8; i++) {
        fitted += Math.pow(p[1][i] - f.at(p[0][i]), 2);
        planted += Math.pow(p[1][i] - Usl.capacity(120, 0.06, 0.004, p[0][i]), 2);
      }
      assertThat(fitted).as("seed %d", seed).isLessThanOrEqualTo(planted * (1 + 1e-9));
      assertThat(f.lambda()).isCloseTo(120, within(8.0));
      assertThat(f.relativeRms()).isLessThan(0.03);
      assertThat(f.note()).isNull();
    }
  }

  @Test
  void exactPointsGiveTheLawBackAndTheHeldOutLargestNIsPredicted() {
    double[][] p = points(100, 0.1, 0.01, 0, 1);
    Usl.Fit f = Usl.fit(p[0], p[1]);
    assertThat(f.sigma()).isCloseTo(0.1, within(1e-4));
    assertThat(f.kappa()).isCloseTo(0.01, within(1e-5));
    assertThat(f.peakN()).isCloseTo(Math.sqrt(0.9 / 0.01), within(0.01));
    Usl.Holdout h = Usl.holdout(p[0], p[1]);
    assertThat(h.n()).isEqualTo(8);
    assertThat(h.errorPct()).isCloseTo(0, within(0.01));
    assertThat(h.measured()).isCloseTo(Usl.capacity(100, 0.1, 0.01, 8), within(1e-9));
  }

  @Test
  void linearScalingHasNoPeakAndNoCoherencyCost() {
    double[] n = {1, 2, 4, 8};
    double[] x = {50, 100, 200, 400};
    Usl.Fit f = Usl.fit(n, x);
    assertThat(f.ok()).isTrue();
    assertThat(f.sigma()).isCloseTo(0, within(1e-6));
    assertThat(f.kappa()).isCloseTo(0, within(1e-6));
    assertThat(f.peakN()).isNull();
    assertThat(f.at(16)).isCloseTo(800, within(0.01));
  }

  @Test
  void twoNodeCountsAreRefusedAndThreeAreAnExactFitThatSaysSo() {
    Usl.Fit two = Usl.fit(new double[] {1, 2, 2}, new double[] {50, 90, 92});
    assertThat(two.ok()).isFalse();
    assertThat(two.refused())
        .isEqualTo(
            "a fit of the scalability law needs capacities at 3 or more values of N; there are 2");
    assertThat(two.sigma()).isNull();
    Usl.Fit three = Usl.fit(new double[] {1, 2, 4}, new double[] {50, 90, 150});
    assertThat(three.ok()).isTrue();
    assertThat(three.note()).contains("three values of N for three parameters");
    assertThat(Usl.holdout(new double[] {1, 2, 4}, new double[] {50, 90, 150}).refused())
        .contains("needs capacities at 3 or more values of N; there are 2");
  }

  @Test
  void noiseLargerThanTheLawCanExplainIsRefused() {
    double[] n = {1, 2, 3, 4, 5, 6};
    double[] x = {100, 40, 180, 30, 210, 20};
    Usl.Fit f = Usl.fit(n, x);
    assertThat(f.ok()).isFalse();
    assertThat(f.refused()).startsWith("the data do not support a fit").endsWith("too much noise");
  }
}
