package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;
import org.solrscale.spec.StepKind;
import org.solrscale.spec.StepKinds;
import org.solrscale.spec.StepSpec;

/**
 * One step of a combination: its kind (bench, index, wait, ...), name, output directory relative to
 * the run, its status (done, failed, interrupted; absent in runs made before steps had one: done)
 * and why it is not done, the summary it produced (a bench step's summary.json, an index step's
 * result), kept as JSON because its shape belongs to the step kind, and the server telemetry while
 * it ran (per node: metric -> value; null when the step did not scrape).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StepResult(
    @JsonProperty("index") int index,
    @JsonProperty("kind") String kind,
    @JsonProperty("name") String name,
    @JsonProperty("dir") String dir,
    @JsonProperty("status") String status,
    @JsonProperty("reason") String reason,
    @JsonProperty("summary") JsonNode summary,
    @JsonProperty("telemetry") Map<String, Map<String, Double>> telemetry) {

  /** Its kind as registered in StepKinds; empty for a kind no longer registered. */
  @JsonIgnore
  public Optional<StepKind> stepKind() {
    return StepKinds.named(kind);
  }

  /** Whether it is a step of the kind whose record is {@code type} (e.g. StepSpec.Bench). */
  public boolean is(Class<? extends StepSpec> type) {
    return stepKind().map(k -> k.type() == type).orElse(false);
  }

  @JsonIgnore
  public boolean isBench() {
    return is(StepSpec.Bench.class);
  }

  /** Whether it ran its full length and measured something worth keeping. */
  @JsonIgnore
  public boolean done() {
    return status == null || CombinationRun.DONE.equals(status);
  }

  /** "bench search", or the kind alone when the step has no name. */
  public String label() {
    return name == null || name.isBlank() ? kind : name;
  }
}
