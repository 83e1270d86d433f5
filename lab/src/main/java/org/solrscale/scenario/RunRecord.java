package org.solrscale.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.solrscale.spec.SolrscaleException;

/**
 * results.json and results.csv of a run, rewritten (atomically) after every finished combination,
 * so an interrupted run keeps what it finished and can be resumed.
 */
final class RunRecord {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** The whole file. */
  record Results(@JsonProperty("scenario") String scenario,
      @JsonProperty("combinations") List<CombinationResult> combinations) {}

  /** One repeat of one combination. */
  record CombinationResult(@JsonProperty("id") String id,
      @JsonProperty("params") Map<String, Object> params, @JsonProperty("repeat") int repeat,
      @JsonProperty("dir") String dir, @JsonProperty("status") String status,
      @JsonProperty("seconds") double seconds, @JsonProperty("steps") List<StepResult> steps) {}

  /**
   * One step and what it measured (a bench summary, an index result, ...), with the server's
   * telemetry while it ran (per node; absent for steps that do not scrape).
   */
  record StepResult(@JsonProperty("index") int index, @JsonProperty("kind") String kind,
      @JsonProperty("name") String name, @JsonProperty("dir") String dir,
      @JsonProperty("summary") JsonNode summary,
      @JsonProperty("telemetry") Map<String, Map<String, Double>> telemetry) {}

  private final Path runDir;
  private final Results results;

  RunRecord(Path runDir, String scenario) {
    this.runDir = runDir;
    Path file = runDir.resolve("results.json");
    Results r = new Results(scenario, new ArrayList<>());
    if (Files.isRegularFile(file)) {
      try {
        Results old = JSON.readValue(file.toFile(), Results.class);
        r = new Results(scenario, new ArrayList<>(old.combinations()));
      } catch (IOException e) {
        throw SolrscaleException.usage(file + " cannot be read (" + e.getMessage().lines().findFirst().orElse("")
            + "); move it away to start the run afresh");
      }
    }
    this.results = r;
  }

  /** Whether this repeat of this combination already finished (for resume). */
  boolean done(String id, int repeat) {
    return results.combinations().stream()
        .anyMatch(c -> c.id().equals(id) && c.repeat() == repeat && "done".equals(c.status()));
  }

  synchronized void add(CombinationResult c) {
    results.combinations().removeIf(o -> o.id().equals(c.id()) && o.repeat() == c.repeat());
    results.combinations().add(c);
    write();
  }

  private void write() {
    try {
      Path tmp = runDir.resolve("results.json.tmp");
      JSON.writeValue(tmp.toFile(), results);
      Files.move(tmp, runDir.resolve("results.json"), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      Path csvTmp = runDir.resolve("results.csv.tmp");
      try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csvTmp))) {
        List<String> keys = results.combinations().stream().flatMap(c -> c.params().keySet().stream())
            .distinct().toList();
        w.println("id," + String.join(",", keys) + ",repeat,step,count,achieved,p50,p99,p99.9,max,errors");
        for (CombinationResult c : results.combinations()) {
          for (StepResult s : c.steps()) {
            if (!"bench".equals(s.kind()) || s.summary() == null) {
              continue;
            }
            JsonNode m = s.summary();
            StringBuilder row = new StringBuilder(c.id());
            keys.forEach(k -> row.append(',').append(c.params().getOrDefault(k, "")));
            row.append(String.format(Locale.ROOT, ",%d,%s,%d,%.2f,%.3f,%.3f,%.3f,%.3f,%d", c.repeat(),
                s.name(), m.path("count").asLong(), m.path("throughput").path("achieved").asDouble(),
                m.path("latency_ms").path("p50").asDouble(), m.path("latency_ms").path("p99").asDouble(),
                m.path("latency_ms").path("p99.9").asDouble(), m.path("latency_ms").path("max").asDouble(),
                m.path("errors").path("total").asLong()));
            w.println(row);
          }
        }
      }
      Files.move(csvTmp, runDir.resolve("results.csv"), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write results in " + runDir + ": " + e.getMessage());
    }
  }
}
