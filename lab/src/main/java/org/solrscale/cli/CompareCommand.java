package org.solrscale.cli;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.solrscale.report.Compare;
import org.solrscale.report.Comparison;
import org.solrscale.results.RunSelection;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale compare A B`: metric by metric deltas between two runs or combinations, judged. */
@Command(
    name = "compare",
    description = {
      "Compare two runs or combinations metric by metric: faster, slower or no significant difference.",
      "A and B are run directories, DIR#c001 (a combination) or DIR#c001/r2 (one repeat);",
      "compare DIR --by PARAM puts the values of a swept parameter side by side, e.g. Solr versions."
    })
final class CompareCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "A", description = "The baseline.")
  String a;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "B",
      description = "What is judged against A (not with --by).")
  String b;

  @Option(
      names = "--by",
      paramLabel = "PARAM",
      description =
          "Compare within run directory A the combinations that differ only in this swept"
              + " parameter, each value against the first (e.g. --by solr_version).")
  String by;

  @Option(names = "--json", description = "Print the comparison as JSON.")
  boolean json;

  @Option(
      names = "--fail-on-regression",
      paramLabel = "PCT",
      description = "Exit 1 when any metric is significantly worse by more than PCT percent.")
  Double failOnRegression;

  @Override
  public Integer call() {
    if (failOnRegression != null && failOnRegression < 0) {
      throw SolrscaleException.usage(
          "--fail-on-regression takes a percentage of 0 or more, e.g. 10");
    }
    if (by != null && b != null) {
      throw SolrscaleException.usage(
          "compare --by "
              + by
              + " takes one run directory; give A alone, or leave out --by to compare A and B");
    }
    if (by == null && b == null) {
      throw SolrscaleException.usage(
          "give B to compare with A, or --by PARAM to compare the values of a swept parameter"
              + " within A (e.g. compare "
              + a
              + " --by solr_version)");
    }
    Comparison c =
        by != null
            ? Compare.byParam(RunSelection.parse(a), by)
            : Compare.compare(RunSelection.parse(a), RunSelection.parse(b));
    if (json) {
      Terminal.printJson(c);
    } else {
      print(c);
    }
    if (failOnRegression != null && c.regressedBeyond(failOnRegression)) {
      if (!json) {
        System.out.printf(
            Locale.ROOT,
            "%nregression: a metric is significantly worse by more than %s %%%n",
            trim(failOnRegression));
      }
      return 1;
    }
    return 0;
  }

  private static void print(Comparison c) {
    System.out.println("A: " + c.a());
    System.out.println("B: " + c.b());
    for (Comparison.StepDelta s : c.steps()) {
      System.out.printf(
          Locale.ROOT,
          "%n%s, step %s (samples: %s; repeats: %d and %d)%n",
          s.label(),
          s.step(),
          s.samples(),
          s.repeatsA(),
          s.repeatsB());
      Table t = new Table("METRIC", "A", "B", "CHANGE", "95% CI", "P", "VERDICT");
      for (Comparison.MetricDelta m : s.metrics()) {
        t.row(
            m.metric() + (m.unit().isEmpty() ? "" : " (" + m.unit() + ")"),
            num(m.a()),
            num(m.b()),
            pct(m.deltaPct()),
            m.ciLowPct() == null ? "-" : pct(m.ciLowPct()) + ".." + pct(m.ciHighPct()),
            m.p() == null ? "-" : String.format(Locale.ROOT, "%.3g", m.p()),
            m.verdict() + (m.note() == null ? "" : " (" + m.note() + ")"));
      }
      System.out.print(t.render());
    }
    c.onlyInA().forEach(x -> System.out.println("only in A: " + x));
    c.onlyInB().forEach(x -> System.out.println("only in B: " + x));
    c.leftOut().forEach(x -> System.out.println("left out (no measurement): " + x));
    c.warnings().forEach(x -> System.out.println("warning: " + x));
    System.out.println();
    if (c.steps().stream()
        .anyMatch(
            s -> s.metrics().stream().anyMatch(m -> !m.metric().equals(Comparison.CAPACITY)))) {
      System.out.printf(
          Locale.ROOT,
          "A and B are the medians of the samples; a difference is significant when "
              + "p < %.2f (Mann-Whitney U) and the change exceeds %s %%.%n",
          c.alpha(),
          trim(c.thresholdPct()));
    }
    if (c.steps().stream()
        .anyMatch(
            s -> s.metrics().stream().anyMatch(m -> m.metric().equals(Comparison.CAPACITY)))) {
      System.out.printf(
          Locale.ROOT,
          "A capacity is the mean over repeats; two differ when they are more than %s %% apart and"
              + " their intervals do not overlap (with 4 or more repeats a side, when p < %.2f"
              + " too).%n",
          trim(c.thresholdPct()),
          c.alpha());
    }
  }

  private static String num(Double v) {
    if (v == null) {
      return "-";
    }
    double a = Math.abs(v);
    return String.format(
        Locale.ROOT, a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", v);
  }

  private static String pct(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", v);
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
