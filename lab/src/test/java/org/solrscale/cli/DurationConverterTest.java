package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationConverterTest {
  private final DurationConverter c = new DurationConverter();

  @Test
  void parsesUnits() {
    assertThat(c.convert("90")).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.convert("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.convert("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.convert("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(c.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThatThrownBy(() -> c.convert("soon")).hasMessageContaining("not a duration");
  }
}
