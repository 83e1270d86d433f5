package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;

/**
 * What a chaos run found: the summary `--json` prints and the report's verdict table. {@code
 * verdict} is pass, fail (a property checked and failed), not tested (the faults did not make the
 * run a test: {@code not_tested} says which fault was not injected or did not hold, or that no
 * write was acknowledged while they held) or not checked (a checker could not run: {@code
 * not_checked} says which and why; found, lost and an unread shard's agreement are null). The loss
 * checker's findings ({@link LossVerdict}) are its own fields in the JSON, not a nested object.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChaosVerdict(
    @JsonProperty("ok") boolean ok,
    @JsonProperty("verdict") String verdict,
    @JsonProperty("not_checked") List<String> notChecked,
    @JsonProperty("not_tested") List<String> notTested,
    @JsonUnwrapped LossVerdict loss,
    @JsonProperty("divergent_shards") int divergentShards,
    @JsonProperty("recovery_seconds") Double recoverySeconds,
    @JsonProperty("recovered") boolean recovered,
    @JsonProperty("availability") double availability,
    @JsonProperty("availability_during_faults") Double availabilityDuringFaults,
    @JsonProperty("writes") Counts writes,
    @JsonProperty("queries") Counts queries,
    @JsonProperty("errors") Map<String, Long> errors,
    @JsonProperty("latency_ms") Map<String, Percentiles> latencyMs,
    @JsonProperty("shards") List<ShardAgreement> shards,
    @JsonProperty("faults") List<FaultVerdict> faults) {

  /** Requests of one kind: sent, answered OK, failed, outcome unknown (timeouts). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Counts(
      @JsonProperty("sent") long sent,
      @JsonProperty("ok") long ok,
      @JsonProperty("failed") long failed,
      @JsonProperty("unknown") long unknown,
      @JsonProperty("partial_results") Long partialResults,
      @JsonProperty("zk_disconnected") Long zkDisconnected,
      @JsonProperty("min_rf") Integer minRf) {
    public double availability() {
      return sent == 0 ? 1 : (double) ok / sent;
    }
  }

  /** Query latency in one phase (before, during, after the faults). */
  public record Percentiles(
      @JsonProperty("count") long count,
      @JsonProperty("p50") double p50,
      @JsonProperty("p99") double p99,
      @JsonProperty("max") double max) {}

  /** One replica's documents (all, and this run's), read with distrib=false. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ReplicaCount(
      @JsonProperty("replica") String replica,
      @JsonProperty("node") String node,
      @JsonProperty("docs") long docs,
      @JsonProperty("run_docs") long runDocs,
      @JsonProperty("error") String error) {}

  /**
   * Whether a shard's replicas agree ({@code agree} null: not checked, a replica could not be read;
   * its error says why); {@code differing_ids} samples ids some replica lacks.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ShardAgreement(
      @JsonProperty("shard") String shard,
      @JsonProperty("agree") Boolean agree,
      @JsonProperty("replicas") List<ReplicaCount> replicas,
      @JsonProperty("differing_ids") List<String> differingIds) {}

  public static final String PASS = "pass";
  public static final String FAIL = "fail";
  public static final String NOT_CHECKED = "not checked";
  public static final String NOT_TESTED = "not tested";

  /**
   * An expected behaviour during a fault, what was seen, and whether it held (null: the fault did
   * not last long enough to show it).
   */
  public record Behaviour(
      @JsonProperty("expected") String expected,
      @JsonProperty("observed") String observed,
      @JsonProperty("pass") Boolean pass) {}

  /** One fault: what it did, what users saw while it lasted, the behaviours checked. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record FaultVerdict(
      @JsonProperty("fault") FaultRecord fault,
      @JsonProperty("availability") Double availability,
      @JsonProperty("writes") Counts writes,
      @JsonProperty("queries") Counts queries,
      @JsonProperty("errors") Map<String, Long> errors,
      @JsonProperty("behaviours") List<Behaviour> behaviours) {}
}
