package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.solrscale.results.TimelineRow;

/** Chart inputs at the warm-up boundary and at the end: no partial second drawn as a whole one. */
class SecondsTest {
  static TimelineRow row(double second, boolean warm, long requests, double seconds) {
    return new TimelineRow(
        second, warm, requests, 0, requests / seconds, 5, 9, 12, 4, 8, requests * 100, seconds);
  }

  /**
   * A closed loop of 2 threads at 30 requests a second: the warm-up ends 5 s in, the run 10.05 s
   * in.
   */
  static List<TimelineRow> timeline() {
    List<TimelineRow> rows = new ArrayList<>();
    for (int s = 0; s < 5; s++) {
      rows.add(row(s, true, 30, 1));
    }
    rows.add(row(5, true, 2, 1)); // the two requests in flight when the warm-up ended
    rows.add(row(5, false, 28, 1));
    for (int s = 6; s < 10; s++) {
      rows.add(row(s, false, 30, 1));
    }
    rows.add(row(10, false, 1, 0.05)); // the run ended 50 ms into this second
    return rows;
  }

  @Test
  void theSecondTheWarmupEndedInIsOneSecondAndALastPartSecondIsLeftOut() {
    List<TimelineRow> s = Seconds.of(timeline());
    assertThat(s).hasSize(10);
    assertThat(s).extracting(TimelineRow::qps).containsOnly(30.0);
    assertThat(s.get(5).warmup()).isFalse();
    assertThat(s.get(5).requests()).isEqualTo(30);
    assertThat(s.get(4).warmup()).isTrue();
  }

  @Test
  void theColdStartCurveHasNoSpikeAtTheBoundary() {
    // seconds per 1000 requests per thread, as the cold-start chart draws it
    double[] perThousand =
        Seconds.of(timeline()).stream().mapToDouble(r -> 1000 / r.qps() * 2).toArray();
    double max = Arrays.stream(perThousand).max().orElseThrow();
    double min = Arrays.stream(perThousand).min().orElseThrow();
    assertThat(max / min).isLessThan(1.01); // the raw rows gave 1000 s against 67 s
    double raw = timeline().stream().mapToDouble(r -> 1000 / r.qps() * 2).max().orElseThrow();
    assertThat(raw).isGreaterThan(900); // the artefact the merge removes
  }
}
