package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SettlingTest {
  /** 100 requests a second: requests done by the end of each second. */
  static double[] done(int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = 100.0 * (i + 1);
    }
    return d;
  }

  @Test
  void aColdStartSettlesWhereItsFiveSecondMediansStayNearTheLastQuartersLevel() {
    // 2 s per 1000 requests at first, falling to 0.5 by second 8, then 0.5 with a lone spike
    double[] per1000 = {
      2.0, 1.8, 1.6, 1.4, 1.2, 1.0, 0.8, 0.7, 0.5, 0.5, 0.55, 0.5, 3.0, 0.5, 0.45, 0.5, 0.5, 0.5,
      0.5, 0.5
    };
    Settling s = Settling.of(done(per1000.length), per1000);
    assertThat(s.settled()).isTrue();
    assertThat(s.level()).isEqualTo(0.5);
    assertThat(s.firstPer1000()).isEqualTo(2.0);
    // the window from second 6 (0.8, 0.7, 0.5, 0.5, 0.55) has a median of 0.55, within 20 %; the
    // one from second 5 (1.0, 0.8, 0.7, 0.5, 0.5) has 0.7; the lone spike is outvoted
    assertThat(s.seconds()).isEqualTo(6);
    assertThat(s.requests()).isEqualTo(600);
  }

  @Test
  void aCurveStillFallingAtItsEndIsNotShownToSettle() {
    double[] per1000 = new double[16];
    for (int i = 0; i < per1000.length; i++) {
      per1000[i] = 2.0 - 0.12 * i;
    }
    Settling s = Settling.of(done(per1000.length), per1000);
    assertThat(s.settled()).isFalse();
    assertThat(ColdStartSection.settling("cold", s, 1600, 1, true))
        .startsWith("cold: did not settle within its 1,600 requests: 2.00 s per 1000 requests");
  }

  @Test
  void tooShortACurveSaysNothing() {
    assertThat(Settling.of(done(5), new double[] {1, 1, 1, 1, 1})).isNull();
  }
}
