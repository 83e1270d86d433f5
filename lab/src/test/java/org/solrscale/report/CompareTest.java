package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cli.Main;
import org.solrscale.results.RanOn;
import org.solrscale.results.RunSelection;
import org.solrscale.spec.SolrscaleException;

class CompareTest {
  @TempDir Path tmp;

  private Path run(String name, double slowdown, long seed, int repeats) throws Exception {
    return RunFixture.single(Files.createDirectories(tmp.resolve(name)), slowdown, seed, repeats);
  }

  private static Comparison.MetricDelta metric(Comparison c, String name) {
    return c.steps().stream() // the bench step's (an index step has only "indexing")
        .flatMap(s -> s.metrics().stream())
        .filter(m -> m.metric().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void flagsAPlanted30PercentSlowdown() throws Exception {
    Path a = run("a", 1.0, 1, 1);
    Path b = run("b", 1.3, 2, 1);
    Comparison c =
        Compare.compare(RunSelection.parse(a.toString()), RunSelection.parse(b.toString()));
    assertThat(c.steps()).hasSize(1);
    assertThat(c.steps().get(0).samples()).isEqualTo("per-second");
    for (String m : new String[] {"p50", "p99"}) {
      Comparison.MetricDelta d = metric(c, m);
      assertThat(d.verdict()).as(m).isEqualTo("slower");
      assertThat(d.regression()).isTrue();
      assertThat(d.deltaPct()).as(m).isBetween(20.0, 40.0);
      assertThat(d.ciLowPct()).isPositive();
      assertThat(d.p()).isLessThan(0.05);
    }
    assertThat(metric(c, "achieved QPS").verdict()).isEqualTo("slower");
    assertThat(metric(c, "errors").verdict()).isEqualTo("no significant difference");
    assertThat(c.regressedBeyond(10)).isTrue();
    assertThat(c.regressedBeyond(60)).isFalse();
    assertThat(Main.run("compare", a.toString(), b.toString(), "--fail-on-regression", "10"))
        .isEqualTo(1);
    assertThat(Main.run("compare", a.toString(), b.toString(), "--json")).isEqualTo(0);
  }

  /** compare prints the same metrics, values, changes and verdicts as text and with --json. */
  @Test
  void theTextSaysWhatTheJsonSays() throws Exception {
    Path a = run("ta", 1.0, 1, 1);
    Path b = run("tb", 1.3, 2, 1);
    String text = stdout("compare", a.toString(), b.toString());
    JsonNode json =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(stdout("compare", a.toString(), b.toString(), "--json"));
    assertThat(json.get("steps")).isNotEmpty();
    for (JsonNode s : json.get("steps")) {
      assertThat(text).contains(", step " + s.get("step").asText() + " (");
      for (JsonNode m : s.get("metrics")) {
        String name =
            m.get("metric").asText()
                + (m.get("unit").asText().isEmpty() ? "" : " (" + m.get("unit").asText() + ")");
        String line = text.lines().filter(l -> l.startsWith(name + " ")).findFirst().orElseThrow();
        assertThat(line).as(name).contains(m.get("verdict").asText());
        if (m.hasNonNull("delta_pct")) {
          assertThat(line)
              .as(name)
              .contains(
                  String.format(java.util.Locale.ROOT, "%+.1f%%", m.get("delta_pct").asDouble()));
        }
      }
    }
  }

  private static String stdout(String... args) {
    java.io.PrintStream old = System.out;
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try {
      System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
      assertThat(Main.run(args)).isZero();
      return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    } finally {
      System.setOut(old);
    }
  }

  @Test
  void theOtherWayRoundIsFaster() throws Exception {
    Comparison c =
        Compare.compare(
            RunSelection.parse(run("b", 1.3, 2, 1).toString()),
            RunSelection.parse(run("a", 1.0, 1, 1).toString()));
    assertThat(metric(c, "p50").verdict()).isEqualTo("faster");
    assertThat(metric(c, "p50").regression()).isFalse();
    assertThat(c.regressedBeyond(0)).isFalse();
  }

  @Test
  void doesNotFlagTwoRepeatsOfTheSameRun() throws Exception {
    Path dir = run("same", 1.0, 7, 2);
    Comparison c =
        Compare.compare(RunSelection.parse(dir + "#c001/r1"), RunSelection.parse(dir + "#c001/r2"));
    assertThat(c.steps().get(0).metrics())
        .allSatisfy(
            m -> {
              assertThat(m.regression()).as(m.metric()).isFalse();
              assertThat(m.verdict()).as(m.metric()).isIn("no significant difference");
            });
    assertThat(Main.run("compare", dir + "#c001/r1", dir + "#c001/r2", "--fail-on-regression", "0"))
        .isZero();
  }

  @Test
  void doesNotFlagTwoRunsOfTheSameScenario() throws Exception {
    for (long seed = 10; seed < 15; seed++) {
      Comparison c =
          Compare.compare(
              RunSelection.parse(run("x" + seed, 1.0, seed, 1).toString()),
              RunSelection.parse(run("y" + seed, 1.0, seed + 100, 1).toString()));
      assertThat(c.regressions()).as("seed " + seed).isZero();
    }
  }

  @Test
  void usesRepeatsWhenBothSidesHaveEnough() throws Exception {
    Comparison c =
        Compare.compare(
            RunSelection.parse(run("a", 1.0, 1, 4).toString()),
            RunSelection.parse(run("b", 1.3, 50, 4).toString()));
    assertThat(c.steps().get(0).samples()).isEqualTo("repeats");
    // the index steps too: 4 repeats a side are samples enough without per-second progress
    assertThat(c.steps()).extracting(Comparison.StepDelta::step).containsExactly("load", "search");
    assertThat(metric(c, "p50").nA()).isEqualTo(4);
    assertThat(metric(c, "p50").verdict()).isEqualTo("slower");
  }

  @Test
  void twoRepeatsEachUsePerSecondValuesAndNeedSeparatedRepeats() throws Exception {
    Comparison c =
        Compare.compare(
            RunSelection.parse(run("a", 1.0, 1, 2).toString()),
            RunSelection.parse(run("b", 1.3, 50, 2).toString()));
    assertThat(c.steps().get(0).samples()).isEqualTo("per-second, repeats must not overlap");
    assertThat(metric(c, "p99").verdict()).isEqualTo("slower");
  }

  @Test
  void matchesCombinationsOfTwoSweepsByParameters() throws Exception {
    Path a = RunFixture.sweep(Files.createDirectories(tmp.resolve("s1")));
    Path b = RunFixture.sweep(Files.createDirectories(tmp.resolve("s2")));
    Comparison c =
        Compare.compare(RunSelection.parse(a.toString()), RunSelection.parse(b.toString()));
    assertThat(c.steps()).hasSize(6);
    assertThat(c.onlyInA()).isEmpty();
    assertThat(c.regressions()).isZero();
  }

  @Test
  void errorsAreOneLine() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    assertThatThrownBy(
            () ->
                Compare.compare(
                    RunSelection.parse(empty.toString()), RunSelection.parse(empty.toString())))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage(
            empty
                + " is not a solrscale run: results.json missing; run: solrscale run SCENARIO --out "
                + empty);
    Path a = run("a", 1.0, 1, 1);
    assertThatThrownBy(
            () ->
                Compare.compare(RunSelection.parse(a + "#c009"), RunSelection.parse(a.toString())))
        .hasMessageContaining("has no combination c009; it has c001");
    assertThat(Main.run("compare", empty.toString(), a.toString())).isEqualTo(2);
  }

  @Test
  void failedMeasurementsAreLeftOutWithAReason() throws Exception {
    Path a = RunFixture.allNotFound(Files.createDirectories(tmp.resolve("a")));
    Path b = RunFixture.allNotFound(Files.createDirectories(tmp.resolve("b")));
    Comparison c =
        Compare.compare(RunSelection.parse(a.toString()), RunSelection.parse(b.toString()));
    assertThat(c.steps())
        .extracting(Comparison.StepDelta::a)
        .containsExactly(a + "#c001"); // only the measured one
    assertThat(c.leftOut())
        .hasSize(4)
        .anySatisfy(w -> assertThat(w).startsWith("A c002 r1 (threads=2): failed:"))
        .anySatisfy(w -> assertThat(w).startsWith("B c003 r1 step search: measured nothing"));
    assertThatThrownBy(
            () -> Compare.compare(RunSelection.parse(a + "#c002"), RunSelection.parse(b + "#c002")))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining(
            "no finished index, bench or capacity step of the same name to compare; left out as no measurement: "
                + "A c002 r1 (threads=2): failed:");
  }

  @Test
  void byVersionJudgesEachVersionAgainstTheFirstWithinOneRun() throws Exception {
    Path run = RunFixture.versions(Files.createDirectories(tmp.resolve("upgrade")));
    Comparison c = Compare.byParam(RunSelection.parse(run.toString()), "solr_version");
    assertThat(c.a()).isEqualTo(run + " solr_version=9.8.1");
    assertThat(c.b()).isEqualTo(run + " solr_version=9.10.1");
    assertThat(c.steps()).extracting(Comparison.StepDelta::step).containsExactly("load", "search");
    Comparison.StepDelta index = c.steps().get(0);
    assertThat(index.a()).isEqualTo(run + "#c001");
    assertThat(index.b()).isEqualTo(run + "#c002");
    assertThat(index.samples()).isEqualTo("repeats");
    assertThat(index.metrics()).hasSize(1);
    assertThat(index.metrics().get(0).metric()).isEqualTo("indexing");
    assertThat(index.metrics().get(0).verdict()).isEqualTo("no significant difference");
    Comparison.StepDelta search = c.steps().get(1);
    assertThat(search.label()).isEqualTo("solr_version=9.8.1 vs 9.10.1");
    assertThat(search.samples()).isEqualTo("repeats");
    Comparison.MetricDelta p50 =
        search.metrics().stream().filter(m -> m.metric().equals("p50")).findFirst().orElseThrow();
    assertThat(p50.verdict()).isEqualTo("slower");
    assertThat(p50.deltaPct()).isBetween(35.0, 65.0);
    // the same as comparing the two combinations by name
    Comparison byName =
        Compare.compare(RunSelection.parse(run + "#c001"), RunSelection.parse(run + "#c002"));
    assertThat(byName.steps().get(1).metrics()).isEqualTo(search.metrics());
    assertThatThrownBy(() -> Compare.byParam(RunSelection.parse(run.toString()), "heap"))
        .hasMessage(run + " does not sweep heap; it sweeps cluster.solr_version");
    assertThat(Main.run("compare", run.toString(), "--by", "cluster.solr_version", "--json"))
        .isZero();
    assertThat(Main.run("compare", run.toString())).isEqualTo(2);
    assertThat(Main.run("compare", run.toString(), run.toString(), "--by", "solr_version"))
        .isEqualTo(2);
  }

  /** A run of one combination (2 nodes) whose capacity step found factor x the law's capacity. */
  private Path capacities(String name, int repeats, double factor, long seed) throws Exception {
    return RunFixture.capacities(
        Files.createDirectories(tmp.resolve(name)),
        new int[] {2},
        new int[] {1},
        repeats,
        null,
        factor,
        seed);
  }

  private static Comparison compare(Path a, Path b) {
    return Compare.compare(RunSelection.parse(a.toString()), RunSelection.parse(b.toString()));
  }

  @Test
  void aCapacityStepIsJudgedByItsIntervalsAndRepeats() throws Exception {
    // four searches a side, each against a server following the law (2 % noise); B's is 1.3 times
    // as fast
    Path a = capacities("a", 4, 1.0, 1);
    Path b = capacities("b", 4, 1.3, 2);
    Comparison c = compare(a, b);
    assertThat(c.steps()).hasSize(1);
    Comparison.StepDelta s = c.steps().get(0);
    assertThat(s.step()).isEqualTo("cap");
    assertThat(s.samples())
        .isEqualTo("capacity searches, intervals must not overlap, repeats by rank test");
    assertThat(s.repeatsA()).isEqualTo(4);
    Comparison.MetricDelta d = s.metrics().get(0);
    assertThat(d.metric()).isEqualTo("capacity");
    // the objective holds up to 0.9 of the law's capacity; each search ends within 5 % below it
    double x = RunFixture.law(2);
    assertThat(d.a()).isBetween(0.9 * x * 0.98 * 0.95, 0.9 * x * 1.02);
    assertThat(d.b()).isBetween(1.3 * 0.9 * x * 0.98 * 0.95, 1.3 * 0.9 * x * 1.02);
    assertThat(d.verdict()).isEqualTo("higher capacity");
    assertThat(d.regression()).isFalse();
    assertThat(d.deltaPct()).isBetween(18.0, 42.0);
    assertThat(d.p()).isLessThan(0.05);
    assertThat(d.note())
        .startsWith("intervals ")
        .endsWith(" requests/s within p99<200ms (no errors)");
    Comparison back = compare(b, a);
    Comparison.MetricDelta r = back.steps().get(0).metrics().get(0);
    assertThat(r.verdict()).isEqualTo("lower capacity");
    assertThat(r.regression()).isTrue();
    assertThat(back.regressedBeyond(10)).isTrue();
    assertThat(back.regressedBeyond(50)).isFalse();
    assertThat(Main.run("compare", b.toString(), a.toString(), "--fail-on-regression", "10"))
        .isEqualTo(1);
    assertThat(Main.run("compare", a.toString(), b.toString(), "--fail-on-regression", "10"))
        .isZero();
  }

  @Test
  void twoSearchesOfTheSameServerAreNoDifference() throws Exception {
    Comparison c = compare(capacities("a", 2, 1.0, 1), capacities("b", 2, 1.0, 2));
    Comparison.StepDelta s = c.steps().get(0);
    assertThat(s.samples()).isEqualTo("capacity searches, intervals must not overlap");
    assertThat(s.metrics().get(0).verdict()).isEqualTo("no significant difference");
    assertThat(s.metrics().get(0).p()).isNull();
    assertThat(c.regressedBeyond(0)).isFalse();
  }

  @Test
  void oneSearchASideIsNotJudgedHoweverFarApart() throws Exception {
    // B's server is twice as fast, and each search's interval is narrow; but one search says
    // nothing of the spread between runs, so no verdict and no regression either way
    Path a = capacities("a", 1, 1.0, 1);
    Path b = capacities("b", 1, 2.0, 2);
    Comparison.MetricDelta d = compare(a, b).steps().get(0).metrics().get(0);
    assertThat(d.verdict()).isEqualTo("not tested");
    assertThat(d.deltaPct()).isBetween(80.0, 120.0);
    assertThat(d.note())
        .startsWith(
            "1 and 1 repeat a side: one search's interval is its own resolution, not the spread"
                + " between runs; give repeat: 2 or more; intervals ");
    Comparison back = compare(b, a);
    assertThat(back.steps().get(0).metrics().get(0).regression()).isFalse();
    assertThat(Main.run("compare", b.toString(), a.toString(), "--fail-on-regression", "10"))
        .isZero();
    // one side with two searches is not enough either
    Path b2 = capacities("b2", 2, 2.0, 3);
    Comparison.MetricDelta mixed = compare(a, b2).steps().get(0).metrics().get(0);
    assertThat(mixed.verdict()).isEqualTo("not tested");
    assertThat(mixed.note()).startsWith("1 and 2 repeats: ");
  }

  /** Sets every repeat's ran_on in DIR's results.json: boot ids in turn, CPU score, revision. */
  private static void ranOn(Path dir, String revision, double score, String... boots)
      throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode results = json.readTree(dir.resolve("results.json").toFile());
    int i = 0;
    for (JsonNode c : results.get("combinations")) {
      ((ObjectNode) c)
          .set(
              "ran_on",
              json.valueToTree(
                  new RanOn(boots[i++ % boots.length], revision, "2026-12-01T09:00:00Z", score)));
    }
    json.writeValue(dir.resolve("results.json").toFile(), results);
  }

  @Test
  void repeatsThatRanOnOtherMachinesAreSaid() throws Exception {
    Path a = capacities("a", 2, 1.0, 1);
    Path b = capacities("b", 2, 1.3, 2);
    assertThat(compare(a, b).warnings()).isEmpty(); // no record of where: nothing to say
    String here = "9f5c8a7a-701e-444f-bc7e-eea31100f4b9";
    ranOn(a, "d40fc64", 1500, here);
    ranOn(b, "d40fc64", 1510, here);
    assertThat(compare(a, b).warnings()).isEmpty(); // one boot, one revision
    // B's second repeat ran on another machine, slower by a fifth
    ranOn(b, "d40fc64", 1200, here, "0badc0de-0000-4000-8000-000000000000");
    Comparison c = compare(a, b);
    assertThat(c.warnings())
        .containsExactly(
            "the repeats pooled here ran on 2 machines or boots (9f5c8a7a: 3 repeats, CPU score"
                + " 1200-1500; 0badc0de: 1 repeat, CPU score 1200): a difference between them"
                + " may be the machine's, not the setting's; rerun them in one go to judge");
    // one repeat a side, both on this machine: nothing pooled from elsewhere
    assertThat(
            Compare.compare(RunSelection.parse(a + "#c001/r1"), RunSelection.parse(b + "#c001/r1"))
                .warnings())
        .isEmpty();
    assertThat(stdout("compare", a.toString(), b.toString()))
        .contains("warning: the repeats pooled here ran on 2 machines or boots");
    // the report of B: the warning first among the findings, each repeat's machine listed
    String page = Files.readString(Report.write(b));
    assertThat(page)
        .contains(
            "The repeats pooled here ran on 2 machines or boots (9f5c8a7a: 1 repeat, CPU score"
                + " 1200; 0badc0de: 1 repeat, CPU score 1200)",
            "Where the repeats ran",
            "<td>c001 r2</td><td>done</td><td>2026-12-01T09:00:00Z</td><td>0badc0de</td>");
    assertThat(Files.readString(Report.write(a))).doesNotContain("machines or boots");
  }

  @Test
  void capacitiesAgainstDifferentObjectivesAreNotCompared() throws Exception {
    Path a = capacities("a", 1, 1.0, 1);
    Path b = capacities("b", 1, 2.0, 2);
    Path results = b.resolve("results.json");
    String text = Files.readString(results);
    assertThat(text).contains("p99<200ms");
    Files.writeString(results, text.replace("p99<200ms", "p99<100ms"));
    Comparison.MetricDelta d = compare(a, b).steps().get(0).metrics().get(0);
    assertThat(d.verdict()).isEqualTo("not tested");
    assertThat(d.regression()).isFalse();
    assertThat(d.note()).startsWith("the objectives differ: p99<200ms").contains("p99<100ms");
  }

  @Test
  void byNodesJudgesEachCountsCapacityAgainstOneNode() throws Exception {
    Path run =
        RunFixture.capacities(
            Files.createDirectories(tmp.resolve("nodes")),
            new int[] {1, 2, 3},
            new int[] {1},
            2,
            null);
    Comparison c = Compare.byParam(RunSelection.parse(run.toString()), "nodes");
    assertThat(c.steps()).hasSize(2);
    assertThat(c.steps())
        .extracting(Comparison.StepDelta::label)
        .containsExactly("nodes=1 vs 2", "nodes=1 vs 3");
    // the law: 100, 190 and 270 requests/s
    assertThat(c.steps())
        .allSatisfy(s -> assertThat(s.metrics().get(0).verdict()).isEqualTo("higher capacity"));
    assertThat(c.steps().get(1).metrics().get(0).deltaPct())
        .isBetween(
            100 * (RunFixture.law(3) / 100 * 0.9 - 1), 100 * (RunFixture.law(3) / 100 * 1.1 - 1));
  }
}
