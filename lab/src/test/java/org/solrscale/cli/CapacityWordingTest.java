package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.capacity.CapacitySearch;
import org.solrscale.capacity.ProbePlan;
import org.solrscale.results.CapacityResult;
import org.solrscale.spec.Slo;

/** What `capacity` says: its plan before the first probe, its objective and how it ended. */
class CapacityWordingTest {
  static final Slo P99 = Slo.parse("p99<50ms");

  static List<String> plan(CapacitySearch.Options o) {
    ProbePlan p = ProbePlan.of(P99, o, Duration.ofSeconds(5), Duration.ofSeconds(5));
    return CapacityCommand.plan(p, P99, o);
  }

  @Test
  void theClosedLoopThatChoseTheStartIsToldInOneLine() {
    assertThat(
            CapacitySearch.rampLine(
                new org.solrscale.results.CapacityResult.Ramp(16, 3.01, 846.5, 48.9, 630)))
        .isEqualTo(
            "closed loop of 16 threads: 847 requests/s over 3.0 s (p99 48.9 ms); starting at 75 %"
                + " of it, 630 requests/s");
    assertThat(
            CapacitySearch.rampLine(
                new org.solrscale.results.CapacityResult.Ramp(0, 0, 0, null, 12.5)))
        .isEqualTo("start: 12.5 requests/s, the replayed log's own rate");
  }

  @Test
  void thePlanSaysHowLongTheFirstProbeTakesAndHowManyProbesMayFollow() {
    List<String> lines = plan(CapacitySearch.Options.of(10.0, null, 5, 24));
    assertThat(lines.get(0))
        .isEqualTo(
            "objective: p99<50ms (no errors); a probe measures at least 1,522 requests for"
                + " its p99");
    assertThat(lines.get(1))
        .isEqualTo(
            "first probe: 10 requests/s, 50 warm-up + 1,540 measured requests, 2 min 39 s"
                + " (faster rates take less time)");
    assertThat(lines.get(2))
        .contains("no --max-rate the number of doublings depends on the capacity")
        .contains("at most 5 rates of bisection to within 5 %")
        .contains("at most 24 probes (--max-probes)");
    List<String> bounded = plan(CapacitySearch.Options.of(10.0, 100.0, 5, 24));
    assertThat(bounded.get(2))
        .startsWith("then: doubling up to --max-rate 100")
        .contains("at most 10 rates and 24 probes")
        .contains("--max-probes 24 caps it");
  }

  static CapacityResult search(CapacitySearch.Options o, double capacity, String driver)
      throws InterruptedException {
    return CapacitySearch.search(
        P99,
        o,
        rate ->
            new CapacityResult.Measured(
                rate,
                rate,
                2000,
                Map.of("p50", 1.0, "p99", rate < capacity ? 1.0 : 500.0),
                0,
                driver));
  }

  @Test
  void aSearchStoppedByTheMaximumRateSaysSoInWords() throws Exception {
    CapacitySearch.Options o = CapacitySearch.Options.of(10.0, 10.0, 5, 24);
    assertThat(CapacityCommand.verdict(search(o, 1e9, null), o))
        .isEqualTo("capacity: at least 10.0 requests/s: --max-rate 10 met the objective");
  }

  @Test
  void everyOtherEndingReadsAsPlainWords() throws Exception {
    CapacitySearch.Options o = CapacitySearch.Options.of(10.0, null, 5, 24);
    assertThat(CapacityCommand.verdict(search(o, 0.1, null), o))
        .isEqualTo(
            "capacity: none: even 0.625 requests/s, the lowest rate tried, failed the objective"
                + " (p99 500 ms >= 50 ms)");
    assertThat(CapacityCommand.verdict(search(o, 1e9, "driver: 95 % CPU"), o))
        .isEqualTo(
            "capacity: unknown: the driver, not Solr, could not keep up at 10 requests/s (driver:"
                + " 95 % CPU); give the driver more CPU or run it on another host");
    assertThat(CapacityCommand.verdict(search(o, 100, null), o))
        .startsWith(
            "capacity: 97.5 requests/s (between 97.5 and 100.0): 97.5 requests/s met the"
                + " objective and 100 did not")
        .endsWith("within --tolerance 5 %");
    CapacitySearch.Options few = CapacitySearch.Options.of(10.0, null, 5, 3);
    assertThat(CapacityCommand.verdict(search(few, 1e9, null), few))
        .isEqualTo(
            "capacity: at least 40.0 requests/s: --max-probes 3 ran out before a rate failed the"
                + " objective");
    for (String v :
        List.of(
            CapacityCommand.verdict(search(o, 0.1, null), o),
            CapacityCommand.verdict(search(o, 1e9, "driver"), o))) {
      assertThat(v).doesNotContain("?").doesNotContain("errors<0");
    }
  }

  @Test
  void anEmptyOrRepeatedSloTermIsOneLineAndExitCode2() {
    for (String slo : List.of("p99<50ms,,", "p99<50ms,p99<80ms")) {
      PrintStream err = System.err;
      ByteArrayOutputStream buffer = new ByteArrayOutputStream();
      int code;
      try {
        System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        code =
            Main.run(
                "capacity",
                "--url",
                "http://127.0.0.1:9/solr",
                "--collection",
                "c",
                "--queries",
                "none.txt",
                "--slo",
                slo);
      } finally {
        System.setErr(err);
      }
      String said = buffer.toString(StandardCharsets.UTF_8).strip();
      assertThat(code).as(said).isEqualTo(2);
      assertThat(said.lines()).as(said).hasSize(1);
      assertThat(said).startsWith("solrscale: slo '" + slo + "'");
    }
  }
}
