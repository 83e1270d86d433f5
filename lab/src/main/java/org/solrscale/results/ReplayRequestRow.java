package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * replay-requests.csv: one replayed request's first answer: its place in the log ({@code index},
 * from 0), its kind (collection and handler), the hits the log says and the hits here (-1: it
 * failed or had no numFound), its logged QTime and its latency here from the intended start. {@code
 * compare} judges two replays of one log kind by kind from these.
 */
@JsonPropertyOrder({"index", "kind", "logged_hits", "hits", "qtime_ms", "latency_ms"})
public record ReplayRequestRow(
    @JsonProperty("index") int index,
    @JsonProperty("kind") String kind,
    @JsonProperty("logged_hits") Long loggedHits,
    @JsonProperty("hits") long hits,
    @JsonProperty("qtime_ms") Integer qtimeMs,
    @JsonProperty("latency_ms") double latencyMs) {
  public static final CsvTable<ReplayRequestRow> TABLE = CsvTable.of(ReplayRequestRow.class);
  public static final String FILE = "replay-requests.csv";
}
