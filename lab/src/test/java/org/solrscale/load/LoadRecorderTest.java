package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadRecorderTest {
  static final long S = 1_000_000_000L;

  @Test
  void aSecondWithoutAnswersIsInThePhaseItBeganIn() {
    LoadRecorder r = new LoadRecorder(0);
    QueryRequest q = new QueryRequest("/select", "q=x", "t", "f");
    // the warm-up runs to 3 s; nothing answers in its first second
    assertThat(r.roll(S, 3 * S)).extracting(Interval::warmup).containsExactly(true);
    r.record(q, S, S, S + S / 2, Outcome.ok(200, 10, 1), true);
    assertThat(r.roll(2 * S, 3 * S)).extracting(Interval::warmup).containsExactly(true);
    assertThat(r.roll(3 * S, 3 * S)).extracting(Interval::warmup).containsExactly(true);
    // the measured time: an empty second is measured, and a second with both holds both
    assertThat(r.roll(4 * S, 3 * S)).extracting(Interval::warmup).containsExactly(false);
    r.record(q, 3 * S, 3 * S, 4 * S + 1, Outcome.ok(200, 10, 1), true);
    r.record(q, 4 * S, 4 * S, 4 * S + 2, Outcome.partial(200, 10, 1), false);
    List<Interval> both = r.roll(5 * S, 3 * S);
    assertThat(both).extracting(Interval::warmup).containsExactly(true, false);
    assertThat(both).extracting(Interval::count).containsExactly(1L, 1L);
    assertThat(r.partial()).isEqualTo(1);
  }
}
