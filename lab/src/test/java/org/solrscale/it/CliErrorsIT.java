package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.StateStore;
import org.solrscale.runtime.SolrscaleHome;

/** Bad input and a broken environment get one clear line and the right exit code, never a trace. */
class CliErrorsIT {

  private static void assertOneLineError(Cli.Result r, int code, String fragment) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(code);
    String last = r.err().strip().lines().reduce((a, b) -> b).orElse("");
    assertThat(r.err()).contains(fragment).doesNotContain("\tat ").doesNotContain("Exception:");
    assertThat(last).startsWith("solrscale: ");
  }

  @Test
  void everySubcommandAnswersHelp() {
    for (String[] cmd : new String[][] {{"bench"}, {"index"}, {"data", "synth"}, {"node", "pause"}}) {
      String[] args = java.util.Arrays.copyOf(cmd, cmd.length + 1);
      args[cmd.length] = "--help";
      Cli.Result r = Cli.run(args);
      assertThat(r.exitCode()).as(String.join(" ", args)).isZero();
      assertThat(r.out()).contains("Usage: solrscale " + String.join(" ", cmd));
    }
  }

  @Test
  void portInUseNamesThePidAndTheFlag() throws Exception {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      Cli.Result r = Cli.run("up", "--name", "it-port", "--base-port", Integer.toString(s.getLocalPort()));
      assertOneLineError(r, 3, "port " + s.getLocalPort() + " is in use by pid "
          + ProcessHandle.current().pid() + "; pick another with --base-port");
    }
    assertThat(new StateStore(SolrscaleHome.fromEnvironment()).find("it-port")).isEmpty();
  }

  @Test
  void unknownSolrVersionIsAnEnvironmentError() {
    Cli.Result r = Cli.run("up", "--name", "it-version", "--solr-version", "9.99.0");
    assertOneLineError(r, 3, "Solr 9.99.0 is not published");
    // nothing had started: nothing is left behind
    assertThat(SolrscaleHome.fromEnvironment().cluster("it-version")).doesNotExist();
  }

  @Test
  void solr10IsRefusedClearly() {
    Cli.Result r = Cli.run("up", "--name", "it-ten", "--solr-version", "10.0.0");
    assertOneLineError(r, 2, "not supported yet");
  }

  @Test
  void invalidYamlPointsAtFileLineAndColumn(@TempDir Path dir) throws Exception {
    Path spec = dir.resolve("cluster.yaml");
    Files.writeString(spec, "name: lab\nnodes: 2\nzookeeper:\n  servers: 3\n  tick: 2000\n");
    Cli.Result r = Cli.run("up", "--spec", spec.toString());
    assertOneLineError(r, 2, spec + ":5:3: unknown key 'tick' at zookeeper");
  }

  @Test
  void badFlagsAreUsageErrors() {
    assertOneLineError(Cli.run("up", "--nodes", "two"), 2, "--nodes");
    assertOneLineError(Cli.run("up", "--name", "it-bad", "--collection", "c", "--shards", "0"), 2,
        "shards 0");
    assertOneLineError(Cli.run("status", "--name", "no-such-cluster"), 2,
        "no cluster named 'no-such-cluster'");
  }

  @Test
  void aNodeThatDiesDuringStartIsNamedWithItsLogTailAndNothingIsLeftRunning(@TempDir Path dir)
      throws Exception {
    Path spec = dir.resolve("broken.yaml");
    Files.writeString(spec, "name: it-broken\nnodes: 1\njvm_args: [-XX:+NoSuchJvmFlagForSolrscale]\n");
    Cli.Result r = Cli.run("up", "--spec", spec.toString(), "--timeout", "120s");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("solrscale: solr1 died while starting")
        .contains("NoSuchJvmFlagForSolrscale").doesNotContain("\tat ");
    // the ZooKeeper that had started was stopped again and the cluster forgotten
    assertThat(new StateStore(SolrscaleHome.fromEnvironment()).find("it-broken")).isEmpty();
    String zkPid = r.err().lines().filter(l -> l.contains("started zk1"))
        .map(l -> l.replaceAll(".*pid (\\d+).*", "$1")).findFirst().orElseThrow();
    assertThat(ClusterIT.gone(Long.parseLong(zkPid))).isTrue();
  }
}
