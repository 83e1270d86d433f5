package org.solrscale.report;

import java.nio.file.*;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumpReportTest {
  @TempDir Path tmp;

  @Test
  void dump() throws Exception {
    Path dir = OldRunDirTest.copy(tmp.resolve("run"));
    Files.copy(
        Report.write(dir),
        Path.of("/tmp/f40/report-" + System.getProperty("tag", "x") + ".html"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
