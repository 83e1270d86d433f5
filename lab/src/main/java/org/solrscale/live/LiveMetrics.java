package org.solrscale.live;

import com.fasterxml.jackson.databind.JsonNode;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run's figures as Prometheus metrics, from what {@link RunFollower} read: requests by step,
 * phase, outcome and error kind; measured latency as a histogram; the schedule's lag and the
 * driver's CPU; which step runs in which combination and repeat; the faults active; each node's
 * state from telemetry. Built afresh on each scrape (a snapshot, not a registry), so the figures
 * are exactly those of the files.
 */
final class LiveMetrics {
  private LiveMetrics() {}

  static MetricSnapshots of(RunFollower run) {
    JsonNode progress = run.progress();
    return run.read(steps -> build(steps, progress, run.hasReport()));
  }

  private static MetricSnapshots build(List<StepFeed> steps, JsonNode progress, boolean report) {
    CounterSnapshot.Builder requests =
        counter(
            "solrscale_requests",
            "Requests the driver finished, by step, phase (warmup, measured), outcome and"
                + " error kind");
    CounterSnapshot.Builder sent =
        counter(
            "solrscale_requests_sent",
            "Requests the driver put on the wire (the offered load), by step");
    HistogramSnapshot.Builder latency =
        HistogramSnapshot.builder()
            .name("solrscale_request_duration_seconds")
            .help(
                "Measured latency from each request's intended start (coordinated omission"
                    + " corrected), by step; buckets from HdrHistogram's values");
    GaugeSnapshot.Builder lag =
        gauge(
            "solrscale_schedule_lag_seconds",
            "The schedule's lag in the last second (p99): how late the driver sent");
    CounterSnapshot.Builder cpu =
        counter("solrscale_driver_cpu_seconds", "CPU the driver process used while the step ran");
    GaugeSnapshot.Builder cpuNow =
        gauge(
            "solrscale_driver_cpu_cores", "The driver process's CPU in the last second, in cores");
    GaugeSnapshot.Builder faults =
        gauge("solrscale_fault_active", "1 while a fault is injected (until it heals), else 0");
    GaugeSnapshot.Builder received =
        gauge(
            "solrscale_distribute_received_bytes",
            "Bytes of the index a distribution's target has received, by step, shard, node");
    GaugeSnapshot.Builder needed =
        gauge(
            "solrscale_distribute_index_bytes",
            "Bytes of the index a distribution's target needs, by step, shard, node");
    CounterSnapshot.Builder indexed =
        counter(
            "solrscale_index_documents",
            "Documents a bulk load had accepted (index-progress.csv), by step");
    GaugeSnapshot.Builder nodeUp =
        gauge(
            "solrscale_node_up",
            "1 when the node's last telemetry scrape answered (ZooKeeper: served), else 0");
    double[] bounds = Arrays.copyOf(LatencyBuckets.BOUNDS, LatencyBuckets.BOUNDS.length + 1);
    bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
    Map<String, double[]> nodes = new TreeMap<>(); // node -> [at_ms, up]
    for (StepFeed s : steps) {
      long okMeasured = s.measuredCount - sum(s.errors);
      long okWarmup = s.warmupCount - sum(s.warmupErrors);
      requests.dataPoint(point(okMeasured, s.id, "measured", "ok", ""));
      requests.dataPoint(point(okWarmup, s.id, "warmup", "ok", ""));
      s.errors.forEach((k, n) -> requests.dataPoint(point(n, s.id, "measured", "error", k)));
      s.warmupErrors.forEach((k, n) -> requests.dataPoint(point(n, s.id, "warmup", "error", k)));
      sent.dataPoint(
          CounterDataPointSnapshot.builder().value(s.sent).labels(Labels.of("step", s.id)).build());
      LatencyBuckets.Buckets b = LatencyBuckets.of(s.measured);
      latency.dataPoint(
          HistogramDataPointSnapshot.builder()
              .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, b.counts()))
              .sum(b.sumSeconds())
              .labels(Labels.of("step", s.id))
              .build());
      lag.dataPoint(gauge(s.lastLagP99Seconds, Labels.of("step", s.id)));
      cpu.dataPoint(
          CounterDataPointSnapshot.builder()
              .value(s.cpuSeconds)
              .labels(Labels.of("step", s.id))
              .build());
      cpuNow.dataPoint(gauge(s.lastCpuCores, Labels.of("step", s.id)));
      for (StepFeed.FaultWindow w : s.windows) {
        faults.dataPoint(
            gauge(
                w.active() ? 1 : 0,
                Labels.of(
                    "step",
                    s.id,
                    "fault",
                    w.fault(),
                    "name",
                    w.name(),
                    "nodes",
                    String.join(",", w.nodes()))));
      }
      if (s.indexed > 0) {
        indexed.dataPoint(
            CounterDataPointSnapshot.builder()
                .value(s.indexed)
                .labels(Labels.of("step", s.id))
                .build());
      }
      for (JsonNode t : s.targets.values()) {
        Labels l =
            Labels.of(
                "step", s.id, "shard", t.path("shard").asText(), "node", t.path("node").asText());
        received.dataPoint(gauge(t.path("bytes").asDouble(), l));
        needed.dataPoint(gauge(t.path("total").asDouble(), l));
      }
      for (StepFeed.Sample t : s.samples) {
        Double up = NodeState.up(t);
        if (up != null) {
          nodes.put(t.node(), new double[] {t.atMs(), up});
        }
      }
    }
    MetricSnapshots.Builder out =
        MetricSnapshots.builder()
            .metricSnapshot(requests.build())
            .metricSnapshot(sent.build())
            .metricSnapshot(latency.build())
            .metricSnapshot(lag.build())
            .metricSnapshot(cpu.build())
            .metricSnapshot(cpuNow.build())
            .metricSnapshot(faults.build())
            .metricSnapshot(received.build())
            .metricSnapshot(needed.build())
            .metricSnapshot(indexed.build());
    nodes.forEach((n, v) -> nodeUp.dataPoint(gauge(v[1], Labels.of("node", n))));
    out.metricSnapshot(nodeUp.build());
    if (progress.has("step_dir")) {
      out.metricSnapshot(
          InfoSnapshot.builder()
              .name("solrscale_step")
              .help("The step running now, with its combination and repeat")
              .dataPoint(
                  InfoDataPointSnapshot.builder()
                      .labels(
                          Labels.of(
                              "step", progress.path("step_dir").asText(),
                              "combination", progress.path("combination").asText(""),
                              "label", progress.path("label").asText(""),
                              "repeat", progress.path("repeat").asText("")))
                      .build())
              .build());
    }
    double turns = progress.path("turns").asDouble(0);
    out.metricSnapshot(
        gauge(
                "solrscale_run_progress_ratio",
                "Share of the run's repeats begun, or of a bulk load's input read (1 once finished)")
            .dataPoint(
                gauge(
                    progress.path("finished").asBoolean()
                        ? 1
                        : turns > 0
                            ? progress.path("turn").asDouble() / turns
                            : progress.path("share").asDouble(0),
                    Labels.EMPTY))
            .build());
    out.metricSnapshot(
        gauge("solrscale_run_finished", "1 once the run has ended")
            .dataPoint(gauge(progress.path("finished").asBoolean() || report ? 1 : 0, Labels.EMPTY))
            .build());
    return out.build();
  }

  private static CounterSnapshot.Builder counter(String name, String help) {
    return CounterSnapshot.builder().name(name).help(help);
  }

  private static GaugeSnapshot.Builder gauge(String name, String help) {
    return GaugeSnapshot.builder().name(name).help(help);
  }

  private static long sum(Map<String, Long> m) {
    return m.values().stream().mapToLong(Long::longValue).sum();
  }

  private static CounterDataPointSnapshot point(
      long n, String step, String phase, String outcome, String kind) {
    return CounterDataPointSnapshot.builder()
        .value(Math.max(0, n))
        .labels(Labels.of("step", step, "phase", phase, "outcome", outcome, "kind", kind))
        .build();
  }

  private static GaugeDataPointSnapshot gauge(double v, Labels labels) {
    return GaugeDataPointSnapshot.builder().value(v).labels(labels).build();
  }
}
