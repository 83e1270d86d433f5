package org.solrscale.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexProgressLogTest {
  @TempDir Path dir;

  @Test
  void eachWholeSecondGetsTheDocumentsAcceptedInItAndThePartSecondAtTheEndIsLeftOut()
      throws Exception {
    IndexProgressLog log = new IndexProgressLog(dir);
    // 1,000 docs/s for 2 s, then 3,000 docs/s, ending 3.75 s in
    double[][] samples = {
      {0.5, 500}, {1.0, 1000}, {1.5, 1500}, {2.0, 2000}, {2.5, 3500}, {3.0, 5000}, {3.75, 7250}
    };
    for (double[] s : samples) {
      log.record(s[0], (long) s[1]);
      // each row is in the file as soon as it is recorded: `watch` follows it
      assertThat(Files.readAllLines(dir.resolve(IndexProgressLog.FILE)))
          .endsWith(String.format(java.util.Locale.ROOT, "%.3f,%d", s[0], (long) s[1]));
    }
    log.close();
    assertThat(Files.readAllLines(dir.resolve(IndexProgressLog.FILE)))
        .startsWith("seconds,accepted", "0.500,500")
        .endsWith("3.750,7250");
    assertThat(IndexProgressLog.perSecond(dir)).containsExactly(1000, 1000, 3000);
  }

  @Test
  void samplesBetweenSecondsAreInterpolatedAndNoFileIsNoValues() throws Exception {
    Files.writeString(
        dir.resolve(IndexProgressLog.FILE), "seconds,accepted\n0.7,700\n1.4,1400\n2.1,2100\n");
    assertThat(IndexProgressLog.perSecond(dir))
        .containsExactly(new double[] {1000, 1000}, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(IndexProgressLog.perSecond(dir.resolve("none"))).isEmpty();
    Files.writeString(dir.resolve(IndexProgressLog.FILE), "seconds,accepted\n0.4,400\n");
    assertThat(IndexProgressLog.perSecond(dir)).isEmpty();
  }
}
