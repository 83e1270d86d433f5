package org.solrscale.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.solrscale.live.LiveServer;
import org.solrscale.live.RunFollower;
import org.solrscale.results.RunProgress;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Option;

/**
 * {@code --live}: a command that writes a run directory serves its live view (as {@code solrscale
 * watch} would) in its own process while it runs, and prints the address first.
 */
final class LiveOption {
  @Option(
      names = "--live",
      description =
          "Serve a live view of the run while it goes (charts in a browser, /metrics for"
              + " Prometheus) and print its address; the same as `solrscale watch` on --out.")
  boolean live;

  @Option(
      names = "--live-port",
      paramLabel = "PORT",
      defaultValue = "0",
      description = "Port of the live view (default: any free one).")
  int port;

  @Option(
      names = "--live-bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description =
          "Address the live view listens on (default 127.0.0.1: this machine only; see"
              + " docs/security.md before binding wider).")
  String bind;

  /** The work of a command that writes one run directory. */
  interface Work {
    int run() throws Exception;
  }

  /**
   * Runs {@code work} with the view of {@code out} (when --live) and its progress.json (when there
   * is an --out): {@code command}, {@code plannedSeconds} (0: unknown), and whether and how it
   * finished.
   */
  int around(Path out, String command, double plannedSeconds, Work work) throws Exception {
    try (AutoCloseable view = start(out, "--out DIR")) {
      boolean existed = out != null && Files.exists(out);
      RunProgress progress = out == null ? null : new RunProgress(out, command);
      this.progress = progress;
      Thread first = null;
      if (progress != null) {
        if (plannedSeconds > 0) {
          progress.set("planned_s", plannedSeconds);
        }
        // written once the command has made its directory (a refused command makes none)
        first =
            new Thread(
                () -> {
                  try {
                    while (!progress.write()) {
                      Thread.sleep(200);
                    }
                  } catch (InterruptedException e) {
                    // the work ended first
                  }
                },
                "solrscale-progress");
        first.setDaemon(true);
        first.start();
      }
      String outcome = "failed";
      boolean threw = true;
      try {
        int code = work.run();
        outcome = code == 0 ? "done" : "failed";
        threw = false;
        return code;
      } finally {
        if (progress != null) {
          first.interrupt();
          first.join(2000);
          if (threw && progressAlone(out)) {
            // the command stopped before it wrote anything but this file: leave what it left
            try {
              Files.deleteIfExists(out.resolve(RunProgress.FILE));
              Files.deleteIfExists(out.resolve(RunProgress.FILE + ".tmp"));
              if (!existed) {
                Files.deleteIfExists(out);
              }
            } catch (IOException e) {
              // what is left is the user's to remove; the command's own error is the one to tell
            }
          } else {
            progress.set("finished", true, "outcome", outcome);
          }
        }
      }
    }
  }

  private RunProgress progress;
  private static final long PROGRESS_EVERY_MS = 1000;

  /**
   * Sets fields of the running command's progress.json (name, value...; a null value removes one),
   * at most once a second: {@code last} holds when it was last written. Nothing without --out.
   */
  void progress(long[] last, Object... nameValues) {
    long now = System.currentTimeMillis();
    if (progress == null || now - last[0] < PROGRESS_EVERY_MS) {
      return;
    }
    last[0] = now;
    progress.set(nameValues);
  }

  /** Whether progress.json is all there is in {@code dir}. */
  private static boolean progressAlone(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.allMatch(p -> p.getFileName().toString().startsWith(RunProgress.FILE));
    }
  }

  /** A started view of {@code dir}, or a no-op when --live was not given. */
  AutoCloseable start(Path dir, String needsOut) {
    if (!live) {
      return () -> {};
    }
    if (dir == null) {
      throw SolrscaleException.usage("--live follows the run directory: give " + needsOut);
    }
    LiveServer server =
        LiveServer.start(
            RunFollower.of(dir), bind, port, w -> System.err.println("solrscale: " + w));
    System.err.println(
        "live view: " + server.url() + "  (Prometheus: " + server.url() + "metrics)");
    return () -> {
      // the page's last event says the run ended, before the server goes with the process
      Thread.sleep(1500);
      double cpu = server.cpuSeconds();
      server.close();
      System.err.printf(
          java.util.Locale.ROOT,
          "live view closed (it used %.2f s of CPU); `solrscale watch %s` serves it again%n",
          cpu,
          dir);
    };
  }
}
