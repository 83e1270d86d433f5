package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

/** Charts of one point: XChart's tick loop never ended on an axis whose range is zero. */
class ChartsTest {
  @Test
  void aCategoryChartOfOneCategoryIsDrawn() {
    String svg =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20),
            () ->
                Charts.svg(
                    Charts.categories(
                        "hits",
                        "hits (numFound)",
                        "latency (ms)",
                        List.of("1024-2047"),
                        List.of(new Charts.Curve("p50", new double[] {0}, new double[] {5.2}))),
                    "one"));
    assertThat(svg).contains("<svg");
  }

  @Test
  void aLineChartOfOnePointIsDrawn() {
    String svg =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20),
            () ->
                Charts.svg(
                    Charts.lines(
                        "sweep",
                        "threads",
                        "ms",
                        List.of(new Charts.Curve("p50", new double[] {4}, new double[] {5.2}))),
                    "one"));
    assertThat(svg).contains("<svg");
  }

  @Test
  void theHitsChartOfAFourCombinationSweepIsDrawn() {
    List<String> names =
        List.of(
            "0",
            "1",
            "2-3",
            "4-7",
            "8-15",
            "16-31",
            "32-63",
            "64-127",
            "128-255",
            "256-511",
            "512-1023",
            "1024-2047");
    List<Charts.Curve> curves =
        List.of(
            new Charts.Curve(
                "nodes=1 threads=1",
                new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11},
                new double[] {
                  4.703, 2.495, 3.855, 2.143, 2.975, 1.895, 2.239, 1.631, 2.111, 1.767, 3.087
                }),
            new Charts.Curve(
                "nodes=1 threads=2",
                new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
                new double[] {
                  0.975, 0.735, 0.891, 1.271, 0.971, 0.947, 1.031, 0.763, 1.279, 0.963, 0.863
                }),
            new Charts.Curve(
                "nodes=2 threads=1",
                new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
                new double[] {
                  5.663, 3.871, 4.127, 5.055, 4.703, 2.303, 4.383, 4.895, 5.791, 6.655, 7.199, 2.719
                }),
            new Charts.Curve(
                "nodes=2 threads=2",
                new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11},
                new double[] {
                  4.671, 3.343, 1.927, 2.959, 2.863, 3.135, 3.391, 1.967, 1.495, 2.007, 2.447
                }));
    String svg =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20),
            () ->
                Charts.svg(
                    Charts.categories(
                        "Latency against number of hits (q)",
                        "hits (numFound)",
                        "latency (ms)",
                        names,
                        curves),
                    "hits"));
    assertThat(svg).contains("<svg");
  }

  /** The guard for what no fix foresaw: a layout that never ends costs a chart, not the run. */
  @Test
  @SuppressWarnings(
      "deprecation") // Thread.stop: the only way to end XChart's loop in this test JVM
  void aChartXChartNeverFinishesIsGivenUp() {
    XYChart hangs =
        Charts.lines(
            "t",
            "x",
            "y",
            List.of(
                new Charts.Curve(
                    "c",
                    new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11},
                    new double[] {4.7, 2.5, 3.9, 2.1, 3.0, 1.9, 2.2, 1.6, 2.1, 1.8, 3.1})));
    List<String> names =
        List.of(
            "0",
            "1",
            "2-3",
            "4-7",
            "8-15",
            "16-31",
            "32-63",
            "64-127",
            "128-255",
            "256-511",
            "512-1023",
            "1024-2047");
    hangs.setCustomXAxisTickLabelsFormatter(
        x -> {
          long i = Math.round(x);
          return Math.abs(x - i) < 1e-6 && i >= 0 && i < names.size() ? names.get((int) i) : "";
        });
    try {
      Assertions.assertThatThrownBy(() -> Charts.svg(hangs, "hangs", Duration.ofSeconds(2)))
          .isInstanceOf(Charts.NotDrawn.class)
          .hasMessageContaining("chart hangs was not drawn");
    } finally {
      Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().equals("chart-hangs"))
          .forEach(Thread::stop);
    }
  }
}
