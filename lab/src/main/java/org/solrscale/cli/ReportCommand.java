package org.solrscale.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.solrscale.report.Report;
import org.solrscale.spec.CapacityTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale report DIR`: the HTML report of a run directory. */
@Command(
    name = "report",
    description =
        "Write the HTML report of a run (DIR/report.html, charts in DIR/charts/) and print its path.")
final class ReportCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description = "A run directory (solrscale run SCENARIO --out DIR).")
  Path dir;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Write the report here instead (charts go to charts/ beside it).")
  Path out;

  @Option(
      names = "--target",
      paramLabel = "TARGET",
      description =
          "Recommend the smallest topology of the run's capacity steps that serves this rate, e.g."
              + " 'rate=500' or 'rate=500,p99<200ms' (the objective must be the steps' own).")
  String target;

  @Override
  public Integer call() {
    CapacityTarget t = target == null ? null : CapacityTarget.parse(target);
    Path written = Report.write(dir, out == null ? dir.resolve("report.html") : out, t);
    System.out.println(written.toAbsolutePath().normalize());
    return 0;
  }
}
