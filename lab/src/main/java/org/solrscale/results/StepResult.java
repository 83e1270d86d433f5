package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One step of a combination: its kind (bench, index, wait, ...), name, output directory relative
 * to the run, the summary it produced (a bench step's summary.json, an index step's result), kept
 * as JSON because its shape belongs to the step kind, and the server telemetry while it ran (per
 * node: metric -> value; null when the step did not scrape).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StepResult(
    @JsonProperty("index") int index,
    @JsonProperty("kind") String kind,
    @JsonProperty("name") String name,
    @JsonProperty("dir") String dir,
    @JsonProperty("summary") JsonNode summary,
    @JsonProperty("telemetry") Map<String, Map<String, Double>> telemetry) {

  public boolean isBench() {
    return "bench".equals(kind);
  }

  /** "bench search", or the kind alone when the step has no name. */
  public String label() {
    return name == null || name.isBlank() ? kind : name;
  }
}
