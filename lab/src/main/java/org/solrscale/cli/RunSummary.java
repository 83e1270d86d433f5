package org.solrscale.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.solrscale.report.Report;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.CapacityResult;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.IndexResult;
import org.solrscale.results.RunDir;
import org.solrscale.results.StepResult;
import org.solrscale.scenario.ScenarioRunner;
import org.solrscale.spec.Slo;
import org.solrscale.spec.SolrscaleException;

/**
 * What `run` and `demo` print at the end: each index step's figures, a table of the bench steps (a
 * failed one says so instead of numbers), what did not finish and why, and the report's path.
 */
final class RunSummary {
  private RunSummary() {}

  /** Writes the report and prints the summary; the exit code: 1 when a repeat failed. */
  static int print(Path dir, ScenarioRunner.Outcome o) {
    RunDir run = RunDir.open(dir);
    boolean many = run.results().combinations().size() > 1;
    Table t =
        new Table(
            many
                ? new String[] {
                  "COMBINATION",
                  "STEP",
                  "REQUESTS",
                  "ACHIEVED/s",
                  "p50 ms",
                  "p99 ms",
                  "p99.9 ms",
                  "ERRORS"
                }
                : new String[] {
                  "STEP", "REQUESTS", "ACHIEVED/s", "p50 ms", "p99 ms", "p99.9 ms", "ERRORS"
                });
    boolean benches = false;
    for (CombinationRun c : run.results().combinations()) {
      for (StepResult s : c.steps()) {
        IndexResult index = run.index(s);
        CapacityResult capacity = run.capacity(s);
        BenchSummary m = run.bench(s);
        if (index != null) {
          System.out.printf(
              Locale.ROOT,
              "%sindexed %,d documents in %.1f s (%,.0f docs/s), verified: %s%n",
              many ? c.id() + " r" + c.repeat() + ": " : "",
              index.accepted(),
              index.seconds(),
              index.docsPerSec(),
              index.verified());
        } else if (capacity != null) {
          System.out.printf(
              Locale.ROOT,
              "%s%s: %s%n",
              many ? c.id() + " r" + c.repeat() + ": " : "",
              s.label(),
              capacity(capacity));
        } else if (m != null) {
          benches = true;
          String step = s.label() + " (" + Objects.toString(m.loadModel(), "") + " loop)";
          long errors = m.errors() == null ? 0 : m.errors().total();
          String[] cells =
              s.done()
                  ? new String[] {
                    step,
                    String.valueOf(m.count()),
                    f1(m.throughput() == null ? null : m.throughput().achieved()),
                    f2(percentile(m, "p50")),
                    f2(percentile(m, "p99")),
                    f2(percentile(m, "p99.9")),
                    String.valueOf(errors)
                  }
                  : new String[] {
                    step, String.valueOf(m.count()), "FAILED", "-", "-", "-", String.valueOf(errors)
                  };
          if (many) {
            String[] withId = new String[cells.length + 1];
            withId[0] = c.id() + " r" + c.repeat();
            System.arraycopy(cells, 0, withId, 1, cells.length);
            cells = withId;
          }
          t.row((Object[]) cells);
        }
      }
    }
    if (benches) {
      System.out.println();
      System.out.print(t.render());
    }
    Path report;
    try {
      report = Report.write(dir);
    } catch (
        RuntimeException e) { // the run's results stand without it; `solrscale report DIR` retries
      report = null;
      System.err.println(
          "solrscale: no report: "
              + (e instanceof SolrscaleException ? e.getMessage() : e.toString()));
    }
    System.out.printf(
        "%n%d of %d combination repeats ran now, %d were already done%n",
        o.ran(), o.total(), o.skipped());
    System.out.println("results: " + o.results().toAbsolutePath().normalize());
    if (report != null) {
      System.out.println("report:  " + report.toAbsolutePath().normalize());
    }
    for (String f : o.failures()) {
      System.err.println("solrscale: FAILED " + f);
    }
    return o.failures().isEmpty() ? 0 : 1;
  }

  /** A capacity step's result in one line, read with the record that wrote it. */
  private static String capacity(CapacityResult r) {
    if (r.capacity() == null) {
      return "no capacity: " + r.ended();
    }
    return String.format(
        Locale.ROOT,
        "capacity %.1f requests/s within %s (%s, %d probes)",
        r.capacity(),
        Slo.describe(r.slo()),
        r.high() != null
            ? String.format(Locale.ROOT, "interval %.1f-%.1f", r.low(), r.high())
            : String.format(Locale.ROOT, "at least %.1f: no rate tried failed", r.low()),
        r.probes().size());
  }

  private static Double percentile(BenchSummary m, String p) {
    return m.latencyMs() == null ? null : m.latencyMs().get(p);
  }

  private static String f1(Double n) {
    return String.format(Locale.ROOT, "%.1f", n == null ? 0 : n);
  }

  private static String f2(Double n) {
    return String.format(Locale.ROOT, "%.2f", n == null ? 0 : n);
  }
}
