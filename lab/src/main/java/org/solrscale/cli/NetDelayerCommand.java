package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.net.Delayer;
import org.solrscale.net.EchoServer;
import org.solrscale.net.NfQueue;
import org.solrscale.spec.Slowness;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `solrscale net-delayer`: what a slowed host runs while a latency or loss fault holds (not for
 * users). It holds the packets iptables queues to it, and echoes for the probe across the link.
 */
@Command(
    name = "net-delayer",
    hidden = true,
    description = "Internal: delay or drop the packets of a netfilter queue (root).")
final class NetDelayerCommand implements Callable<Integer> {
  @Option(names = "--queue", required = true)
  int queue;

  @Option(names = "--delay-ms", defaultValue = "0")
  double delayMs;

  @Option(names = "--jitter-ms", defaultValue = "0")
  double jitterMs;

  @Option(names = "--distribution", defaultValue = "normal")
  String distribution;

  @Option(names = "--loss", defaultValue = "0")
  double loss;

  @Option(names = "--reorder")
  boolean reorder;

  @Option(names = "--rate-bps", defaultValue = "0")
  long rateBps;

  @Option(names = "--seed", defaultValue = "42")
  long seed;

  @Option(
      names = "--normal-priority",
      description = "Leave the delayer's threads at normal priority (a measurement's baseline).")
  boolean normalPriority;

  @Option(names = "--echo", description = "Address to echo on for the link probe.")
  String echo;

  @Override
  public Integer call() throws Exception {
    Slowness s =
        new Slowness(
            delayMs,
            jitterMs,
            Slowness.Distribution.valueOf(distribution.toUpperCase(java.util.Locale.ROOT)),
            loss,
            null,
            reorder,
            rateBps);
    NfQueue q = NfQueue.open(queue, 1 << 16);
    Delayer d = new Delayer(q, s, seed, !normalPriority);
    EchoServer e = echo == null ? null : new EchoServer(echo);
    // the caller waits for this line before it sends packets here
    System.out.println(
        "ready queue "
            + queue
            + (e == null ? "" : " echo " + echo + " tcp " + e.tcpPort() + " udp " + e.udpPort()));
    System.out.flush();
    d.run(
        p -> {
          System.out.println("priority " + p);
          System.out.flush();
        });
    return 0;
  }
}
