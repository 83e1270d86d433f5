package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One row of a step's timeline.csv: one interval (a second, or less at the end) of warm-up or
 * measurement. A second in which the warm-up ended has two rows with the same {@code second}: the
 * warm-up requests that finished in it and the measured ones. {@code seconds} is the interval's
 * length (1 in files without it). A bench writes the latency and service columns; a chaos step's
 * rows count all requests, with its query latency, and add its writes.
 */
@JsonPropertyOrder({
  "second",
  "phase",
  "requests",
  "errors",
  "qps",
  "latency_p50_ms",
  "latency_p99_ms",
  "latency_max_ms",
  "service_p50_ms",
  "service_p99_ms",
  "bytes",
  "seconds",
  "writes",
  "write_errors",
  "docs_acknowledged"
})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record TimelineRow(
    @JsonProperty("second") double second,
    @JsonProperty("phase") String phase,
    @JsonProperty("requests") long requests,
    @JsonProperty("errors") long errors,
    @JsonProperty("qps") double qps,
    @JsonProperty("latency_p50_ms") double latencyP50Ms,
    @JsonProperty("latency_p99_ms") double latencyP99Ms,
    @JsonProperty("latency_max_ms") double latencyMaxMs,
    @JsonProperty("service_p50_ms") double serviceP50Ms,
    @JsonProperty("service_p99_ms") double serviceP99Ms,
    @JsonProperty("bytes") long bytes,
    @JsonProperty("seconds") Double seconds,
    @JsonProperty("writes") Long writes,
    @JsonProperty("write_errors") Long writeErrors,
    @JsonProperty("docs_acknowledged") Long docsAcknowledged) {

  public static final String WARMUP = "warmup";
  public static final String MEASURED = "measured";

  /** The file's one definition, for the bench, the chaos step and every reader. */
  public static final CsvTable<TimelineRow> TABLE = CsvTable.of(TimelineRow.class);

  public TimelineRow {
    phase = phase == null ? MEASURED : phase;
    seconds = seconds == null ? 1.0 : seconds;
  }

  /** A bench's row. */
  public TimelineRow(
      double second,
      boolean warmup,
      long requests,
      long errors,
      double qps,
      double latencyP50Ms,
      double latencyP99Ms,
      double latencyMaxMs,
      double serviceP50Ms,
      double serviceP99Ms,
      long bytes,
      double seconds) {
    this(
        second,
        warmup ? WARMUP : MEASURED,
        requests,
        errors,
        qps,
        latencyP50Ms,
        latencyP99Ms,
        latencyMaxMs,
        serviceP50Ms,
        serviceP99Ms,
        bytes,
        seconds,
        null,
        null,
        null);
  }

  /** Whether the interval is warm-up (left out of the measured figures). */
  public boolean warmup() {
    return WARMUP.equals(phase);
  }
}
