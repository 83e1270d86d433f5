package org.solrscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.CapacityTarget;

class RecommendTest {
  static Recommend.Candidate c(String label, double nodes, double cap, double low, Double high) {
    return new Recommend.Candidate(label, new double[] {nodes}, cap, low, high, false);
  }

  @Test
  void theSmallestTopologyWhoseWholeIntervalServesTheRateIsChosen() {
    List<Recommend.Candidate> all =
        List.of(
            c("n4", 4, 900, 880, 920.0),
            c("n1", 1, 240, 230, 250.0),
            c("n2", 2, 520, 490, 540.0), // its mean serves 500, its lowest repeat does not
            c("n3", 3, 700, 690, 720.0),
            new Recommend.Candidate("n5 (predicted)", new double[] {5}, 1000, 900, 1100.0, true));
    Recommend.Result r = Recommend.recommend(500, all);
    assertThat(r.chosen().label()).isEqualTo("n3");
    assertThat(r.alternatives())
        .extracting(Recommend.Candidate::label)
        .containsExactly("n4", "n5 (predicted)");
    assertThat(r.closest()).isNull();
    Recommend.Result none = Recommend.recommend(5000, all);
    assertThat(none.chosen()).isNull();
    assertThat(none.closest().label()).isEqualTo("n5 (predicted)");
  }

  @Test
  void ofEqualSizeTheMeasuredAndThenTheHigherCapacityComeFirst() {
    List<Recommend.Candidate> all =
        List.of(
            new Recommend.Candidate("p", new double[] {2, 1}, 900, 800, 1000.0, true),
            new Recommend.Candidate("zk3", new double[] {2, 3}, 700, 650, 720.0, false),
            new Recommend.Candidate("zk1 low", new double[] {2, 1}, 600, 600, null, false),
            new Recommend.Candidate("zk1", new double[] {2, 1}, 650, 640, 660.0, false));
    assertThat(Recommend.recommend(100, all).chosen().label()).isEqualTo("zk1");
    // the alternatives are other topologies: the same size measured again (with other threads,
    // say) or predicted is none
    assertThat(Recommend.recommend(100, all).alternatives())
        .extracting(Recommend.Candidate::label)
        .containsExactly("zk3");
  }

  @Test
  void targetsParseWithOrWithoutAnObjectiveAndSayWhatIsWrong() {
    CapacityTarget t = CapacityTarget.parse("rate=500, p99<200ms");
    assertThat(t.rate()).isEqualTo(500);
    assertThat(t.slo().toString()).isEqualTo("p99<200ms (no errors)");
    assertThat(t).hasToString("rate=500,p99<200ms");
    assertThat(CapacityTarget.parse("rate = 12.5/s").slo()).isNull();
    assertThatThrownBy(() -> CapacityTarget.parse("p99<200ms"))
        .hasMessage("target 'p99<200ms' names no rate; give e.g. 'rate=500,p99<200ms'");
    assertThatThrownBy(() -> CapacityTarget.parse("rate=fast"))
        .hasMessage("target 'rate=fast': 'rate=fast' is no rate; write rate=500");
    assertThatThrownBy(() -> CapacityTarget.parse("rate=5,p98<1s"))
        .hasMessageStartingWith("slo 'p98<1s': 'p98<1s' is not a bound");
  }
}
