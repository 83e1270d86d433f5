package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * A capacity search's answer (capacity.json, and a capacity step's summary in results.json): the
 * objective (as Slo.spec writes it, and its error bound as a number, 0 meaning no errors allowed),
 * the capacity (the highest rate that met the objective) with its interval (it lies between low and
 * high: high is the lowest rate that did not meet it, null when none failed), every probe in order,
 * why the search ended, in words and as a kind, and the step's target rate when it named one. A
 * search over a replayed log also has the log's own mean rate ({@code replay_rate}, at speed 1) and
 * the capacity as a speed-up of it ({@code capacity_speed}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CapacityResult(
    @JsonProperty("slo") String slo,
    @JsonProperty("max_error_rate") double maxErrorRate,
    @JsonProperty("capacity") Double capacity,
    @JsonProperty("low") Double low,
    @JsonProperty("high") Double high,
    @JsonProperty("requests_per_probe") long requestsPerProbe,
    @JsonProperty("probes") List<Probe> probes,
    @JsonProperty("ended") String ended,
    @JsonProperty("stop") Stop stop,
    @JsonProperty("converged") boolean converged,
    @JsonProperty("target") String target,
    @JsonProperty("replay_rate") Double replayRate,
    @JsonProperty("capacity_speed") Double capacitySpeed,
    @JsonProperty("ramp") Ramp ramp) {

  public CapacityResult {
    probes = probes == null ? List.of() : probes;
  }

  /**
   * How the search found where to start: a short closed loop of {@code threads} reached {@code
   * achieved} requests/s over {@code seconds} measured (near the open-loop capacity: a starting
   * point, not a bound), and the first probe ran at {@code start}, a share of it.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Ramp(
      @JsonProperty("threads") int threads,
      @JsonProperty("seconds") double seconds,
      @JsonProperty("achieved") double achieved,
      @JsonProperty("p99_ms") Double p99Ms,
      @JsonProperty("start") double start) {}

  /** The same answer with the ramp that chose its start. */
  public CapacityResult withRamp(Ramp r) {
    return with(target, replayRate, capacitySpeed, r);
  }

  /** The same answer for a step that names a target rate (null: none). */
  public CapacityResult withTarget(String t) {
    return with(t, replayRate, capacitySpeed, ramp);
  }

  /** The same answer for a replay whose log runs at {@code rate} requests/s at speed 1. */
  public CapacityResult withReplayRate(double rate) {
    return with(target, rate, capacity == null ? null : capacity / rate, ramp);
  }

  /** The same search, its later additions (target, replay rate and speed, ramp) as given. */
  private CapacityResult with(String t, Double rate, Double speed, Ramp r) {
    return new CapacityResult(
        slo,
        maxErrorRate,
        capacity,
        low,
        high,
        requestsPerProbe,
        probes,
        ended,
        stop,
        converged,
        t,
        rate,
        speed,
        r);
  }

  /**
   * What one probe at one rate measured; {@code decided_early}: why it ended before its full count
   * (null: it ran it).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Measured(
      @JsonProperty("rate") double rate,
      @JsonProperty("achieved") double achieved,
      @JsonProperty("count") long count,
      @JsonProperty("latency_ms") Map<String, Double> latencyMs,
      @JsonProperty("error_rate") double errorRate,
      @JsonProperty("driver_bound") String driverBound,
      @JsonProperty("decided_early") String decidedEarly) {
    /** A probe measured to its full count. */
    public Measured(
        double rate,
        double achieved,
        long count,
        Map<String, Double> latencyMs,
        double errorRate,
        String driverBound) {
      this(rate, achieved, count, latencyMs, errorRate, driverBound, null);
    }
  }

  /** One probe as judged: what it measured, whether it met the objective, and why not. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Probe(
      @JsonProperty("measured") Measured measured,
      @JsonProperty("meets") boolean meets,
      @JsonProperty("why") String why,
      @JsonProperty("repeat") int repeat) {}

  /** Why a search ended, for machines (capacity.json's "stop") and for the command's wording. */
  public enum Stop {
    @JsonProperty("converged")
    CONVERGED,
    @JsonProperty("max_rate")
    MAX_RATE,
    @JsonProperty("driver_bound")
    DRIVER_BOUND,
    @JsonProperty("lowest_rate_failed")
    LOWEST_RATE_FAILED,
    @JsonProperty("max_probes")
    MAX_PROBES
  }
}
