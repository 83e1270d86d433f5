package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What one fault did, in seconds since the step started: when it was injected, when healing began
 * and when the healed nodes served again (and every replica was active: the recovery). A fault that
 * could not be injected has no start and says why in {@code note}. {@code inject_seconds} and
 * {@code heal_seconds} are how long putting the fault in place and taking it out took (on many
 * hosts a partition's routes go in one host after another, so the fault is not in place at once).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FaultRecord(
    @JsonProperty("name") String name,
    @JsonProperty("fault") String fault,
    @JsonProperty("target") String target,
    @JsonProperty("nodes") List<String> nodes,
    @JsonProperty("start_s") Double startS,
    @JsonProperty("heal_s") Double healS,
    @JsonProperty("end_s") Double endS,
    @JsonProperty("recovery_seconds") Double recoverySeconds,
    @JsonProperty("note") String note,
    @JsonProperty("link") LinkFault link,
    @JsonProperty("inject_seconds") Double injectSeconds,
    @JsonProperty("heal_seconds") Double healSeconds) {

  public FaultRecord(
      String name,
      String fault,
      String target,
      List<String> nodes,
      Double startS,
      Double healS,
      Double endS,
      Double recoverySeconds,
      String note,
      LinkFault link) {
    this(name, fault, target, nodes, startS, healS, endS, recoverySeconds, note, link, null, null);
  }

  public FaultRecord(
      String name,
      String fault,
      String target,
      List<String> nodes,
      Double startS,
      Double healS,
      Double endS,
      Double recoverySeconds,
      String note) {
    this(name, fault, target, nodes, startS, healS, endS, recoverySeconds, note, null);
  }

  public boolean injected() {
    return startS != null;
  }

  /** The interval users could notice the fault in: from injection until recovered. */
  public double until() {
    return endS != null ? endS : healS != null ? healS : startS;
  }
}
