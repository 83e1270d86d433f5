package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cli.Main;

class ReportTest {
  @TempDir Path tmp;

  @Test
  void sweepReportHasEveryChartInlineAndAsFile() throws Exception {
    Path dir = RunFixture.sweep(tmp);
    Path html = Report.write(dir);
    assertThat(html).isEqualTo(dir.resolve("report.html"));
    String page = Files.readString(html);
    List<String> ids = Report.chartIds(dir);
    // 2 swept parameters x 4 metrics, 1 distribution, 1 hits, 1 cold start, 6 timelines, 6 server
    assertThat(ids).hasSize(8 + 1 + 1 + 1 + 6 + 6);
    for (String kind : new String[] {"against-threads", "against-nodes", "latency-by-percentile",
        "latency-against-number-of-hits", "cold-start", "over-time", "server"}) {
      assertThat(ids).as(kind).anyMatch(id -> id.contains(kind));
    }
    for (String id : ids) {
      Matcher m = Pattern.compile("<figure class=\"chart\" id=\"" + Pattern.quote(id)
          + "\"><svg [^>]*>(.*?)</svg>", Pattern.DOTALL).matcher(page);
      assertThat(m.find()).as(id).isTrue();
      assertThat(m.group(1)).as(id).contains("<path");
      Path svg = dir.resolve("charts").resolve(id + ".svg");
      assertThat(svg).as(id).isNotEmptyFile();
      assertThat(Files.readString(svg)).startsWith("<?xml").contains("<svg").contains("<path");
    }
    // self-contained: nothing is loaded from anywhere
    assertThat(page).doesNotContain("<script", "<link", "src=", "@import", "url(http");
    assertThat(page).contains("Findings", "Highest achieved throughput", "Lowest p99 latency",
        "Effect of each parameter", "http_503", "queryResultCache hit ratio", "zk avg latency ms",
        "Test CPU @ 2.0GHz",
        "q=body_t:{term}&amp;facet=true", "docs_per_sec");
  }

  @Test
  void bigSweepsAreCappedToReadableCharts() throws Exception {
    Path dir = RunFixture.bigSweep(tmp);
    Report.write(dir);
    List<String> ids = Report.chartIds(dir);
    // 3 parameters x 4 metrics; distribution, hits, cold start; 12 of 27 timelines
    assertThat(ids).hasSize(12 + 3 + 12);
    String page = Files.readString(dir.resolve("report.html"));
    assertThat(page).contains("Other parameters fixed at threads=1.", "Other parameters fixed at shards=1.",
        "Only the first 12 of 27 combinations are drawn.", "Over-time charts of the first 12 of 27");
  }

  @Test
  void singleCombinationReport() throws Exception {
    Path dir = RunFixture.single(tmp, 1.0, 3, 1);
    Report.write(dir);
    List<String> ids = Report.chartIds(dir);
    assertThat(ids).hasSize(4); // distribution, hits, cold start, one timeline
    String page = Files.readString(dir.resolve("report.html"));
    assertThat(page).contains("a cold start", "No server telemetry recorded")
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
}
