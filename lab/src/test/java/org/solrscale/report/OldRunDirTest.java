package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.RunDir;

/**
 * A run directory written before issue 40 (results as records read by name) still reads: the
 * fixture under src/test/resources/old-runs/before-40 was made by that day's writers (IndexResult,
 * BenchSummary through RunLog, Distributor.Result, CapacitySearch.Result, ChaosVerdict and
 * IndexProgressLog) and is never regenerated.
 */
class OldRunDirTest {
  @TempDir Path tmp;

  static Path copy(Path to) throws Exception {
    Path from = Path.of("src/test/resources/old-runs/before-40");
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
    return to;
  }

  @Test
  void theReportReadsEveryStepOfARunMadeBeforeTypedResults() throws Exception {
    Path dir = copy(tmp.resolve("run"));
    RunModel model = new RunModel(RunDir.open(dir));
    assertThat(model.combinations()).hasSize(1);
    // index-progress.csv: 2400 documents in the first second, 2400 in the second, ...
    assertThat(model.indexKeys()).containsExactly("load");
    RunModel.IndexLoad load = model.indexLoads("c001", "load").get(0);
    assertThat(load.docsPerSec()).isEqualTo(2380.9);
    assertThat(load.perSecond()).containsExactly(2400.0, 2400.0, 2300.0, 2400.0);
    assertThat(model.stepKeys()).containsExactly("search");
    assertThat(model.benches("c001", "search").get(0).summary().count()).isPositive();
    String page = text(Files.readString(Report.write(dir)));
    assertThat(page)
        .contains(
            "load index read 10000, accepted 10000",
            "docs_per_sec 2,381",
            "c001 1 leader-kill FAIL 1000 992 8 (chaos-x-1052, chaos-x-1053) 1 45.0 93.0 % 90.0 %",
            "c001 1 chain3 chain shard1 solr4 failed 50.0 0 0 10.0 its relay ended without a result",
            "c001 1 solr3 solr shard1 solr3 active 0 0 50.0 19.0 1000",
            "the highest capacity is c001's 87.5 requests/s",
            "cap c001 1 85 85.0 2000 44.4 133 200 0.00 % meets",
            // environment.json of that day: no hosts, a node without its role
            "cpu model Test CPU @ 2.0GHz",
            "memory 24.0 GiB",
            "git revision abc1234",
            "solr1 -Xms512m 512m G1");
    assertThat(page).doesNotContain("hosts");
  }

  /** The page's text: no charts, no tags, entities decoded, white space collapsed. */
  static String text(String html) {
    return html.replaceAll("(?s)<svg.*?</svg>", "")
        .replaceAll("<[^>]+>", " ")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .replaceAll("\\s+", " ");
  }
}
