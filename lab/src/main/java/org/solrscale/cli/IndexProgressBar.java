package org.solrscale.cli;

import java.util.function.Consumer;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.solrscale.index.IndexProgress;

/**
 * Shows a bulk load on stderr: a live bar (input MB read, MB/s, ETA, documents, docs/s, rejects) on
 * a terminal; a plain line every few seconds when stderr goes to a file or a pipe.
 */
final class IndexProgressBar implements Consumer<IndexProgress>, AutoCloseable {
  private static final double LINE_EVERY_SECONDS = 5;
  private final boolean interactive = System.console() != null;
  private ProgressBar bar;
  private double lastLine;

  @Override
  public synchronized void accept(IndexProgress p) {
    String docs =
        String.format(
            "%,d docs (%,.0f/s), %,d rejected", p.accepted(), p.docsPerSec(), p.rejected());
    if (!interactive) {
      if (!p.done() && p.seconds() - lastLine >= LINE_EVERY_SECONDS) {
        lastLine = p.seconds();
        double eta = p.etaSeconds();
        // the share and the rate count the inputs' bytes on disk (compressed for gzip), and the
        // rate
        // is the average since the start, not the last seconds'
        System.err.printf(
            "  %s; %sinput read at %.1f MB/s on average so far%s%n",
            docs,
            eta >= 0 ? p.bytesRead() * 100 / p.totalBytes() + "% of input bytes, " : "",
            p.mbPerSec(),
            eta >= 0 ? String.format(", ETA %.0f s", eta) : "");
      }
      return;
    }
    if (bar == null) {
      bar =
          new ProgressBarBuilder()
              .setTaskName("index, input bytes")
              .setInitialMax(Math.max(1, p.totalBytes()))
              .setUnit(" MB", 1_000_000)
              .showSpeed()
              .setStyle(ProgressBarStyle.ASCII)
              .setConsumer(new ConsoleProgressBarConsumer(System.err))
              .setUpdateIntervalMillis(250)
              .build();
    }
    bar.stepTo(Math.min(p.bytesRead(), p.totalBytes()));
    bar.setExtraMessage(docs);
    if (p.done()) {
      close();
    }
  }

  @Override
  public synchronized void close() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }
}
