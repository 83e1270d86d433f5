package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.FutureTask;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Await;

/**
 * A small version of the scaling study (scenarios/scaling-hosts.yaml) on two lab hosts with a CPU
 * quota each: a matrix of two sweeps (threads at 2 nodes, nodes at 4 threads), 2 repeats. While it
 * runs, each Solr node's cgroup is read from the kernel's own files; afterwards the report's
 * effects table is checked against the run's own per-second figures, read here from each repeat's
 * timeline.csv, and against summary.json's counts.
 */
class ScalingHostsIT {
  static final String NET = "sit";
  static final String NAME = "it-scaling";
  static final String CLUSTER = "scn-" + NAME;
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  @BeforeAll
  static void net() {
    LabNets.fresh(NET, 2);
  }

  @AfterAll
  static void cleanUp() throws IOException {
    Cluster c = new Cluster(SolrscaleHome.fromEnvironment(), CLUSTER, System.err::println);
    if (c.state().isPresent()) {
      c.down(true);
    }
    LabNets.down(NET);
    assertThat(HostsIT.markedProcesses("-Dsolrscale.node=" + CLUSTER + "/")).isEmpty();
  }

  @Test
  void aShortStudyOnCpuBoundedHostsReportsEffectsFromItsOwnFigures() throws Exception {
    Path scenario = dir.resolve("scaling.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: " + NAME,
            "repeat: 2",
            "cluster:",
            "  nodes: 2",
            "  zookeeper: 1",
            "  heap: 256m",
            "  hosts:",
            "    - {ssh: sit-h1, cpus: 0.5}",
            "    - {ssh: sit-h2, roles: [solr], cpus: 0.5}",
            "  collections: [{name: docs, shards: 2}]",
            "data:",
            "  synth: {docs: 2000, seed: 3}",
            "  derive_queries: {count: 200, seed: 3}",
            "steps:",
            "  - index: {collection: docs}",
            "  - bench: {name: warm, collection: docs, threads: 4, warmup: 2s, duration: 6s}",
            "matrix:",
            "  - {bench.warm.threads: [1, 4]}",
            "  - {cluster.nodes: [1, 2]}",
            ""));
    // the kernel's word on each Solr node's CPU, read while the run goes: /proc/PID/cgroup, and
    // the quota and period of that cgroup
    FutureTask<Map<Long, String>> quotas =
        new FutureTask<>(
            () -> {
              Map<Long, String> out = new TreeMap<>();
              Await.until(
                  "two Solr nodes of " + CLUSTER + " running",
                  Duration.ofMinutes(5),
                  () -> {
                    for (long pid :
                        HostsIT.markedProcesses("-Dsolrscale.node=" + CLUSTER + "/solr")) {
                      // the node itself: the shell that starts it carries the same arguments
                      // until it has entered the cgroup and become java
                      if (!Files.readString(Path.of("/proc/" + pid + "/comm"))
                          .strip()
                          .equals("java")) {
                        continue;
                      }
                      Path cpu = HostsIT.cgroupsOf(pid).get("cpu");
                      out.put(
                          pid,
                          HostsIT.read(cpu.resolve("cpu.cfs_quota_us"))
                              + "/"
                              + HostsIT.read(cpu.resolve("cpu.cfs_period_us")));
                    }
                    return out.size() >= 2;
                  });
              return out;
            });
    Thread watcher = new Thread(quotas, "cgroup-watcher");
    watcher.setDaemon(true);
    watcher.start();
    Path out = dir.resolve("run");
    Cli.Result run = Cli.run("run", scenario.toString(), "--out", out.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(quotas.get().values()).hasSizeGreaterThanOrEqualTo(2).containsOnly("50000/100000");

    // three combinations (the base point is in both sweeps and runs once), each named in full
    Map<String, String> made = new TreeMap<>();
    for (JsonNode c : JSON.readTree(out.resolve("results.json").toFile()).get("combinations")) {
      assertThat(c.get("status").asText()).as(c.toString()).isEqualTo("done");
      made.put(c.get("id").asText(), c.get("params").toString());
    }
    assertThat(made)
        .containsExactly(
            Map.entry("c001", "{\"bench.warm.threads\":1,\"cluster.nodes\":2}"),
            Map.entry("c002", "{\"bench.warm.threads\":4,\"cluster.nodes\":2}"),
            Map.entry("c003", "{\"bench.warm.threads\":4,\"cluster.nodes\":1}"));

    // the effects table: threads 1 -> 4 at 2 nodes, nodes 1 -> 2 at 4 threads
    String html = Files.readString(out.resolve("report.html"));
    Map<String, String> qpsChange = effects(html);
    assertThat(qpsChange).containsOnlyKeys("threads 1 \u2192 4", "nodes 1 \u2192 2");
    assertThat(qpsChange.get("threads 1 \u2192 4"))
        .isEqualTo(change(median(out, "c001"), median(out, "c002")));
    assertThat(qpsChange.get("nodes 1 \u2192 2"))
        .isEqualTo(change(median(out, "c003"), median(out, "c002")));
    // and its direction is that of the requests summary.json counts
    assertThat(Math.signum(parse(qpsChange.get("threads 1 \u2192 4"))))
        .isEqualTo(Math.signum(achieved(out, "c002") - achieved(out, "c001")));
  }

  /** Each row of the effects table: "PARAM FROM → TO" to its achieved-QPS change as shown. */
  static Map<String, String> effects(String html) {
    int at = html.indexOf("<table class=\"effects\">");
    assertThat(at).as("an effects table in the report").isPositive();
    String table = html.substring(at, html.indexOf("</table>", at));
    Map<String, String> out = new TreeMap<>();
    Matcher row = Pattern.compile("<tr>(.*?)</tr>").matcher(table);
    while (row.find()) {
      List<String> cells = new ArrayList<>();
      Matcher cell = Pattern.compile("<td>(.*?)</td>").matcher(row.group(1));
      while (cell.find()) {
        cells.add(cell.group(1).replaceAll("<[^>]+>", "").replace(" (noise)", ""));
      }
      if (cells.size() == 7) {
        out.put(cells.get(1) + " " + cells.get(2), cells.get(4));
      }
    }
    return out;
  }

  /**
   * The median of the measured seconds' request rates over both repeats of a combination, read from
   * timeline.csv: measured rows of at least half a second, each repeat's last (cut-off) one left
   * out.
   */
  static double median(Path run, String combination) throws IOException {
    List<Double> rates = new ArrayList<>();
    try (Stream<Path> files = Files.walk(run.resolve(combination))) {
      for (Path t : files.filter(p -> p.endsWith("s2-bench-warm/timeline.csv")).toList()) {
        List<String> lines = Files.readAllLines(t);
        List<String> head = Arrays.asList(lines.get(0).split(","));
        List<Double> own = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
          String[] f = line.split(",");
          if (!f[head.indexOf("phase")].equals("warmup")
              && Double.parseDouble(f[head.indexOf("seconds")]) >= 0.5) {
            own.add(Double.parseDouble(f[head.indexOf("qps")]));
          }
        }
        rates.addAll(own.size() >= 3 ? own.subList(0, own.size() - 1) : own);
      }
    }
    assertThat(rates).as(combination + " measured seconds").hasSizeGreaterThan(4);
    double[] s = rates.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static String change(double from, double to) {
    return String.format(Locale.ROOT, "%+.1f %%", 100 * (to - from) / from);
  }

  static double parse(String pct) {
    return Double.parseDouble(pct.replace("%", "").strip());
  }

  /** Requests answered per second over both repeats, from summary.json's own count and duration. */
  static double achieved(Path run, String combination) throws IOException {
    double count = 0;
    double seconds = 0;
    try (Stream<Path> files = Files.walk(run.resolve(combination))) {
      for (Path s : files.filter(p -> p.endsWith("s2-bench-warm/summary.json")).toList()) {
        JsonNode j = JSON.readTree(s.toFile());
        count += j.get("count").asDouble();
        seconds += j.get("seconds").asDouble();
      }
    }
    return count / seconds;
  }
}
