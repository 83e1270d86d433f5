package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * summary.json: what one bench run measured, for people and for scenarios and compare. {@code
 * failed} says why the measurement is not a result (most requests failed, say), null when it is.
 * {@code threads} (a closed loop) or {@code rates} (an open loop, several for a staircase) say what
 * load it ran. {@code replay}: a replay's answer check and figures (null: not a replay). {@code
 * partial}: measured answers Solr marked partial (partialResults), counted apart from the errors:
 * an answer that met timeAllowed or skipped a shard under shards.tolerant came back fast and
 * incomplete.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchSummary(
    @JsonProperty("load_model") String loadModel,
    @JsonProperty("started_at_ms") long startedAtMs,
    @JsonProperty("count") long count,
    @JsonProperty("errors") Errors errors,
    @JsonProperty("partial") long partial,
    @JsonProperty("throughput") Throughput throughput,
    @JsonProperty("latency_ms") Map<String, Double> latencyMs,
    @JsonProperty("service_time_ms") Map<String, Double> serviceTimeMs,
    @JsonProperty("ms_per_1000_per_thread") Double msPer1000PerThread,
    @JsonProperty("response_bytes") Map<String, Double> responseBytes,
    @JsonProperty("num_found") Map<String, Double> numFound,
    @JsonProperty("latency_by_hits") List<HitBucket> latencyByHits,
    @JsonProperty("templates") List<TemplateRow> templates,
    @JsonProperty("steps") List<Step> steps,
    @JsonProperty("warmup") Warmup warmup,
    @JsonProperty("seconds") double seconds,
    @JsonProperty("unfinished") long unfinished,
    @JsonProperty("driver") DriverHealth driver,
    @JsonProperty("max_error_rate") Double maxErrorRate,
    @JsonProperty("failed") String failed,
    @JsonProperty("threads") Integer threads,
    @JsonProperty("rates") List<Double> rates,
    @JsonProperty("drivers") @JsonInclude(JsonInclude.Include.NON_NULL) List<DriverRun> drivers,
    @JsonProperty("replay") ReplayCheck replay) {

  /**
   * One driver of a bench run on several driver hosts: its host, its share of the load, what it
   * measured by itself (its own percentiles, which are not averaged into anything) and its own
   * verdict on who limited it.
   */
  public record DriverRun(
      @JsonProperty("host") String host,
      @JsonProperty("threads") Integer threads,
      @JsonProperty("rate") Double rate,
      @JsonProperty("count") long count,
      @JsonProperty("errors") long errors,
      @JsonProperty("achieved") double achieved,
      @JsonProperty("latency_ms") Map<String, Double> latencyMs,
      @JsonProperty("cpu_percent") Double cpuPercent,
      @JsonProperty("bottleneck") String bottleneck,
      @JsonProperty("failed") String failed) {}

  static final double[] PERCENTILES = {50, 75, 90, 95, 99, 99.9};

  /** Errors in total and by kind (http_503, timeout, connection, ...), with sample messages. */
  public record Errors(
      @JsonProperty("total") long total, @JsonProperty("by_kind") Map<String, ErrorKind> byKind) {}

  public record ErrorKind(
      @JsonProperty("count") long count, @JsonProperty("samples") List<String> samples) {}

  /** Requests per second: scheduled (open loop) and completed. */
  public record Throughput(
      @JsonProperty("offered") double offered, @JsonProperty("achieved") double achieved) {}

  /** Latency of requests whose numFound fell in [min, max]. */
  public record HitBucket(
      @JsonProperty("min_hits") long min,
      @JsonProperty("max_hits") long max,
      @JsonProperty("count") long count,
      @JsonProperty("p50") double p50,
      @JsonProperty("p99") double p99,
      @JsonProperty("max") double maxMs) {}

  public record TemplateRow(
      @JsonProperty("template") String template,
      @JsonProperty("count") long count,
      @JsonProperty("errors") long errors,
      @JsonProperty("p50") double p50,
      @JsonProperty("p99") double p99,
      @JsonProperty("mean_hits") double meanHits) {}

  /**
   * One rate of a staircase, over its own seconds: requests it scheduled, their errors, latency
   * (from the intended start) and service time, the requests that completed in its seconds (from
   * whichever step) and so the achieved rate, the driver's CPU and schedule lag, and who limited
   * it.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Step(
      @JsonProperty("rate") double rate,
      @JsonProperty("achieved") double achieved,
      @JsonProperty("seconds") double seconds,
      @JsonProperty("start_s") Double startS,
      @JsonProperty("scheduled") Long scheduled,
      @JsonProperty("completed") Long completed,
      @JsonProperty("errors") Long errors,
      @JsonProperty("latency_ms") Map<String, Double> latencyMs,
      @JsonProperty("service_time_ms") Map<String, Double> serviceTimeMs,
      @JsonProperty("schedule_lag_ms") Map<String, Double> scheduleLagMs,
      @JsonProperty("driver_cpu_percent") Double driverCpuPercent,
      @JsonProperty("bottleneck") String bottleneck) {}

  public record Warmup(
      @JsonProperty("count") long count, @JsonProperty("seconds") double seconds) {}

  /**
   * The driver's own health: CPU used (percent of one core), how far behind schedule it started
   * requests, and who limited the run.
   */
  public record DriverHealth(
      @JsonProperty("cpu_percent") double cpuPercent,
      @JsonProperty("cores") int cores,
      @JsonProperty("schedule_lag_ms") Map<String, Double> scheduleLagMs,
      @JsonProperty("bottleneck") String bottleneck) {}

  /** p50 ... p99.9 and max of a microsecond histogram, in milliseconds. */
  public static Map<String, Double> millis(Histogram h) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (double p : PERCENTILES) {
      m.put(
          "p" + (p == Math.rint(p) ? String.valueOf((int) p) : String.valueOf(p)),
          h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1000.0);
    }
    m.put("max", h.getMaxValue() / 1000.0);
    m.put("mean", h.getTotalCount() == 0 ? 0 : h.getMean() / 1000.0);
    return m;
  }

  /** The same for a histogram of plain values (bytes, hits). */
  public static Map<String, Double> values(Histogram h) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (double p : new double[] {50, 90, 99}) {
      m.put("p" + (int) p, h.getTotalCount() == 0 ? 0 : (double) h.getValueAtPercentile(p));
    }
    m.put("max", (double) h.getMaxValue());
    m.put("mean", h.getTotalCount() == 0 ? 0 : h.getMean());
    return m;
  }

  public static List<HitBucket> hitBuckets(Histogram[] byHits) {
    List<HitBucket> out = new ArrayList<>();
    for (int b = 0; b < byHits.length; b++) {
      Histogram h = byHits[b];
      if (h == null || h.getTotalCount() == 0) {
        continue;
      }
      long min = b == 0 ? 0 : 1L << (b - 1);
      long max = b == 0 ? 0 : (1L << b) - 1;
      out.add(
          new HitBucket(
              min,
              max,
              h.getTotalCount(),
              h.getValueAtPercentile(50) / 1000.0,
              h.getValueAtPercentile(99) / 1000.0,
              h.getMaxValue() / 1000.0));
    }
    return out;
  }
}
