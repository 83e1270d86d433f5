package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario: the cluster to deploy, the data to load, the steps to run, the matrix of settings to
 * sweep, how many times to repeat each combination, and in which order the repeats run.
 */
public record ScenarioSpec(
    @JsonProperty("name") String name,
    @JsonProperty("cluster") ClusterSpec cluster,
    @JsonProperty("data") DataSpec data,
    @JsonProperty("steps") List<StepSpec> steps,
    @JsonProperty("matrix") Map<String, List<Object>> matrix,
    @JsonProperty("repeat") Integer repeat,
    @JsonProperty("order") String order) {

  /** Each combination's repeats back to back: a cluster is kept across them (the default). */
  public static final String BY_COMBINATION = "combinations";

  /**
   * Round after round, each running every combination once: slow drift (page cache, heat, other
   * load on the machine) is spread over all combinations instead of falling on one.
   */
  public static final String BY_ROUND = "rounds";

  public ScenarioSpec {
    data = data == null ? new DataSpec(null, null, null, null) : data;
    steps = steps == null ? List.of() : List.copyOf(steps);
    matrix = matrix == null ? Map.of() : new LinkedHashMap<>(matrix);
    repeat = repeat == null ? 1 : repeat;
    order = order == null ? BY_COMBINATION : order;
  }

  /** The corpus and queries: files, or generated ({@code synth}, {@code queries} derived). */
  public record DataSpec(
      @JsonProperty("files") List<String> files,
      @JsonProperty("synth") Synth synth,
      @JsonProperty("queries") List<String> queries,
      @JsonProperty("derive_queries") DeriveQueries deriveQueries) {
    public DataSpec {
      files = files == null ? List.of() : List.copyOf(files);
      queries = queries == null ? List.of() : List.copyOf(queries);
    }
  }

  /** A synthetic corpus: the options of {@code solrscale data synth}; null means its default. */
  public record Synth(
      @JsonProperty("docs") Long docs,
      @JsonProperty("seed") Long seed,
      @JsonProperty("vocabulary") Integer vocabulary,
      @JsonProperty("zipf") Double zipf,
      @JsonProperty("body_words") String bodyWords,
      @JsonProperty("facets") String facets) {}

  /**
   * Queries derived from the corpus: the options of {@code solrscale data queries}; null means its
   * default. {@code kinds} and {@code facet_fields} are lists or comma-separated text.
   */
  public record DeriveQueries(
      @JsonProperty("count") Integer count,
      @JsonProperty("seed") Long seed,
      @JsonProperty("field") String field,
      @JsonProperty("kinds") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          List<String> kinds,
      @JsonProperty("facet_fields")
          @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          List<String> facetFields,
      @JsonProperty("facet_limit") Integer facetLimit,
      @JsonProperty("rows") Integer rows) {
    public DeriveQueries {
      kinds = split(kinds);
      facetFields = split(facetFields);
    }

    private static List<String> split(List<String> values) {
      return values == null
          ? List.of()
          : values.stream()
              .flatMap(v -> Arrays.stream(String.valueOf(v).split(",")))
              .map(String::strip)
              .filter(v -> !v.isEmpty())
              .toList();
    }
  }
}
