package org.solrscale.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SeenIdsTest {
  @Test
  void anIdReadBeforeIsAlwaysAMaybeAndNewOnesAreMostlyCertain() {
    SeenIds seen = new SeenIds(400_000_000, 1L << 30);
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
    // 2^27 bits (the most) for 500,000 ids: about 268 bits each; a false "maybe" is a rare extra
    // look-up
    assertThat(seen.bits()).isEqualTo(1L << 27);
    assertThat(wrongMaybes).isLessThan(50); // under 0.01 %
  }

  @Test
  void aSmallInputGetsASmallFilterThatFillsUpWithoutEverSayingNoWrongly() {
    SeenIds seen = new SeenIds(10, 1L << 30);
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
    assertThat(new SeenIds(6_000_000, 1L << 30).bits()).isEqualTo(1L << 22);
    // a small heap bounds it: at most the bytes given (a 16th of the heap by default)
    assertThat(new SeenIds(400_000_000, 1 << 20).bits()).isEqualTo(1L << 23);
    assertThat(new SeenIds(400_000_000, (1 << 20) + 5).bits()).isEqualTo(1L << 23);
  }
}
