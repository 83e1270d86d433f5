package org.solrscale.net;

import java.nio.file.Path;
import java.util.List;
import org.solrscale.runtime.SolrscaleHome;

/**
 * The ssh client configuration that names every host of every lab network that is up
 * ($SOLRSCALE_HOME/ssh/config), for {@code ssh -F}. The user's own configuration and the system's
 * are included after the hosts, under {@code Match all}: an Include after a Host block would apply
 * only to that block's host, and ssh takes the first value it reads of an option, so the lab hosts'
 * settings win for them and the user's apply to everything else (a {@code Host *} with a ProxyJump
 * among them would otherwise send lab traffic through the user's jump host).
 */
public final class SshConfig {
  static final String HEADER =
      "# written by solrscale: the hosts of its lab networks, then your own configuration";

  private SshConfig() {}

  public static Path file(SolrscaleHome home) {
    return home.dir().resolve("ssh").resolve("config");
  }

  /** (Re)writes the file from every net that is up; with none, it holds just the includes. */
  public static Path write(SolrscaleHome home) {
    Path f = file(home);
    NetStore.writeAtomically(f, text(home, NetStore.all(home)));
    return f;
  }

  static String text(SolrscaleHome home, List<NetState> nets) {
    StringBuilder sb = new StringBuilder(HEADER).append("\n\n");
    for (NetState net : nets) {
      for (NetHost h : net.hosts()) {
        sb.append("Host ")
            .append(h.name())
            .append("\n  HostName ")
            .append(h.address())
            .append("\n  User root\n  IdentityFile ")
            .append(NetFiles.clientKey(home, net.name()).toAbsolutePath())
            .append("\n  IdentitiesOnly yes\n  UserKnownHostsFile ")
            .append(NetFiles.knownHosts(home, net.name()).toAbsolutePath())
            .append("\n  StrictHostKeyChecking yes")
            // a lab host is on this machine: no jump host, proxy or canonical name of the user's,
            // but the net's bastion when it has one (a fleet behind a jump host)
            .append("\n  ProxyJump ")
            .append(
                net.bastion() == null || net.bastion().equals(h.name()) ? "none" : net.bastion())
            .append("\n  ProxyCommand none\n  CanonicalizeHostname no\n\n");
      }
    }
    return sb.append("Match all\nInclude ~/.ssh/config\nInclude /etc/ssh/ssh_config\n").toString();
  }
}
