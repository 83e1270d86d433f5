package org.solrscale.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.solrscale.report.Report;
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

  @Override
  public Integer call() {
    Path written = out == null ? Report.write(dir) : Report.write(dir, out);
    System.out.println(written.toAbsolutePath().normalize());
    return 0;
  }
}
