package org.solrscale.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.solrscale.load.BenchDriver;
import org.solrscale.results.BenchSummary;
import org.solrscale.spec.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `solrscale bench-driver`: what a driver host of `bench --drivers` runs (not for users). */
@Command(
    name = BenchDriver.COMMAND,
    hidden = true,
    description =
        "Internal: run one driver's share of a bench, its request read as JSON from standard input.")
final class BenchDriverCommand implements Callable<Integer> {
  @Option(
      names = "--user",
      paramLabel = "USER",
      description = "Solr user; its password is the line after the request on standard input.")
  String user;

  @Override
  public Integer call() throws Exception {
    BenchSummary s =
        BenchDriver.drive(
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), user);
    BenchCommand.print(s);
    if (s.failed() != null) {
      System.err.println("solrscale: the run measured nothing worth keeping: " + s.failed());
      return ExitCode.FAILED.code();
    }
    return 0;
  }
}
