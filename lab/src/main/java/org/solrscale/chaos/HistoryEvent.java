package org.solrscale.chaos;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One operation of a chaos run and how it ended: an {@code add} of some ids (acknowledged or not,
 * with the replication factor Solr reported), a {@code query}, or a {@code fault} starting or
 * ending. Workloads and faults only append these; checkers judge them afterwards.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HistoryEvent(
    @JsonProperty("t_ms") long timeMs,
    @JsonProperty("op") String op,
    @JsonProperty("ids") List<String> ids,
    @JsonProperty("query") String query,
    @JsonProperty("outcome") String outcome,
    @JsonProperty("rf") Integer rf,
    @JsonProperty("status") Integer status,
    @JsonProperty("message") String message) {

  public static final String OK = "ok";
  public static final String FAIL = "fail";
  /** The outcome is unknown (a timeout): the operation may or may not have taken effect. */
  public static final String INFO = "info";

  public static HistoryEvent add(long t, List<String> ids, String outcome, Integer rf, Integer status,
      String message) {
    return new HistoryEvent(t, "add", List.copyOf(ids), null, outcome, rf, status, message);
  }

  public boolean acknowledgedAdd() {
    return "add".equals(op) && OK.equals(outcome);
  }
}
