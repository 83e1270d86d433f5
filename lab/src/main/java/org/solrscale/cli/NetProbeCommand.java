package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.net.RttProbe;
import org.solrscale.results.RunDir;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `solrscale net-probe`: measures a link to a delayer's echo, prints JSON (not for users). */
@Command(
    name = "net-probe",
    hidden = true,
    description = "Internal: round trips and losses to an echo across a link, as JSON.")
final class NetProbeCommand implements Callable<Integer> {
  @Option(names = "--address", required = true)
  String address;

  @Option(names = "--tcp-port", required = true)
  int tcpPort;

  @Option(names = "--udp-port", defaultValue = "0", description = "0: TCP connects alone.")
  int udpPort;

  @Option(names = "--seconds", defaultValue = "3")
  double seconds;

  @Option(names = "--from", defaultValue = "?")
  String from;

  @Override
  public Integer call() throws Exception {
    if (!(seconds > 0 && seconds <= 60)) {
      System.err.println("solrscale: --seconds is between 0 and 60");
      return 2;
    }
    System.out.println(
        RunDir.JSON.writeValueAsString(RttProbe.measure(from, address, tcpPort, udpPort, seconds)));
    return 0;
  }
}
