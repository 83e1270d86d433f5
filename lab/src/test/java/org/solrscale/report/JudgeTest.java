package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JudgeTest {
  /** Per-second values at two levels, about 100 and 150: the first {@code low} at 100. */
  private static double[] twoLevels(int n, int low, double offset) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = (i < low ? 100 : 150) + i * 0.1 + offset;
    }
    return v;
  }

  @Test
  void aRankTestBelowAlphaWithAnIntervalAcrossZeroIsNoVerdict() {
    // A: 13 seconds near 100 and one near 150; B: 4 near 100 and 10 near 150. The rank test sees
    // the shift (p just under 0.05) and the medians are half apart, but the bootstrap's medians
    // land on either level, so the change's interval reaches below 0: the methods disagree
    Comparison.MetricDelta d =
        Judge.judge(Metric.QPS, twoLevels(14, 13, 0), twoLevels(14, 4, 0.05), null, null);
    assertThat(d.p()).isLessThan(Judge.ALPHA);
    assertThat(d.deltaPct()).isGreaterThan(40);
    assertThat(d.ciLowPct()).isLessThanOrEqualTo(0);
    assertThat(d.ciHighPct()).isPositive();
    assertThat(d.verdict()).isEqualTo("no significant difference");
    assertThat(d.note()).isEqualTo("p < 0.05, but the change's 95 % interval spans 0");
    assertThat(d.regression()).isFalse();
    // all of B above all of A: both methods agree
    Comparison.MetricDelta clear =
        Judge.judge(Metric.QPS, twoLevels(14, 13, 0), twoLevels(14, 13, 60), null, null);
    assertThat(clear.ciLowPct()).isPositive();
    assertThat(clear.verdict()).isEqualTo("faster");
  }
}
