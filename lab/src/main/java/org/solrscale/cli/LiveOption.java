package org.solrscale.cli;

import java.nio.file.Path;
import org.solrscale.live.LiveServer;
import org.solrscale.live.RunFollower;
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
