package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.spec.SolrscaleException;

/** results.json: every (combination, repeat) of a run and what each of its steps measured. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunResults(
    @JsonProperty("scenario") String scenario,
    @JsonProperty("combinations") List<CombinationRun> combinations) {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public RunResults {
    combinations = combinations == null ? List.of() : List.copyOf(combinations);
  }

  /**
   * A run of one step whose files are in the run's own folder: one combination (c001, no
   * parameters), one repeat, the step of {@code kind} with its summary; so that report reads the
   * folder a command like capacity --out wrote.
   */
  public static RunResults oneStep(String kind, JsonNode summary, Double seconds) {
    StepResult step = new StepResult(0, kind, kind, ".", CombinationRun.DONE, null, summary, null);
    return new RunResults(
        kind,
        List.of(
            new CombinationRun(
                "c001",
                Map.of(),
                1,
                ".",
                CombinationRun.DONE,
                null,
                seconds,
                List.of(step),
                null)));
  }

  /**
   * Makes {@code dir}, the folder a command's --out wrote (capacity, bench), a run of one step of
   * {@code kind} with {@code summary}: writes its results.json, so that report and compare read it
   * as they read any run. seconds: how long it took, or null.
   */
  public static void writeOneStep(Path dir, String kind, Object summary, Double seconds) {
    Path file = dir.resolve("results.json");
    try {
      JSON.writeValue(file.toFile(), oneStep(kind, JSON.valueToTree(summary), seconds));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }

  /**
   * What a command's --out folder holds besides its own files: its answer as {@code file}
   * (capacity.json, distribute.json) and results.json, a run of one step of {@code kind} with that
   * answer as its summary ({@link #writeOneStep}), so that report and compare read it.
   */
  public static void writeCommandOut(
      Path dir, String file, String kind, Object summary, Double seconds) {
    Path f = dir.resolve(file);
    try {
      Files.createDirectories(dir);
      JSON.writeValue(f.toFile(), summary);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + f + ": " + e.getMessage());
    }
    writeOneStep(dir, kind, summary, seconds);
  }

  /** The repeats of each combination id, in the order the ids first appear. */
  public Map<String, List<CombinationRun>> byId() {
    Map<String, List<CombinationRun>> out = new LinkedHashMap<>();
    for (CombinationRun c : combinations) {
      out.computeIfAbsent(c.id(), k -> new ArrayList<>()).add(c);
    }
    return out;
  }
}
