package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
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
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final CsvMapper CSV = new CsvMapper();

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
        throw SolrscaleException.usage(
            file
                + " cannot be read ("
                + e.getMessage().lines().findFirst().orElse("")
                + "); move it away to start the run afresh");
      }
    }
  }

  /** Whether this repeat of this combination already finished (for resume). */
  boolean done(String id, int repeat) {
    return combinations.stream()
        .anyMatch(c -> c.id().equals(id) && c.repeat() == repeat && c.done());
  }

  /**
   * Whether any repeat finished: then the directory holds results a changed scenario must not mix
   * with.
   */
  boolean anyDone() {
    return combinations.stream().anyMatch(CombinationRun::done);
  }

  synchronized void add(CombinationRun c) {
    combinations.removeIf(o -> o.id().equals(c.id()) && o.repeat() == c.repeat());
    combinations.add(c);
    write();
  }

  /**
   * results.csv: a row per bench step of every repeat, a column per matrix key; Jackson's CSV
   * quotes keys, values and step names that hold commas, quotes or line breaks.
   */
  private void writeCsv(Path file) throws IOException {
    List<String> keys =
        combinations.stream().flatMap(c -> c.params().keySet().stream()).distinct().toList();
    CsvSchema.Builder columns = CsvSchema.builder().addColumn("id");
    keys.forEach(columns::addColumn);
    for (String c :
        List.of(
            "repeat",
            "status",
            "step",
            "count",
            "achieved",
            "p50",
            "p99",
            "p99.9",
            "max",
            "errors")) {
      columns.addColumn(c);
    }
    try (SequenceWriter w = CSV.writer(columns.build().withHeader()).writeValues(file.toFile())) {
      for (CombinationRun c : combinations) {
        for (StepResult s : c.steps()) {
          if (!s.isBench() || s.summary() == null) {
            continue;
          }
          JsonNode m = s.summary();
          List<Object> row = new ArrayList<>();
          row.add(c.id());
          keys.forEach(k -> row.add(String.valueOf(c.params().getOrDefault(k, ""))));
          row.add(c.repeat());
          row.add(s.done() && c.done() ? "done" : s.done() ? c.status() : s.status());
          row.add(s.name());
          row.add(m.path("count").asLong());
          row.add(round(m.path("throughput").path("achieved").asDouble(), 2));
          for (String p : List.of("p50", "p99", "p99.9", "max")) {
            row.add(round(m.path("latency_ms").path(p).asDouble(), 3));
          }
          row.add(m.path("errors").path("total").asLong());
          w.write(row);
        }
      }
    }
  }

  private static double round(double v, int decimals) {
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }

  private void write() {
    try {
      Path tmp = runDir.resolve("results.json.tmp");
      JSON.writeValue(tmp.toFile(), new RunResults(scenario, combinations));
      Files.move(
          tmp,
          runDir.resolve("results.json"),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      Path csvTmp = runDir.resolve("results.csv.tmp");
      writeCsv(csvTmp);
      Files.move(
          csvTmp,
          runDir.resolve("results.csv"),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write results in " + runDir + ": " + e.getMessage());
    }
  }
}
