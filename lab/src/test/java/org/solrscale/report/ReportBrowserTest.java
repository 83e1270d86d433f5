package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.testing.Needs;

/**
 * Opens a report in headless Chromium, as a person would: no console message (the page has no
 * script, so any message is an error: a blocked load, a parse error), every chart on the page, and
 * every chart's SVG laid out with a real size and drawn paths. Skipped when Chromium is not
 * installed (Debian: apt-get install chromium chromium-driver; .ci/run does that).
 */
class ReportBrowserTest {
  private static String chromium;

  @TempDir Path tmp;

  @BeforeAll
  static void findChromium() {
    chromium = Needs.chromium();
  }

  /** What Chromium printed: the DOM after load, and its log. */
  private record Dump(String dom, List<String> log) {}

  private Dump open(Path page, String name) throws Exception {
    Path out = tmp.resolve(name + ".dom");
    Path err = tmp.resolve(name + ".log");
    ProcessBuilder pb =
        new ProcessBuilder(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--enable-logging=stderr",
                "--v=0",
                "--user-data-dir=" + tmp.resolve("profile-" + name),
                "--window-size=1280,2000",
                "--dump-dom",
                page.toUri().toString())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    Process p = pb.start();
    try {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium finished within 120 s").isTrue();
    } finally {
      // by pid: the browser and whatever it started, never by name
      List<ProcessHandle> children = p.toHandle().descendants().toList();
      p.destroyForcibly();
      children.forEach(ProcessHandle::destroyForcibly);
      p.waitFor(10, TimeUnit.SECONDS);
    }
    return new Dump(
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readAllLines(err, StandardCharsets.UTF_8));
  }

  @Test
  void reportOpensWithoutConsoleErrorsAndEveryChartIsDrawn() throws Exception {
    Path dir = RunFixture.sweep(Files.createDirectories(tmp.resolve("run")));
    RunFixture.addDistributeSteps(dir); // the index distribution section's charts too
    RunFixture.addCapacitySteps(dir); // and the capacity section's (a log-scale axis)
    Path html = Report.write(dir);
    List<String> ids = Report.chartIds(dir);
    assertThat(ids).isNotEmpty();

    Dump page = open(html, "page");
    assertThat(page.log())
        .as("console messages and uncaught errors")
        .noneMatch(l -> l.contains(":CONSOLE") || l.contains("Uncaught"));
    for (String id : ids) {
      Matcher m =
          Pattern.compile(
                  "<figure class=\"chart\" id=\"" + Pattern.quote(id) + "\"><svg[^>]*>(.*?)</svg>",
                  Pattern.DOTALL)
              .matcher(page.dom());
      assertThat(m.find()).as("chart " + id + " in the DOM").isTrue();
      assertThat(m.group(1)).as("chart " + id + " has paths").contains("<path");
    }

    // the same page with a probe that measures what the browser laid out and drew
    String probe =
        """
        <script>
        const out = {};
        document.querySelectorAll('figure.chart').forEach(f => {
          const svg = f.querySelector('svg');
          const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
          let drawn = 0;
          if (svg) svg.querySelectorAll('path').forEach(p => {
            const b = p.getBBox();
            if (b.width > 0 || b.height > 0) drawn++;
          });
          out[f.id] = {width: box.width, height: box.height, drawn: drawn};
        });
        document.body.setAttribute('data-probe', JSON.stringify(out));
        </script>
        """;
    String source =
        Files.readString(html)
            .replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';")
            .replace("</body>", probe + "</body>");
    Path probed = dir.resolve("probe.html");
    Files.writeString(probed, source);
    Dump measured = open(probed, "probe");
    assertThat(measured.log()).noneMatch(l -> l.contains("Uncaught"));
    Matcher m = Pattern.compile("data-probe=\"([^\"]*)\"").matcher(measured.dom());
    assertThat(m.find()).as("the probe ran").isTrue();
    JsonNode boxes =
        RunFixture.JSON.readTree(m.group(1).replace("&quot;", "\"").replace("&amp;", "&"));
    assertThat(boxes.size()).isEqualTo(ids.size());
    for (String id : ids) {
      JsonNode b = boxes.path(id);
      assertThat(b.path("width").asDouble()).as(id + " width").isGreaterThan(200);
      assertThat(b.path("height").asDouble()).as(id + " height").isGreaterThan(100);
      assertThat(b.path("drawn").asInt()).as(id + " drawn paths").isGreaterThan(10);
    }
  }
}
