package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One repeat of one combination: its matrix parameters (e.g. {@code nodes: 2, bench.threads: 4}),
 * its directory relative to the run, its status (done, failed, interrupted) with the reason when it
 * is not done, how long it took, its steps, and where it ran ({@link RanOn}; null in runs of an
 * older solrscale). Written by a run and read by report and compare: the one definition of an entry
 * of results.json.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CombinationRun(
    @JsonProperty("id") String id,
    @JsonProperty("params") Map<String, Object> params,
    @JsonProperty("repeat") int repeat,
    @JsonProperty("dir") String dir,
    @JsonProperty("status") String status,
    @JsonProperty("reason") String reason,
    @JsonProperty("seconds") Double seconds,
    @JsonProperty("steps") List<StepResult> steps,
    @JsonProperty("ran_on") RanOn ranOn) {

  /** Every step ran its full length (only such a repeat is a result). */
  public static final String DONE = "done";

  /** A step failed, or measured nothing worth keeping (e.g. most requests failed). */
  public static final String FAILED = "failed";

  /** Stopped by Ctrl-C or SIGTERM; a resumed run runs it again. */
  public static final String INTERRUPTED = "interrupted";

  public CombinationRun {
    params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
    steps = steps == null ? List.of() : List.copyOf(steps);
  }

  /** Whether it ran to the end (an interrupted or failed repeat is left out of statistics). */
  @JsonIgnore
  public boolean done() {
    return status == null || DONE.equals(status);
  }

  public List<StepResult> benchSteps() {
    return steps.stream().filter(StepResult::isBench).toList();
  }

  /** "failed: ..." or "interrupted ...": what to say of a repeat that is not a result. */
  public String why() {
    return status + (reason == null ? "" : ": " + reason);
  }
}
