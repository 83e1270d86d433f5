package org.solrscale.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import org.solrscale.scenario.ScenarioRunner;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `solrscale demo`: the main job end to end: runs the shipped quick scenario (a cluster, a
 * synthetic corpus indexed, a closed and an open loop measured, telemetry), writes the report and
 * prints its path.
 */
@Command(
    name = "demo",
    description =
        "Run scenarios/quick.yaml end to end (cluster, data, index, closed and open loop), "
            + "write the HTML report and print its path.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--out", description = "Results directory (default: runs/demo-TIMESTAMP).")
  Path out;

  @Override
  public Integer call() throws Exception {
    String text = quickScenario();
    ScenarioLoader.Loaded loaded = ScenarioLoader.parse(text, "scenarios/quick.yaml");
    Path dir =
        out != null
            ? out
            : Path.of(
                "runs",
                "demo-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    System.err.println(
        "solrscale demo: scenarios/quick.yaml into " + dir.toAbsolutePath().normalize());
    ScenarioRunner.Outcome o =
        new ScenarioRunner(Terminal.home(), dir, Terminal.progress(), new Version().getVersion()[0])
            .run(loaded, null);
    return RunSummary.print(dir, o);
  }

  /** The shipped quick scenario, from the jar (the same file as scenarios/quick.yaml). */
  private static String quickScenario() {
    try (InputStream in =
        DemoCommand.class.getResourceAsStream("/solrscale/scenarios/quick.yaml")) {
      if (in == null) {
        throw SolrscaleException.environment(
            "the quick scenario is missing from the solrscale jar; rebuild it");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read the quick scenario: " + e.getMessage());
    }
  }
}
