package org.solrscale.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;

class StatisticsTest {
  @Test
  void exactPOfCompletelySeparatedSmallSamples() {
    // 4 and 4: 2 of the 70 orderings are as extreme
    assertThat(Statistics.mannWhitneyP(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}))
        .isCloseTo(2.0 / 70, within(1e-12));
    // 2 and 2 can never reach 0.05
    assertThat(Statistics.mannWhitneyP(new double[] {1, 2}, new double[] {3, 4})).isCloseTo(1.0 / 3, within(1e-12));
    assertThat(Statistics.mannWhitneyP(new double[] {1, 3, 5}, new double[] {2, 4, 6})).isGreaterThan(0.5);
  }

  @Test
  void largeSamplesAgreeWithCommonsMath() {
    SplittableRandom r = new SplittableRandom(1);
    double[] a = new double[50];
    double[] b = new double[60];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextDouble();
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = r.nextDouble() + 0.2;
    }
    assertThat(Statistics.mannWhitneyP(a, b)).isEqualTo(new MannWhitneyUTest().mannWhitneyUTest(a, b));
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
    assertThat(Statistics.compare(new double[] {0, 0, 0}, new double[] {0, 0, 0}).p()).isEqualTo(1.0);
  }
}
