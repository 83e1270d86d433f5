package org.solrscale.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.Diagnosis;

/** The GC log's pauses, the allocation check built on them, and the flame graph's SVG. */
class GcLogTest {
  @TempDir Path dir;

  @Test
  void readsPausesFromEveryRotatedFileInTimeOrder() throws Exception {
    Files.writeString(
        dir.resolve("solr_gc.log.0"),
        "[2026-11-26T10:44:18.724+0000][1.405s] GC(0) Pause Young (Normal) (G1 Evacuation Pause)\n"
            + "[2026-11-26T10:44:18.769+0000][1.449s] GC(0) Pause Young (Normal) (G1 Evacuation"
            + " Pause) 19M->6M(384M) 44.500ms\n");
    Files.writeString(
        dir.resolve("solr_gc.log"),
        "[2026-11-26T10:44:20.000+0000][2.680s] GC(1) Pause Young (Normal) (G1 Evacuation"
            + " Pause) 106M->10M(384M) 5.1ms\n"
            + "[2026-11-26T10:44:21.000+0000][3.680s] GC(2) Pause Remark 60M->60M(384M) 1.2ms\n"
            + "[2026-11-26T10:44:21.100+0000][3.780s] GC(2) Concurrent Mark 12.3ms\n");
    Files.writeString(dir.resolve("other.log"), "GC(9) Pause Young 1M->0M(1M) 1ms\n");
    List<GcLog.Pause> pauses = GcLog.read(dir, "solr_gc.log");
    assertThat(pauses).hasSize(3);
    assertThat(pauses.get(0).end()).isEqualTo(Instant.parse("2026-11-26T10:44:18.769Z"));
    assertThat(pauses.get(1).before()).isEqualTo(106L << 20);
    assertThat(pauses.get(1).after()).isEqualTo(10L << 20);

    // from the first pause to the last: (106-6) + (60-10) MB allocated
    Instant start = Instant.parse("2026-11-26T10:44:18.000Z");
    List<RecordingAnalysis.AllocationSample> samples =
        List.of(
            new RecordingAnalysis.AllocationSample(0.5, 999L << 20), // before the first pause
            new RecordingAnalysis.AllocationSample(1.5, 100L << 20),
            new RecordingAnalysis.AllocationSample(2.5, 40L << 20));
    Diagnosis.AllocationCheck c = AllocationCheck.of(pauses, samples, start, start.plusSeconds(10));
    assertThat(c.collections()).isEqualTo(2);
    assertThat(c.gcLogMb()).isEqualTo(Math.round(150.0 * (1 << 20) / 1e4) / 100.0);
    assertThat(c.jfrMb()).isEqualTo(Math.round(140.0 * (1 << 20) / 1e4) / 100.0);
    assertThat(c.differencePercent()).isCloseTo(-6.67, org.assertj.core.data.Offset.offset(0.01));
    assertThat(AllocationCheck.of(pauses.subList(0, 1), samples, start, start.plusSeconds(10)))
        .isNull();
  }

  @Test
  void theFlameGraphIsWellFormedSvgWithoutScript() throws Exception {
    FlameGraph.Tree t = new FlameGraph.Tree();
    for (int i = 0; i < 30; i++) {
      t.add(List.of("org.a.Leaf.hot", "org.a.Mid.call", "java.lang.Thread.run"));
    }
    for (int i = 0; i < 10; i++) {
      t.add(List.of("org.a.Other.<init>", "java.lang.Thread.run"));
    }
    Path svg = dir.resolve("f.svg");
    FlameGraph.write(t, "solr1: CPU & <all>", svg);
    String text = Files.readString(svg);
    assertThat(text).doesNotContain("<script").contains("Leaf.hot").contains("&lt;init&gt;");
    assertThat(text).contains("org.a.Leaf.hot (30 samples, 75.00 %)");
    DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
  }
}
