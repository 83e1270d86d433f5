package org.solrscale.scenario;

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
import org.solrscale.results.CombinationRun;
import org.solrscale.results.RunDir;
import org.solrscale.results.RunResults;
import org.solrscale.results.StepResult;
import org.solrscale.spec.SolrscaleException;

/**
 * results.json and results.csv of a run, rewritten (atomically) after every repeat that ended
 * (done, failed or interrupted), so an interrupted run keeps what it finished and can be resumed.
 * Its entries are results' records, the ones report and compare read.
 */
final class RunRecord {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path runDir;
  private final String scenario;
  private final List<CombinationRun> combinations = new ArrayList<>();

  RunRecord(Path runDir, String scenario) {
    this.runDir = runDir;
    this.scenario = scenario;
    Path file = runDir.resolve("results.json");
    if (Files.isRegularFile(file)) {
      try {
        combinations.addAll(RunDir.JSON.readValue(file.toFile(), RunResults.class).combinations());
      } catch (IOException e) {
        throw SolrscaleException.usage(file + " cannot be read (" + e.getMessage().lines().findFirst().orElse("")
            + "); move it away to start the run afresh");
      }
    }
  }

  /** Whether this repeat of this combination already finished (for resume). */
  boolean done(String id, int repeat) {
    return combinations.stream().anyMatch(c -> c.id().equals(id) && c.repeat() == repeat && c.done());
  }

  /** Whether any repeat finished: then the directory holds results a changed scenario must not mix with. */
  boolean anyDone() {
    return combinations.stream().anyMatch(CombinationRun::done);
  }

  synchronized void add(CombinationRun c) {
    combinations.removeIf(o -> o.id().equals(c.id()) && o.repeat() == c.repeat());
    combinations.add(c);
    write();
  }

  private void write() {
    try {
      Path tmp = runDir.resolve("results.json.tmp");
      JSON.writeValue(tmp.toFile(), new RunResults(scenario, combinations));
      Files.move(tmp, runDir.resolve("results.json"), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      Path csvTmp = runDir.resolve("results.csv.tmp");
      try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csvTmp))) {
        List<String> keys = combinations.stream().flatMap(c -> c.params().keySet().stream())
            .distinct().toList();
        w.println("id," + String.join(",", keys) + ",repeat,status,step,count,achieved,p50,p99,p99.9,max,errors");
        for (CombinationRun c : combinations) {
          for (StepResult s : c.steps()) {
            if (!"bench".equals(s.kind()) || s.summary() == null) {
              continue;
            }
            JsonNode m = s.summary();
            StringBuilder row = new StringBuilder(c.id());
            keys.forEach(k -> row.append(',').append(c.params().getOrDefault(k, "")));
            row.append(String.format(Locale.ROOT, ",%d,%s,%s,%d,%.2f,%.3f,%.3f,%.3f,%.3f,%d", c.repeat(),
                s.done() && c.done() ? "done" : s.done() ? c.status() : s.status(),
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
