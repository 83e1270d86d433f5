package org.solrscale.chaos;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One operation of a chaos run and how it ended: an {@code add} of some ids (acknowledged or not,
 * with the replication factor Solr reported), a {@code query} (with {@code partialResults} and
 * {@code zkConnected} as Solr reported them), or a {@code fault} starting or ending. Times are
 * milliseconds since the run started (when the request was due; it was answered {@code latency_ms}
 * later), {@code node} is the Solr node that answered. Workloads and faults only append these;
 * checkers judge them afterwards.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HistoryEvent(
    @JsonProperty("t_ms") long timeMs,
    @JsonProperty("op") String op,
    @JsonProperty("ids") List<String> ids,
    @JsonProperty("query") String query,
    @JsonProperty("outcome") String outcome,
    @JsonProperty("rf") Integer rf,
    @JsonProperty("status") Integer status,
    @JsonProperty("message") String message,
    @JsonProperty("latency_ms") Double latencyMs,
    @JsonProperty("partial") Boolean partial,
    @JsonProperty("zk_connected") Boolean zkConnected,
    @JsonProperty("num_found") Long numFound,
    @JsonProperty("node") String node) {

  public static final String OK = "ok";
  public static final String FAIL = "fail";

  /** The outcome is unknown (a timeout): the operation may or may not have taken effect. */
  public static final String INFO = "info";

  public HistoryEvent(
      long timeMs,
      String op,
      List<String> ids,
      String query,
      String outcome,
      Integer rf,
      Integer status,
      String message) {
    this(timeMs, op, ids, query, outcome, rf, status, message, null, null, null, null, null);
  }

  public static HistoryEvent add(
      long t, List<String> ids, String outcome, Integer rf, Integer status, String message) {
    return new HistoryEvent(t, "add", List.copyOf(ids), null, outcome, rf, status, message);
  }

  @JsonIgnore
  public boolean acknowledgedAdd() {
    return "add".equals(op) && OK.equals(outcome);
  }

  @JsonIgnore
  public boolean isAdd() {
    return "add".equals(op);
  }

  @JsonIgnore
  public boolean isQuery() {
    return "query".equals(op);
  }

  @JsonIgnore
  public boolean ok() {
    return OK.equals(outcome);
  }
}
