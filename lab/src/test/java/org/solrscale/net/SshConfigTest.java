package org.solrscale.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Needs;

/** The text of the ssh client configuration and of each host's sshd configuration. */
class SshConfigTest {
  static final SolrscaleHome HOME = new SolrscaleHome(Path.of("/srv/solrscale"));

  @Test
  void everyHostByNameThenTheUsersOwnConfigurationForAllHosts() {
    NetState net = NetPlan.plan(HOME, "lab", 2, 0, null);
    String text = SshConfig.text(HOME, List.of(net));
    assertThat(text)
        .startsWith(SshConfig.HEADER + "\n\nHost lab-h1\n  HostName 10.201.0.2\n  User root\n")
        .contains(
            "Host lab-h2\n"
                + "  HostName 10.201.0.3\n"
                + "  User root\n"
                + "  IdentityFile /srv/solrscale/nets/lab/id_ed25519\n"
                + "  IdentitiesOnly yes\n"
                + "  UserKnownHostsFile /srv/solrscale/nets/lab/known_hosts\n"
                + "  StrictHostKeyChecking yes\n"
                + "  ProxyJump none\n")
        .endsWith("\nMatch all\nInclude ~/.ssh/config\nInclude /etc/ssh/ssh_config\n");
    assertThat(SshConfig.text(HOME, List.of()))
        .isEqualTo(
            SshConfig.HEADER
                + "\n\nMatch all\nInclude ~/.ssh/config\nInclude /etc/ssh/ssh_config\n");
    assertThat(SshConfig.file(HOME)).isEqualTo(Path.of("/srv/solrscale/ssh/config"));
  }

  @Test
  void aNetBehindABastionReachesEveryOtherHostThroughIt() {
    NetState net = NetPlan.plan(HOME, "lab", 3, 0, null).withSshd("lab-h1", "10:30:100");
    String text = SshConfig.text(HOME, List.of(net));
    assertThat(text)
        .contains("Host lab-h1\n  HostName 10.201.0.2\n")
        .contains(
            "StrictHostKeyChecking yes\n  ProxyJump none\n  ProxyCommand none\n"
                + "  CanonicalizeHostname no\n\nHost lab-h2\n")
        .contains("Host lab-h3\n  HostName 10.201.0.4\n");
    assertThat(text.split("ProxyJump lab-h1\n", -1)).hasSize(3); // h2 and h3
    assertThat(Sshd.config(net.hosts().get(1), Path.of("/k"), "10:30:100"))
        .contains("\nMaxStartups 10:30:100\n");
    assertThat(Sshd.config(net.hosts().get(1), Path.of("/k"))).doesNotContain("MaxStartups");
  }

  @Test
  void maxStartupsIsCheckedAsSshdTakesIt() {
    assertThat(LabNet.checkMaxStartups("10:30:100")).isEqualTo("10:30:100");
    assertThat(LabNet.checkMaxStartups("1")).isEqualTo("1");
    for (String bad : List.of("0", "10:30", "10:0:100", "10:101:100", "20:30:10", "ten", "-1")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> LabNet.checkMaxStartups(bad))
          .hasMessageStartingWith("--max-startups '" + bad + "' is not START or START:RATE:FULL");
    }
  }

  @Test
  void aUsersJumpHostForAllHostsDoesNotApplyToLabHosts(@TempDir Path dir) throws Exception {
    Needs.sshClient();
    NetState net = NetPlan.plan(HOME, "lab", 1, 0, null);
    // the user's configuration comes after Match all; here written in place of the includes
    Path config = dir.resolve("config");
    Files.writeString(
        config,
        SshConfig.text(HOME, List.of(net))
                .replace("Include ~/.ssh/config\nInclude /etc/ssh/ssh_config\n", "")
            + "Host *\n  ProxyJump jump.example.org\n");
    Process p =
        new ProcessBuilder("ssh", "-G", "-F", config.toString(), "lab-h1")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(out.lines()).contains("hostname 10.201.0.2").noneMatch(l -> l.contains("jump."));
    Process other =
        new ProcessBuilder("ssh", "-G", "-F", config.toString(), "db1.example.org")
            .redirectErrorStream(true)
            .start();
    assertThat(new String(other.getInputStream().readAllBytes()))
        .contains("proxyjump jump.example.org");
  }

  @Test
  void eachSshdListensOnItsAddressAndLetsInOnlyTheNetsKey() {
    NetHost h = NetPlan.plan(HOME, "lab", 1, 3, null).hosts().get(0);
    String config = Sshd.config(h, NetFiles.authorizedKeys(HOME, "lab"));
    assertThat(config.lines())
        .contains(
            "ListenAddress 10.201.3.2",
            "Port 22",
            "HostKey /srv/solrscale/nets/lab/hosts/lab-h1/ssh_host_ed25519_key",
            "AuthorizedKeysFile /srv/solrscale/nets/lab/authorized_keys",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "UsePAM no",
            "StrictModes no",
            "PidFile none",
            "SetEnv SOLRSCALE_HOST_DIR=/srv/solrscale/nets/lab/hosts/lab-h1");
  }
}
