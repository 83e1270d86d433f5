package org.solrscale.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What compare found: per matched combination and bench step, one judged delta per metric; and the
 * repeats and steps it left out because they are no measurement (failed, interrupted, most requests
 * failed), each with why; and warnings on what it pooled (repeats that ran on different machines or
 * revisions).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Comparison(
    @JsonProperty("a") String a,
    @JsonProperty("b") String b,
    @JsonProperty("alpha") double alpha,
    @JsonProperty("threshold_pct") double thresholdPct,
    @JsonProperty("steps") List<StepDelta> steps,
    @JsonProperty("only_in_a") List<String> onlyInA,
    @JsonProperty("only_in_b") List<String> onlyInB,
    @JsonProperty("left_out") List<String> leftOut,
    @JsonProperty("warnings") List<String> warnings) {

  /** The metric of a capacity step: requests/s within its objective, higher better. */
  public static final String CAPACITY = "capacity";

  /** One bench step of one combination of A against its match in B. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record StepDelta(
      @JsonProperty("a") String a,
      @JsonProperty("b") String b,
      @JsonProperty("label") String label,
      @JsonProperty("step") String step,
      @JsonProperty("samples") String samples,
      @JsonProperty("repeats_a") int repeatsA,
      @JsonProperty("repeats_b") int repeatsB,
      @JsonProperty("metrics") List<MetricDelta> metrics) {}

  /**
   * One metric: medians of the samples of each side, the relative change of B against A in percent
   * with its 95 % bootstrap interval, the Mann-Whitney p-value, and the verdict.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MetricDelta(
      @JsonProperty("metric") String metric,
      @JsonProperty("unit") String unit,
      @JsonProperty("better") String better,
      @JsonProperty("n_a") int nA,
      @JsonProperty("n_b") int nB,
      @JsonProperty("a") Double a,
      @JsonProperty("b") Double b,
      @JsonProperty("delta_pct") Double deltaPct,
      @JsonProperty("ci_low_pct") Double ciLowPct,
      @JsonProperty("ci_high_pct") Double ciHighPct,
      @JsonProperty("p") Double p,
      @JsonProperty("verdict") String verdict,
      @JsonProperty("regression") boolean regression,
      @JsonProperty("note") String note) {}

  /** Whether any metric got significantly worse by more than pct percent. */
  public boolean regressedBeyond(double pct) {
    return steps.stream()
        .flatMap(s -> s.metrics().stream())
        .anyMatch(m -> m.regression() && (m.deltaPct() == null || Math.abs(m.deltaPct()) > pct));
  }

  public long regressions() {
    return steps.stream()
        .flatMap(s -> s.metrics().stream())
        .filter(MetricDelta::regression)
        .count();
  }
}
