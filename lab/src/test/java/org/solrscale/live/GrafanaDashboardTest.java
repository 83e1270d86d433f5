package org.solrscale.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.load.Interval;
import org.solrscale.load.LoadRecorder;
import org.solrscale.load.RunLog;
import org.solrscale.results.RunProgress;

/**
 * The shipped Grafana dashboard asks only for series the live view serves: every solrscale_ name in
 * its queries and annotations is in /metrics of a run with every kind of file (steps, faults,
 * telemetry, progress), with every label it filters or groups by.
 */
class GrafanaDashboardTest {
  @TempDir Path tmp;

  @Test
  void everyQueryOfTheDashboardNamesASeriesTheViewServes() throws Exception {
    Path run = tmp.resolve("run");
    Path step = Files.createDirectories(run.resolve("c001/r1/s2-bench-b"));
    RunProgress progress = new RunProgress(run, "run");
    progress.set(
        "turn",
        1,
        "turns",
        2,
        "combination",
        "c001",
        "repeat",
        1,
        "step_dir",
        "c001/r1/s2-bench-b");
    long t0 = System.nanoTime();
    long now = System.currentTimeMillis();
    RunProgress.stepStarted(step, "bench", "b", now);
    try (RunLog log = new RunLog(t0, now, step, i -> {})) {
      Histogram h = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
      h.recordValue(2000);
      log.accept(
          List.of(
              new Interval(
                  t0, t0 + 1_000_000_000L, false, h, h, h, 1, 1, 10, 1, Map.of("timeout", 1L))));
    }
    Files.writeString(
        step.resolve("telemetry.csv"), "second,node,metric,value\n1.0,solr1,heap_used,1000\n");
    Files.writeString(
        step.resolve("faults.jsonl"),
        "{\"at_ms\":"
            + now
            + ",\"phase\":\"start\",\"name\":\"k\",\"fault\":\"kill\","
            + "\"nodes\":[\"solr1\"]}\n");
    RunFollower f = RunFollower.of(run);
    f.poll(w -> {});
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create()
        .write(b, LiveMetrics.of(f), io.prometheus.metrics.config.EscapingScheme.ALLOW_UTF8);
    String metrics = b.toString(StandardCharsets.UTF_8);
    Set<String> served = new TreeSet<>();
    Matcher s = Pattern.compile("(?m)^(solrscale_[a-z_]+)\\{?").matcher(metrics);
    while (s.find()) {
      served.add(s.group(1));
    }

    JsonNode dash =
        new ObjectMapper()
            .readTree(Path.of("..", "docs", "grafana", "solrscale-live.json").toFile());
    List<String> exprs = new ArrayList<>();
    dash.findValues("expr").forEach(e -> exprs.add(e.asText()));
    assertThat(exprs).hasSizeGreaterThan(8);
    Pattern name = Pattern.compile("(solrscale_[a-z_]+)(\\{[^}]*\\})?");
    int checked = 0;
    for (String e : exprs) {
      Matcher m = name.matcher(e);
      while (m.find()) {
        assertThat(served).as(e).contains(m.group(1));
        checked++;
        if (m.group(2) != null) {
          Matcher l = Pattern.compile("([a-z_]+)\\s*=~?\\s*\"").matcher(m.group(2));
          while (l.find()) {
            if (!l.group(1).equals("job")) { // Prometheus adds job and instance
              assertThat(metrics).as(e).containsPattern(m.group(1) + "\\{[^}]*" + l.group(1) + "=");
            }
          }
        }
      }
      Matcher by = Pattern.compile("by \\(([a-z_, ]+)\\)").matcher(e);
      while (by.find() && e.contains("solrscale_")) {
        for (String label : by.group(1).split(",\\s*")) {
          if (!label.equals("le")) {
            assertThat(metrics).as(e).contains(label + "=\"");
          }
        }
      }
    }
    assertThat(checked).isGreaterThan(10);
  }
}
