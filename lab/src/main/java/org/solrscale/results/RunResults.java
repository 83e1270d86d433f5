package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** results.json: every (combination, repeat) of a run and what each of its steps measured. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunResults(
    @JsonProperty("scenario") String scenario,
    @JsonProperty("combinations") List<CombinationRun> combinations) {

  public RunResults {
    combinations = combinations == null ? List.of() : List.copyOf(combinations);
  }

  /**
   * A run of one step whose files are in the run's own folder: one combination (c001, no
   * parameters), one repeat, the step of {@code kind} with its summary; so that report reads the
   * folder a command like capacity --out wrote.
   */
  public static RunResults oneStep(String kind, JsonNode summary, double seconds) {
    StepResult step = new StepResult(0, kind, kind, ".", CombinationRun.DONE, null, summary, null);
    return new RunResults(
        kind,
        List.of(
            new CombinationRun(
                "c001", Map.of(), 1, ".", CombinationRun.DONE, null, seconds, List.of(step))));
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
