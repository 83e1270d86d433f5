package org.solrscale.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.solrscale.live.LiveServer;
import org.solrscale.live.RunFollower;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale watch DIR`: the live view of a run, while it is written or after. */
@Command(
    name = "watch",
    description =
        "Serve a live view of a run directory in a browser (throughput, latency, faults, nodes,"
            + " progress, updated every second) and /metrics for Prometheus, until Ctrl-C. Works"
            + " while any command writes DIR (run, or bench, chaos with --out), and after.")
final class WatchCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description = "The run directory (run's --out, or bench's or chaos's --out).")
  Path dir;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "0",
      description = "Port to listen on (default: any free one).")
  int port;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description =
          "Address to listen on (default 127.0.0.1: this machine only; see docs/security.md"
              + " before binding wider).")
  String bind;

  @Override
  public Integer call() throws Exception {
    RunFollower run = RunFollower.of(dir);
    try (LiveServer server =
        LiveServer.start(run, bind, port, w -> System.err.println("solrscale: " + w))) {
      System.out.println(server.url());
      System.out.println("watching " + run.root() + "; /metrics for Prometheus; Ctrl-C to stop");
      System.out.flush();
      new CountDownLatch(1).await(); // until Ctrl-C ends the process
    } catch (InterruptedException e) {
      // Ctrl-C: the way a watch ends
    }
    return 0;
  }
}
