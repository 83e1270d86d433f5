package org.solrscale.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IndexOptionsTest {
  @Test
  void commitPolicies() {
    assertThat(IndexOptions.parseCommit("end")).isEqualTo(IndexOptions.COMMIT_AT_END);
    assertThat(IndexOptions.parseCommit("none")).isEqualTo(IndexOptions.NO_COMMIT);
    assertThat(IndexOptions.parseCommit("every 1000")).isEqualTo(1000);
    assertThat(IndexOptions.parseCommit("every5")).isEqualTo(5);
    assertThat(IndexOptions.parseCommit("250")).isEqualTo(250);
    assertThatThrownBy(() -> IndexOptions.parseCommit("every 0")).hasMessageContaining("not end, none");
    assertThatThrownBy(() -> IndexOptions.parseCommit("sometimes")).hasMessageContaining("not end, none");
  }
}
