package org.solrscale.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.solrscale.scenario.ScenarioRunner;
import org.solrscale.spec.ScenarioLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale run SCENARIO`: every combination of a scenario's matrix, resumable. */
@Command(name = "run", description = "Run a scenario (cluster, data, steps, matrix, repeat) into a results directory, "
    + "write its report and print a summary; run it again with the same --out to resume after an interruption. "
    + "Exit code 1 when a repeat failed (e.g. a bench step whose requests failed).")
final class RunCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (YAML).")
  Path scenario;

  @Option(names = "--out", description = "Results directory (default: runs/NAME).")
  Path out;

  @Override
  public Integer call() throws Exception {
    ScenarioLoader.Loaded loaded = ScenarioLoader.load(scenario);
    String name = loaded.base().name() != null ? loaded.base().name() : "scenario";
    Path dir = out != null ? out : Path.of("runs", name);
    ScenarioRunner.Outcome o = new ScenarioRunner(Terminal.home(), dir, Terminal.progress(),
        new Version().getVersion()[0]).run(loaded, scenario);
    return RunSummary.print(dir, o);
  }
}
