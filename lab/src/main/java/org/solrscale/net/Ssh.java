package org.solrscale.net;

import java.time.Duration;
import java.util.List;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/** Runs a command on a lab host with the system's ssh, through solrscale's ssh configuration. */
final class Ssh {
  private Ssh() {}

  static String ssh() {
    return Commands.which("ssh")
        .orElseThrow(
            () ->
                SolrscaleException.environment(
                    "lab networks need ssh; install OpenSSH's client "
                        + "(e.g. apt-get install openssh-client)"));
  }

  /** {@code ssh -F CONFIG -o BatchMode=yes -o ConnectTimeout=5 HOST COMMAND}. */
  static Commands.Result run(SolrscaleHome home, String host, String command) {
    return Commands.run(
        List.of(
            ssh(),
            "-F",
            SshConfig.file(home).toString(),
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=5",
            host,
            command),
        Duration.ofSeconds(20));
  }
}
