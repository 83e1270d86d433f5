package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario: the cluster to deploy, the data to load, the steps to run, the matrix of settings to
 * sweep, and how many times to repeat each combination.
 */
public record ScenarioSpec(
    @JsonProperty("name") String name,
    @JsonProperty("cluster") ClusterSpec cluster,
    @JsonProperty("data") DataSpec data,
    @JsonProperty("steps") List<StepSpec> steps,
    @JsonProperty("matrix") Map<String, List<Object>> matrix,
    @JsonProperty("repeat") Integer repeat) {

  public ScenarioSpec {
    data = data == null ? new DataSpec(null, null, null, null) : data;
    steps = steps == null ? List.of() : List.copyOf(steps);
    matrix = matrix == null ? Map.of() : new LinkedHashMap<>(matrix);
    repeat = repeat == null ? 1 : repeat;
  }

  /** The corpus and queries: files, or generated ({@code synth}, {@code queries} derived). */
  public record DataSpec(
      @JsonProperty("files") List<String> files,
      @JsonProperty("synth") Map<String, Object> synth,
      @JsonProperty("queries") List<String> queries,
      @JsonProperty("derive_queries") Map<String, Object> deriveQueries) {
    public DataSpec {
      files = files == null ? List.of() : List.copyOf(files);
      queries = queries == null ? List.of() : List.copyOf(queries);
    }
  }
}
