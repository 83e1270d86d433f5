package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** The objective reads as the user wrote it, and a term that is empty or repeated is refused. */
class SloTest {

  @Test
  void theDefaultErrorBoundReadsAsNoErrorsNeverAsErrorsBelowZero() {
    assertThat(Slo.parse("p99<50ms")).hasToString("p99<50ms (no errors)");
    assertThat(Slo.parse("p99<50ms,errors<0%")).hasToString("p99<50ms (no errors)");
    assertThat(Slo.parse("p99<0.2s,p50<20ms,errors<0.1%"))
        .hasToString("p50<20ms,p99<200ms,errors<0.1%");
    assertThat(Slo.parse("p99<50ms").toString()).doesNotContain("errors<0");
  }

  @Test
  void theSpecFormReadsBackAsTheSameObjective() {
    for (String s : new String[] {"p99<50ms", "p95<2s,errors<1%", "p50<10ms,max<1s,errors<0%"}) {
      Slo slo = Slo.parse(s);
      assertThat(Slo.parse(slo.spec())).as(s).isEqualTo(slo);
      assertThat(slo.spec()).doesNotContain("errors<0%").doesNotContain("no errors");
    }
    assertThat(Slo.parse("p99<50ms").spec()).isEqualTo("p99<50ms");
    assertThat(Slo.parse("p99<50ms,errors<0.1%").spec()).isEqualTo("p99<50ms,errors<0.1%");
  }

  @Test
  void anObjectiveWrittenByAnOlderVersionReadsTheNewWay() {
    assertThat(Slo.describe("p99<50ms,errors<0%")).isEqualTo("p99<50ms (no errors)");
    assertThat(Slo.describe("p99<50ms")).isEqualTo("p99<50ms (no errors)");
    assertThat(Slo.describe("not an objective")).isEqualTo("not an objective");
  }

  @Test
  void emptyTermsAreRefusedInOneUsageLine() {
    for (String s : new String[] {"p99<50ms,,", "p99<50ms,", ",p99<50ms", "p99<50ms,,errors<1%"}) {
      assertThat(refusal(s)).as(s).contains("has an empty term").contains("'" + s + "'");
    }
  }

  @Test
  void repeatedTermsAreRefusedInOneUsageLine() {
    assertThat(refusal("p99<50ms,p99<80ms")).contains("bounds p99 twice");
    assertThat(refusal("p99<50ms,P99 < 50ms")).contains("bounds p99 twice");
    assertThat(refusal("p99<50ms,errors<1%,errors<2%")).contains("bounds errors twice");
    assertThat(refusal("p99<0ms")).contains("p99<0ms is no bound; give a limit above 0");
    assertThat(refusal("p99<50ms,errors<100%")).contains("allows every request to fail");
  }

  static String refusal(String slo) {
    SolrscaleException e = catchThrowableOfType(() -> Slo.parse(slo), SolrscaleException.class);
    assertThat(e).as(slo).isNotNull();
    assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(e.getMessage()).doesNotContain("\n");
    return e.getMessage();
  }
}
