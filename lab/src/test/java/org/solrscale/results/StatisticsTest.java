package org.solrscale.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StatisticsTest {
  @Test
  void exactPOfCompletelySeparatedSmallSamples() {
    // 4 and 4: 2 of the 70 orderings are as extreme
    assertThat(Statistics.mannWhitneyP(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}))
        .isCloseTo(2.0 / 70, within(1e-12));
    // 2 and 2 can never reach 0.05
    assertThat(Statistics.mannWhitneyP(new double[] {1, 2}, new double[] {3, 4}))
        .isCloseTo(1.0 / 3, within(1e-12));
    assertThat(Statistics.mannWhitneyP(new double[] {1, 3, 5}, new double[] {2, 4, 6}))
        .isGreaterThan(0.5);
  }

  @Test
  void largeSamplesGiveTheNormalApproximationsP() {
    SplittableRandom r = new SplittableRandom(1);
    double[] a = new double[50];
    double[] b = new double[60];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextDouble();
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = r.nextDouble() + 0.2;
    }
    // computed here from the definition, not by the library the implementation calls: U counts
    // the pairs A wins; without ties its variance is n1 n2 (n1 + n2 + 1) / 12
    long u = 0;
    for (double x : a) {
      for (double y : b) {
        if (x > y) {
          u++;
        }
      }
    }
    double mean = a.length * b.length / 2.0;
    double sd = Math.sqrt(a.length * b.length * (a.length + b.length + 1) / 12.0);
    double z = Math.abs(u - mean) / sd;
    double expected = 2 * (1 - phi(z));
    assertThat(Statistics.mannWhitneyP(a, b)).isCloseTo(expected, within(1e-6));
    assertThat(expected).isLessThan(0.05); // the planted shift is found
  }

  /** The standard normal CDF, from Abramowitz and Stegun's erf 7.1.26 (error below 1.5e-7). */
  static double phi(double z) {
    double x = z / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * x);
    double erf =
        1
            - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
                    + 0.254829592)
                * t
                * Math.exp(-x * x);
    return 0.5 * (1 + erf);
  }

  @Test
  void bootstrapIntervalCoversAPlantedShift() {
    SplittableRandom r = new SplittableRandom(2);
    double[] a = new double[40];
    double[] b = new double[40];
    for (int i = 0; i < a.length; i++) {
      a[i] = 10 * Math.exp(0.2 * (r.nextDouble() - 0.5));
      b[i] = 13 * Math.exp(0.2 * (r.nextDouble() - 0.5));
    }
    Statistics.Difference d = Statistics.compare(a, b);
    assertThat(d.relative()).isCloseTo(0.3, within(0.05));
    assertThat(d.ciLow()).isLessThan(0.3).isGreaterThan(0.2);
    assertThat(d.ciHigh()).isGreaterThan(0.3).isLessThan(0.4);
    assertThat(d.p()).isLessThan(1e-6);
  }

  @Test
  void zeroBaselines() {
    assertThat(Statistics.relative(0, 0)).isZero();
    assertThat(Statistics.relative(0, 3)).isInfinite();
    assertThat(Statistics.compare(new double[] {0, 0, 0}, new double[] {0, 0, 0}).p())
        .isEqualTo(1.0);
  }
}
