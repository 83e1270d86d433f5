package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One repeat of one combination: its matrix parameters (e.g. {@code nodes: 2,
 * bench.threads: 4}), its directory relative to the run, its status and its steps.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CombinationRun(
    @JsonProperty("id") String id,
    @JsonProperty("params") Map<String, Object> params,
    @JsonProperty("repeat") int repeat,
    @JsonProperty("dir") String dir,
    @JsonProperty("status") String status,
    @JsonProperty("steps") List<StepResult> steps) {

  public CombinationRun {
    params = params == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
    steps = steps == null ? List.of() : List.copyOf(steps);
  }

  /** Whether it ran to the end (an interrupted or failed repeat is left out of statistics). */
  public boolean done() {
    return status == null || "done".equals(status);
  }

  public List<StepResult> benchSteps() {
    return steps.stream().filter(StepResult::isBench).toList();
  }
}
