package org.solrscale.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class IndexOptionsTest {
  @Test
  void commitPolicies() {
    assertThat(IndexOptions.parseCommit("end")).isEqualTo(IndexOptions.COMMIT_AT_END);
    assertThat(IndexOptions.parseCommit("none")).isEqualTo(IndexOptions.NO_COMMIT);
    assertThat(IndexOptions.parseCommit("every 1000")).isEqualTo(1000);
    assertThat(IndexOptions.parseCommit("every5")).isEqualTo(5);
    assertThat(IndexOptions.parseCommit("250")).isEqualTo(250);
    assertThatThrownBy(() -> IndexOptions.parseCommit("every 0"))
        .hasMessageContaining("not end, none");
    assertThatThrownBy(() -> IndexOptions.parseCommit("sometimes"))
        .hasMessageContaining("not end, none");
  }

  static IndexOptions with(int threads, int batch, int attempts) {
    return new IndexOptions(
        List.of(), null, "c", threads, batch, 0, null, Path.of("r.jsonl"), attempts);
  }

  @Test
  void threadsBatchAndRetriesAreBoundedWithAOneLineError() {
    assertThat(with(256, 100_000, 101).threads()).isEqualTo(256);
    assertThatThrownBy(() -> with(100_000, 10, 1))
        .hasMessage(
            "--threads 100000 is out of range: give 1 to 256 (the default is the number of cores)");
    assertThatThrownBy(() -> with(0, 10, 1)).hasMessageContaining("--threads 0 is out of range");
    assertThatThrownBy(() -> with(2, 100_001, 1))
        .hasMessageContaining("--batch 100001 is out of range");
    assertThatThrownBy(() -> with(2, 10, 102))
        .hasMessageContaining("--retries 101 is out of range");
    assertThatThrownBy(() -> with(2, 10, 0)).hasMessageContaining("--retries -1 is out of range");
  }
}
