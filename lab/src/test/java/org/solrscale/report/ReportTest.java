package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cli.Main;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.LossVerdict;
import org.solrscale.results.LostBatches;
import org.solrscale.results.LostWrite;
import org.solrscale.results.RunDir;

class ReportTest {
  @TempDir Path tmp;

  @Test
  void chaosStepsGetAVerdictTableAndTheirFaultsShaded() throws Exception {
    Path dir = RunFixture.single(tmp, 1.0, 3, 1);
    var json = new ObjectMapper();
    var results = (ObjectNode) json.readTree(dir.resolve("results.json").toFile());
    var steps = (ArrayNode) results.get("combinations").get(0).get("steps");
    String sdir = "c001/r1/s2-chaos-leader-kill";
    Files.createDirectories(dir.resolve(sdir));
    FaultRecord f =
        new FaultRecord(
            "leader-kill",
            "kill",
            "leader-of:shard1",
            List.of("solr2"),
            10.0,
            30.0,
            75.0,
            45.0,
            null);
    FaultRecord skipped =
        new FaultRecord(
            "pause",
            "pause",
            "random",
            List.of(),
            null,
            null,
            null,
            null,
            "not injected: no Solr node can be taken down safely now");
    ChaosVerdict.Counts w = new ChaosVerdict.Counts(100, 90, 8, 2, null, null, 1);
    ChaosVerdict.Counts q = new ChaosVerdict.Counts(100, 97, 3, 0, 0L, 0L, null);
    ChaosVerdict v =
        new ChaosVerdict(
            false,
            ChaosVerdict.FAIL,
            null,
            null,
            new LossVerdict(
                1000,
                992L,
                8L,
                List.of("chaos-x-1052", "chaos-x-1053"),
                3L,
                Map.of("1", 8L),
                Map.of("1", 400L, "2", 600L),
                new LostBatches(1, 0, 1, 1),
                12L,
                List.of(
                    new LostWrite(
                        11_000,
                        28_117.0,
                        "127.0.0.1:8986",
                        1,
                        10,
                        List.of("chaos-x-1052", "chaos-x-1053"))),
                null),
            1,
            45.0,
            true,
            0.93,
            0.9,
            w,
            q,
            Map.of("add HTTP 500: Async exceptions", 8L),
            Map.of("before", new ChaosVerdict.Percentiles(10, 5, 9, 9)),
            List.of(),
            List.of(
                new ChaosVerdict.FaultVerdict(
                    f,
                    0.9,
                    w,
                    q,
                    Map.of(),
                    List.of(
                        new ChaosVerdict.Behaviour(
                            "queries without shards.tolerant fail", "3 of 3 failed", true))),
                new ChaosVerdict.FaultVerdict(skipped, null, null, null, null, List.of())));
    // two slow links from one data centre: the same kind on the same nodes, each measured
    FaultRecord eastWest =
        new FaultRecord(
            "east-west",
            "latency",
            "dc=east<->dc=west",
            List.of("zk1", "solr1"),
            5.0,
            60.0,
            61.0,
            1.0,
            null,
            org.solrscale.results.LinkFault.of(
                List.of("lab-h1"),
                List.of("lab-h3"),
                org.solrscale.spec.Slowness.of("300ms", null, null, null, null, null),
                new org.solrscale.results.LinkProbe(
                    "lab-h3",
                    "10.201.0.2",
                    5,
                    20,
                    602.7,
                    490,
                    600.0,
                    601.0,
                    640.0,
                    700.0,
                    21.6,
                    2480,
                    2480,
                    601.0,
                    630.0,
                    690.0,
                    21.6)));
    FaultRecord eastTie =
        new FaultRecord(
            "east-tie",
            "latency",
            "dc=east<->dc=tie",
            List.of("zk1", "solr1"),
            5.0,
            60.0,
            61.0,
            1.0,
            null,
            null);
    json.writeValue(
        dir.resolve(sdir).resolve("faults.json").toFile(), List.of(f, skipped, eastWest, eastTie));
    StringBuilder csv =
        new StringBuilder(
            "second,phase,requests,errors,qps,latency_p50_ms,latency_p99_ms,latency_max_ms\n");
    for (int s = 0; s < 90; s++) {
      double p99 = s >= 10 && s < 75 ? 900 : 20;
      csv.append(s).append(",measure,30,0,30,5,").append(p99).append(',').append(p99).append('\n');
    }
    Files.writeString(dir.resolve(sdir).resolve("timeline.csv"), csv);
    var step = steps.addObject();
    step.put("index", 2).put("kind", "chaos").put("name", "leader-kill").put("dir", sdir);
    step.set("summary", json.valueToTree(v));
    // what each ZooKeeper server of the ensemble did while the links were slow (telemetry)
    step.set(
        "telemetry",
        json.valueToTree(
            Map.of(
                "zk1",
                Map.of(
                    "zk_not_serving_s", 0.7,
                    "zk_leading_share", 0.3,
                    "zk_became_leader", 1.0,
                    "zk_synced_followers_min", 1.0,
                    "zk_sync_limit_ms", 1000.0,
                    "zk_sessions_expired", 2.0),
                "solr1",
                Map.of("cpu_percent", 40.0, "zk_session_expired", 0.0),
                "solr2",
                Map.of("cpu_percent", 35.0, "zk_session_expired", 1.0),
                "zk2",
                Map.of(
                    "zk_not_serving_s", 0.7,
                    "zk_leading_share", 0.0,
                    "zk_became_leader", 0.0,
                    "zk_sync_limit_ms", 1000.0),
                "zk3",
                Map.of(
                    "zk_not_serving_s", 2.9,
                    "zk_leading_share", 0.25,
                    "zk_became_leader", 0.0,
                    "zk_synced_followers_min", 2.0,
                    "zk_sync_limit_ms", 1000.0))));
    json.writeValue(dir.resolve("results.json").toFile(), results);

    String page = Files.readString(Report.write(dir));
    // the doctor's rule on the ensemble's limit and the slowest link, beside what it did
    assertThat(page)
        .contains("ZooKeeper across the slow links")
        .contains(
            "<td>3</td><td>1,000</td><td>601</td><td>warning</td><td>1.00</td><td>1.00</td>"
                + "<td>2.90</td><td>2 / 1 (solr2)</td><td>lost its leader: elected again</td>");
    // the Network section: asked and measured, beside each other
    assertThat(page)
        .contains(
            "href=\"#network\"", "300 ms each way, round trip +600 ms", "lab-h1 &lt;-&gt; lab-h3")
        .contains("<td>601</td><td>630</td><td>21.6</td>", "0.00% [0.00-0.15%] of 2480");
    assertThat(page)
        .contains(
            "Faults and verdicts",
            "href=\"#chaos\"",
            "FAIL",
            "chaos-x-1052",
            "kill leader-of:shard1",
            "held: queries without shards.tolerant fail",
            "not injected: no Solr node",
            "90.0 %",
            "Acknowledged writes that lost documents",
            "127.0.0.1:8986",
            // lost by setting: the repeat's counts, rf of lost and acknowledged ids, batches
            "<table class=\"lost-by-setting\">",
            "docs/findings/solr-5939.md",
            "1 of 1",
            "rf=1: 400, rf=2: 600",
            "1 (0 / 1)");
    String chart =
        Report.chartIds(dir).stream()
            .filter(id -> id.contains("faults-over-time"))
            .findFirst()
            .orElseThrow();
    // the fault's interval is drawn in its own fill colour (SVG text is drawn as paths here)
    assertThat(Files.readString(dir.resolve("charts").resolve(chart + ".svg")).toLowerCase())
        .containsAnyOf("rgb(250,205,200)", "#facdc8");
    String benchChart =
        Report.chartIds(dir).stream()
            .filter(id -> id.contains("over-time") && !id.contains("faults"))
            .findFirst()
            .orElseThrow();
    assertThat(Files.readString(dir.resolve("charts").resolve(benchChart + ".svg")).toLowerCase())
        .doesNotContain("rgb(250,205,200)", "#facdc8");
    // a run without chaos steps has no such section
    assertThat(Files.readString(Report.write(RunFixture.single(tmp.resolve("plain"), 1.0, 3, 1))))
        .doesNotContain("Faults and verdicts", "href=\"#chaos\"");
  }

  @Test
  void distributeStepsGetTheirReplicasTheirProgressAndTimeToActiveAgainstN() throws Exception {
    Path dir = RunFixture.single(tmp, 1.0, 3, 1);
    RunFixture.addDistributeSteps(dir);
    String page = Files.readString(Report.write(dir));
    assertThat(page)
        .contains(
            "Index distribution",
            "href=\"#distribute\"",
            "Time until every new replica is active",
            "Progress of chain3",
            "shard1 on solr3: active at 11.0 s",
            "shard1 on solr4: failed",
            "its relay ended without a result (killed?)");
    assertThat(page).doesNotContain("Progress of solr1"); // Solr's own copy has no progress
    assertThat(Report.chartIds(dir))
        .anyMatch(id -> id.contains("time-until-every-new-replica"))
        .anyMatch(id -> id.contains("progress-of-chain1"));
    assertThat(Files.readString(Report.write(RunFixture.single(tmp.resolve("plain"), 1.0, 3, 1))))
        .doesNotContain("Index distribution");
  }

  @Test
  void sweepReportHasEveryChartInlineAndAsFile() throws Exception {
    Path dir = RunFixture.sweep(tmp);
    Path html = Report.write(dir);
    assertThat(html).isEqualTo(dir.resolve("report.html"));
    String page = Files.readString(html);
    List<String> ids = Report.chartIds(dir);
    // 2 swept parameters x 4 metrics, 1 distribution, 1 hits, 1 cold start, 6 timelines, 6 server
    assertThat(ids).hasSize(8 + 1 + 1 + 1 + 6 + 6);
    for (String kind :
        new String[] {
          "against-threads",
          "against-nodes",
          "latency-by-percentile",
          "latency-against-number-of-hits",
          "cold-start",
          "over-time",
          "server"
        }) {
      assertThat(ids).as(kind).anyMatch(id -> id.contains(kind));
    }
    for (String id : ids) {
      Matcher m =
          Pattern.compile(
                  "<figure class=\"chart\" id=\"" + Pattern.quote(id) + "\"><svg [^>]*>(.*?)</svg>",
                  Pattern.DOTALL)
              .matcher(page);
      assertThat(m.find()).as(id).isTrue();
      assertThat(m.group(1)).as(id).contains("<path");
      Path svg = dir.resolve("charts").resolve(id + ".svg");
      assertThat(svg).as(id).isNotEmptyFile();
      assertThat(Files.readString(svg)).startsWith("<?xml").contains("<svg").contains("<path");
    }
    // self-contained: nothing is loaded from anywhere
    assertThat(page).doesNotContain("<script", "<link", "src=", "@import", "url(http");
    assertThat(page)
        .contains(
            "Findings",
            "Highest achieved throughput",
            "Lowest p99 latency",
            "Effect of each parameter",
            "http_503",
            "partial answers of",
            "so their latency is not that of complete answers",
            "queryResultCache hit ratio",
            "zk avg latency ms",
            "Test CPU @ 2.0GHz",
            "q=body_t:{term}&amp;facet=true",
            "docs_per_sec");
  }

  @Test
  void bigSweepsAreCappedToReadableCharts() throws Exception {
    Path dir = RunFixture.bigSweep(tmp);
    Report.write(dir);
    List<String> ids = Report.chartIds(dir);
    // 3 parameters x 4 metrics; distribution, hits, cold start; 12 of 27 timelines
    assertThat(ids).hasSize(12 + 3 + 12);
    String page = Files.readString(dir.resolve("report.html"));
    assertThat(page)
        .contains(
            "Other parameters fixed at threads=1.",
            "Other parameters fixed at shards=1.",
            "Only the first 12 of 27 combinations are drawn.",
            "Over-time charts of the first 12 of 27");
  }

  @Test
  void singleCombinationReport() throws Exception {
    Path dir = RunFixture.single(tmp, 1.0, 3, 1);
    Report.write(dir);
    List<String> ids = Report.chartIds(dir);
    assertThat(ids).hasSize(4); // distribution, hits, cold start, one timeline
    String page = Files.readString(dir.resolve("report.html"));
    assertThat(page)
        .contains("a cold start", "No server telemetry recorded")
        .doesNotContain("Metrics against the swept parameters");
  }

  @Test
  void cliPrintsThePathAndHonoursOut() throws Exception {
    Path dir = RunFixture.single(tmp.resolve("run"), 1.0, 3, 1);
    Files.createDirectories(dir);
    Path out = tmp.resolve("elsewhere/r.html");
    Files.createDirectories(out.getParent());
    assertThat(Main.run("report", dir.toString(), "--out", out.toString())).isZero();
    assertThat(out).isNotEmptyFile();
    assertThat(out.getParent().resolve("charts")).isDirectory();
    assertThat(Main.run("report", tmp.resolve("nothing").toString())).isEqualTo(2);
  }

  @Test
  void aBenchWhoseRequestsAllFailedIsNeverRankedAndSaysWhyItIsLeftOut(@TempDir Path tmp)
      throws Exception {
    Path run = RunFixture.allNotFound(tmp.resolve("nf"));
    Findings f = Findings.of(new RunModel(RunDir.open(run)));
    String notes = String.join("\n", f.notes);
    assertThat(notes).doesNotContain("Highest achieved throughput").doesNotContain("Lowest p99");
    assertThat(notes)
        .contains(
            "Left out of every finding, table and chart: c002 r1 (threads=2): failed: step 1 "
                + "(bench search) measured nothing: all of");
    assertThat(notes)
        .contains("c003 r1 step search: measured nothing:")
        .contains("requests failed");
    assertThat(f.effects).isEmpty(); // no parameter change is judged on a failed measurement
    String html = Files.readString(Report.write(run));
    assertThat(html).contains("Left out of every finding");
    // the results table holds c001 only
    assertThat(
            html.substring(
                html.indexOf("<table class=\"results\""),
                html.indexOf("</table>", html.indexOf("<table class=\"results\""))))
        .contains("c001")
        .doesNotContain("c002")
        .doesNotContain("c003");
  }

  /** Replaces the single run's bench timeline with these rows, under its header. */
  static void timeline(Path run, String... rows) throws java.io.IOException {
    Path timeline = run.resolve("c001/r1/s1-bench-search/timeline.csv");
    Files.writeString(
        timeline, Files.readAllLines(timeline).get(0) + "\n" + String.join("\n", rows) + "\n");
  }

  @Test
  void aBenchShorterThanASecondStillGetsAReport(@TempDir Path tmp) throws Exception {
    Path run = RunFixture.single(tmp.resolve("short"), 1.0, 3, 1);
    timeline(run, "0.000,measured,50,0,100.2,5.1,40.1,40.1,5.0,39.0,102400,0.499");
    String html = Files.readString(Report.write(run));
    assertThat(html).contains("<h2>Over time</h2>");
  }

  @Test
  void aSlowWarmupWithEmptySecondsIsShadedFromItsStartToTheMeasuredTime(@TempDir Path tmp)
      throws Exception {
    // a cross-DC bench at 2 requests a second: seconds without an answer inside the warm-up, which
    // runs before this fix wrote as measured, made the shade run backwards and the report fail
    Path run = RunFixture.single(tmp.resolve("slow"), 1.0, 3, 1);
    timeline(
        run,
        "0.0,measured,0,0,0.0,0.0,0.0,0.0,0.0,0.0,0,1.0",
        "1.0,warmup,2,0,2.0,1443.8,1562.6,1562.6,1300.4,1558.5,12921,1.0",
        "2.0,measured,0,0,0.0,0.0,0.0,0.0,0.0,0.0,0,1.0",
        "3.0,warmup,2,0,2.0,1690.6,2416.6,2416.6,1669.1,2369.5,18085,1.0",
        "3.0,measured,1,0,1.0,1057.7,1057.7,1057.7,1057.7,1057.7,10150,1.0",
        "4.0,measured,4,0,4.0,437.7,1208.3,1208.3,437.7,1208.3,31550,1.0",
        "5.0,measured,4,0,4.0,437.7,1208.3,1208.3,437.7,1208.3,31550,1.0");
    String html = Files.readString(Report.write(run));
    assertThat(html).contains("<h2>Over time</h2>", "the warm-up is shaded grey");
  }

  @Test
  void aStaircaseIsDrawnAsLatencyAgainstRate(@TempDir Path tmp) throws Exception {
    Path run = RunFixture.single(tmp.resolve("stairs"), 1.0, 5, 1);
    ObjectMapper json = new ObjectMapper();
    ObjectNode results = (ObjectNode) json.readTree(run.resolve("results.json").toFile());
    ObjectNode summary =
        (ObjectNode) results.get("combinations").get(0).get("steps").get(1).get("summary");
    var steps = summary.putArray("steps");
    double[][] stairs = {
      {20, 20, 4, 9}, {40, 40, 5, 12}, {60, 48, 900, 2400}
    }; // rate, achieved, p50, p99
    for (double[] st : stairs) {
      var o =
          steps
              .addObject()
              .put("rate", st[0])
              .put("achieved", st[1])
              .put("seconds", 5.0)
              .put("scheduled", (long) st[0] * 5)
              .put("completed", (long) st[1] * 5)
              .put("errors", 0)
              .put(
                  "bottleneck",
                  st[0] == 60 ? "server" : "none: the server kept up with the offered rate");
      o.putObject("latency_ms").put("p50", st[2]).put("p99", st[3]).put("p99.9", st[3] * 1.2);
      o.putObject("service_time_ms").put("p50", st[2]).put("p99", st[3]);
    }
    json.writeValue(run.resolve("results.json").toFile(), results);
    String html = Files.readString(Report.write(run));
    assertThat(html).contains("<h2>Latency against rate</h2>", "href=\"#knee\"");
    assertThat(Report.chartIds(run)).anyMatch(id -> id.contains("latency-against-rate"));
    String table = html.substring(html.indexOf("<table class=\"stairs\""));
    assertThat(table.substring(0, table.indexOf("</table>")))
        .contains("<td>60.0</td>", "<td>48.0</td>", "server");
  }

  /**
   * The results table's figures are the planted summaries' means, computed here from results.json.
   */
  @Test
  void theResultsTableHoldsThePlantedFigures(@TempDir Path tmp) throws Exception {
    Path run = RunFixture.sweep(tmp.resolve("sweep"));
    JsonNode results = new ObjectMapper().readTree(run.resolve("results.json").toFile());
    Map<String, List<JsonNode>> byId = new LinkedHashMap<>();
    for (JsonNode c : results.get("combinations")) {
      byId.computeIfAbsent(c.get("id").asText(), k -> new ArrayList<>())
          .add(c.get("steps").get(1).get("summary"));
    }
    String html = Files.readString(Report.write(run));
    String table = html.substring(html.indexOf("<table class=\"results\""));
    table = table.substring(0, table.indexOf("</table>"));
    for (var e : byId.entrySet()) {
      double qps =
          e.getValue().stream()
              .mapToDouble(x -> x.get("throughput").get("achieved").asDouble())
              .average()
              .orElseThrow();
      double p99 =
          e.getValue().stream()
              .mapToDouble(x -> x.get("latency_ms").get("p99").asDouble())
              .average()
              .orElseThrow();
      long requests =
          Math.round(
              e.getValue().stream()
                  .mapToDouble(x -> x.get("count").asDouble())
                  .average()
                  .orElseThrow());
      String row = table.substring(table.indexOf("<td>" + e.getKey() + "</td>"));
      row = row.substring(0, row.indexOf("</tr>"));
      List<String> cells =
          Arrays.stream(row.split("<td>"))
              .skip(1)
              .map(c -> c.replaceAll("<small>.*?</small>", "").replaceAll("<[^>]+>", "").strip())
              .toList();
      assertThat(cells.get(0)).isEqualTo(e.getKey());
      assertThat(cells.get(2)).isEqualTo("2/2"); // repeats finished of repeats
      assertThat(cells.get(3)).as(e.getKey() + " requests").isEqualTo(Html.num(requests));
      assertThat(cells.get(4)).as(e.getKey() + " achieved QPS").isEqualTo(Html.num(qps));
      assertThat(cells.get(6)).as(e.getKey() + " p99").isEqualTo(Html.num(p99));
    }
  }

  @Test
  void aRunSweepingTheSolrVersionPutsTheVersionsSideBySideAsCompareJudgesThem() throws Exception {
    Path dir = RunFixture.versions(tmp.resolve("upgrade"));
    String page = Files.readString(Report.write(dir));
    assertThat(page)
        .contains(
            "Versions side by side",
            "href=\"#versions\"",
            "Each Solr version against 9.8.1",
            "solr_version=9.8.1 vs 9.10.1, step search (samples: repeats; repeats: 4 and 4)",
            "solr_version=9.8.1 vs 9.10.1, step load (samples: repeats; repeats: 4 and 4)",
            "<td>indexing (docs/s)</td>",
            "slower");
    // a run that sweeps no version has no such section
    assertThat(Files.readString(Report.write(RunFixture.sweep(tmp.resolve("sweep")))))
        .doesNotContain("Versions side by side");
  }
}
