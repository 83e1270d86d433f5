package org.solrscale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import org.solrscale.report.Report;
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
@Command(name = "demo", description = "Run scenarios/quick.yaml end to end (cluster, data, index, closed and open loop), "
    + "write the HTML report and print its path.")
final class DemoCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--out", description = "Results directory (default: runs/demo-TIMESTAMP).")
  Path out;

  @Override
  public Integer call() throws Exception {
    String text = quickScenario();
    ScenarioLoader.Loaded loaded = ScenarioLoader.parse(text, "scenarios/quick.yaml");
    Path dir = out != null ? out : Path.of("runs", "demo-"
        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    System.err.println("solrscale demo: scenarios/quick.yaml into " + dir);
    new ScenarioRunner(Terminal.home(), dir, Terminal.progress(), new Version().getVersion()[0])
        .run(loaded, null);
    Path report = Report.write(dir);
    JsonNode results = JSON.readTree(dir.resolve("results.json").toFile());
    Table t = new Table("STEP", "REQUESTS", "ACHIEVED/s", "p50 ms", "p99 ms", "p99.9 ms", "ERRORS");
    for (JsonNode c : results.path("combinations")) {
      for (JsonNode s : c.path("steps")) {
        JsonNode m = s.path("summary");
        if (s.path("kind").asText().equals("index")) {
          System.out.printf("indexed %,d documents in %.1f s (%,.0f docs/s), verified: %s%n",
              m.path("accepted").asLong(), m.path("seconds").asDouble(),
              m.path("docs_per_sec").asDouble(), m.path("verified").asBoolean());
        } else if (s.path("kind").asText().equals("bench")) {
          t.row(s.path("name").asText() + " (" + m.path("load_model").asText() + " loop)",
              m.path("count").asLong(), String.format("%.1f", m.path("throughput").path("achieved").asDouble()),
              String.format("%.2f", m.path("latency_ms").path("p50").asDouble()),
              String.format("%.2f", m.path("latency_ms").path("p99").asDouble()),
              String.format("%.2f", m.path("latency_ms").path("p99.9").asDouble()),
              m.path("errors").path("total").asLong());
        }
      }
    }
    System.out.println();
    System.out.print(t.render());
    System.out.println("\nresults: " + dir.resolve("results.json"));
    System.out.println("report:  " + report.toAbsolutePath());
    return 0;
  }

  /** The shipped quick scenario, from the jar (the same file as scenarios/quick.yaml). */
  private static String quickScenario() {
    try (InputStream in = DemoCommand.class.getResourceAsStream("/solrscale/scenarios/quick.yaml")) {
      if (in == null) {
        throw SolrscaleException.environment("the quick scenario is missing from the solrscale jar; rebuild it");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read the quick scenario: " + e.getMessage());
    }
  }
}
