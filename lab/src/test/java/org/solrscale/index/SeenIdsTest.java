package org.solrscale.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SeenIdsTest {
  @Test
  void anIdReadBeforeIsAlwaysAMaybeAndNewOnesAreMostlyCertain() {
    SeenIds seen = new SeenIds(100_000_000);
    int n = 500_000;
    int wrongMaybes = 0;
    for (int i = 0; i < n; i++) {
      if (seen.add("doc-" + i)) {
        wrongMaybes++;
      }
    }
    for (int i = 0; i < n; i++) {
      assertThat(seen.add("doc-" + i)).as("doc-" + i).isTrue(); // never a wrong "no"
    }
    // 2^27 bits for 500,000 ids: about 270 bits each; a false "maybe" is a rare extra look-up
    assertThat(seen.bits()).isEqualTo(1L << 27);
    assertThat(wrongMaybes).isLessThan(5);
  }

  @Test
  void aSmallInputGetsASmallFilterThatFillsUpWithoutEverSayingNoWrongly() {
    SeenIds seen = new SeenIds(10);
    assertThat(seen.bits()).isEqualTo(1L << 16);
    assertThat(seen.add("a")).isFalse();
    assertThat(seen.add("a")).isTrue();
    // far more ids than the filter was sized for: more maybes, still no wrong "no"
    for (int i = 0; i < 200_000; i++) {
      seen.add("x" + i);
    }
    for (int i = 0; i < 200_000; i += 997) {
      assertThat(seen.add("x" + i)).isTrue();
    }
    assertThat(new SeenIds(3_000_000).bits()).isEqualTo(1L << 22);
  }
}
