package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.RunDir;
import org.solrscale.results.RunResults;
import org.solrscale.results.RunSelection;

/** A folder a command's --out wrote (bench: summary.json, timeline.csv, latency.hlog) is a run. */
class CommandFolderTest {
  @TempDir Path tmp;

  @Test
  void aBenchFolderIsARunOfOneStepThatReportAndCompareRead() throws Exception {
    Path out = tmp.resolve("b1");
    Files.createDirectories(out);
    BenchSummary s = RunFixture.bench(out, new RunFixture.Load(2, 4.0, 1.0, 5, 1, 4, 0, 0));
    RunFixture.JSON.writeValue(out.resolve("summary.json").toFile(), s);
    RunResults.writeOneStep(out, "bench", s, null);

    RunDir run = RunDir.open(out);
    var step = run.results().combinations().get(0).steps().get(0);
    assertThat(run.bench(step).count()).isEqualTo(s.count());
    assertThat(run.timeline(step)).hasSize(5);
    String page = OldRunDirTest.text(Files.readString(Report.write(out)));
    assertThat(page).contains("bench").contains(String.format("%,d", s.count()));
    Path other = tmp.resolve("b2");
    Files.createDirectories(other);
    BenchSummary s2 = RunFixture.bench(other, new RunFixture.Load(2, 6.0, 1.0, 6, 1, 4, 0, 0));
    RunResults.writeOneStep(other, "bench", s2, null);
    Comparison c =
        Compare.compare(RunSelection.parse(out.toString()), RunSelection.parse(other.toString()));
    assertThat(c.steps()).extracting(Comparison.StepDelta::step).containsExactly("bench");
  }
}
