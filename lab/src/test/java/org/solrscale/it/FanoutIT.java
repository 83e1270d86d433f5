package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.Ssh;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Await;
import org.solrscale.testing.Needs;

/**
 * Sixteen lab hosts reached through a bastion, whose sshd sees every connection's set-up, as on a
 * fleet behind a jump host: `status` of a cluster on all of them within sshd's MaxStartups, the
 * drops sshd logs without the bound, the retry of dropped connections, and a dead host.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FanoutIT {
  static final String NET = "fan";
  static final String NAME = "it-fan";
  static final int HOSTS = 16;
  static final ObjectMapper JSON = new ObjectMapper();
  static final SolrscaleHome HOME = SolrscaleHome.fromEnvironment();

  @BeforeAll
  static void net() {
    Needs.labHosts();
    Cli.run("net", "down", "--name", NET, "--if-exists");
    Cli.Result r =
        Cli.run(
            "net",
            "up",
            "--name",
            NET,
            "--hosts",
            Integer.toString(HOSTS),
            "--bastion",
            NET + "-h1");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).contains("every host but fan-h1 is reached through fan-h1 (ProxyJump)");
    Cli.Result up =
        Cli.run(
            "up",
            "--name",
            NAME,
            "--hosts",
            String.join(
                ",", IntStream.rangeClosed(1, HOSTS).mapToObj(i -> NET + "-h" + i).toList()),
            "--zookeepers",
            "1",
            "--heap",
            "128m");
    assertThat(up.exitCode()).as(up.err()).isZero();
    // the runtime's copy says how far it is; the bound kept every set-up within MaxStartups
    assertThat(up.err()).contains("(16 of 16 hosts)").doesNotContain("dropped the SSH connection");
  }

  @AfterAll
  static void cleanUp() throws IOException {
    Cluster c = new Cluster(HOME, NAME, System.err::println);
    if (c.state().isPresent()) {
      c.down(true);
    }
    LabNets.down(NET);
    assertThat(HostsIT.markedProcesses("-Dsolrscale.node=" + NAME + "/")).isEmpty();
    assertThat(HostsIT.namespaces()).noneMatch(ns -> ns.startsWith("solrscale-" + NET + "-"));
  }

  /** Sets the lab hosts' sshd MaxStartups (net up on the net that is up). */
  static Cli.Result maxStartups(String spec) {
    Cli.Result r =
        Cli.run(
            "net", "up", "--name", NET, "--hosts", Integer.toString(HOSTS), "--max-startups", spec);
    assertThat(r.exitCode()).as(r.err()).isZero();
    return r;
  }

  /** Lines of the bastion's sshd log that say it dropped a connection past MaxStartups. */
  static long drops() throws IOException {
    Path log = HOME.dir().resolve("nets").resolve(NET).resolve("hosts/fan-h1/sshd.log");
    try (Stream<String> lines = Files.lines(log)) {
      return lines.filter(l -> l.contains("past MaxStartups")).count();
    }
  }

  /**
   * Ends the cluster's shared SSH connections (each by its control socket), so that the next
   * command sets up one to every host at once.
   */
  static void disconnect() throws Exception {
    Path dir = Ssh.controlDir(HOME.cluster(NAME));
    List<Path> sockets;
    try (Stream<Path> s = Files.list(dir)) {
      sockets = s.toList();
    }
    for (Path socket : sockets) {
      Process p =
          new ProcessBuilder("ssh", "-o", "ControlPath=" + socket, "-O", "exit", "master")
              .redirectErrorStream(true)
              .start();
      p.getInputStream().readAllBytes();
      p.waitFor();
    }
    // The master answers "exit" before it unlinks its socket, so the socket goes a moment later.
    Await.until("the control sockets removed", Duration.ofSeconds(15), () -> isEmpty(dir));
  }

  static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }

  /** The nodes `status --json` lists, by state. */
  static List<String> states(Cli.Result status) throws IOException {
    List<String> out = new ArrayList<>();
    for (JsonNode n : JSON.readTree(status.out()).get("nodes")) {
      out.add(n.get("ssh").asText() + " " + n.get("id").asText() + " " + n.get("state").asText());
    }
    return out;
  }

  @Test
  @Order(1)
  void statusOfSixteenHostsStaysWithinStockMaxStartupsWhereUnboundedItWouldNot() throws Exception {
    long before = drops();
    disconnect();
    Cli.Result status = Cli.run("status", "--name", NAME, "--json");
    assertThat(status.exitCode()).as(status.err()).isZero();
    assertThat(states(status)).hasSize(HOSTS + 1).allMatch(s -> s.endsWith(" running"));
    assertThat(status.err()).doesNotContain("dropped the SSH connection");
    assertThat(drops()).isEqualTo(before);

    // the same without the bound: 16 set-ups at once through the bastion's sshd; it drops some
    // (at random: 30 % of those past 10 waiting), retried; a few tries to see sshd do it
    long unbounded = 0;
    for (int i = 0; i < 3 && unbounded == 0; i++) {
      disconnect();
      Cli.Result storm = Cli.run("--ssh-parallel", "0", "status", "--name", NAME, "--json");
      assertThat(storm.exitCode()).as(storm.err()).isZero();
      assertThat(states(storm)).allMatch(s -> s.endsWith(" running"));
      unbounded = drops() - before;
      if (unbounded > 0) {
        // each drop sshd logged came back as a note and a retry
        assertThat(storm.err()).contains("dropped the SSH connection while it was being set up");
      }
    }
    assertThat(unbounded).as("drops the bastion's sshd logged without the bound").isPositive();
  }

  @Test
  @Order(2)
  void aLowMaxStartupsIsRetriedWithBackOffAndABoundWithinItDropsNothing() throws Exception {
    Cli.Result low = maxStartups("3:100:3");
    assertThat(low.err()).contains("sshd's MaxStartups on every host: 3:100:3");
    long before = drops();
    disconnect();
    // the default bound (8) is above what the bastion now lets wait: it drops, solrscale retries
    Cli.Result retried = Cli.run("status", "--name", NAME, "--json");
    assertThat(retried.exitCode()).as(retried.err()).isZero();
    assertThat(states(retried)).hasSize(HOSTS + 1).allMatch(s -> s.endsWith(" running"));
    long dropped = drops() - before;
    assertThat(dropped).isPositive();
    assertThat(retried.err()).contains("dropped the SSH connection while it was being set up");

    // within the bound sshd allows, nothing is dropped
    before = drops();
    disconnect();
    Cli.Result within = Cli.run("--ssh-parallel", "3", "status", "--name", NAME, "--json");
    assertThat(within.exitCode()).as(within.err()).isZero();
    assertThat(states(within)).allMatch(s -> s.endsWith(" running"));
    assertThat(within.err()).doesNotContain("dropped the SSH connection");
    assertThat(drops()).isEqualTo(before);

    maxStartups("none");
    Cli.Result bad = Cli.run("--ssh-parallel", "-1", "status", "--name", NAME);
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err().strip())
        .startsWith("solrscale: --ssh-parallel -1 is negative; give 1 or more (0: no bound)")
        .doesNotContain("\n");
  }

  @Test
  @Order(3)
  void aHostThatDoesNotAnswerIsOneLineAndTheOthersAreReported() throws Exception {
    String ns = "solrscale-" + NET + "-h16";
    List<String> rule = List.of("INPUT", "-p", "tcp", "--dport", "22", "-j", "DROP");
    iptables(ns, "-A", rule);
    try {
      disconnect();
      long t0 = System.nanoTime();
      Cli.Result status = Cli.run("status", "--name", NAME, "--json");
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.err.printf("status with fan-h16 not answering: %.1f s%n", seconds);
      assertThat(status.exitCode()).as(status.err()).isEqualTo(3);
      List<String> states = states(status);
      assertThat(states).hasSize(HOSTS + 1);
      assertThat(states.stream().filter(s -> s.endsWith(" running")).count()).isEqualTo(HOSTS);
      assertThat(states).anyMatch(s -> s.startsWith("fan-h16 solr") && s.endsWith(" unknown"));
      List<String> errors = status.err().lines().filter(l -> l.startsWith("solrscale: ")).toList();
      assertThat(errors).hasSize(1);
      assertThat(errors.get(0)).contains("cannot reach host fan-h16 over SSH");
    } finally {
      iptables(ns, "-D", rule);
    }
    disconnect();
    Cli.Result again = Cli.run("status", "--name", NAME, "--json");
    assertThat(again.exitCode()).as(again.err()).isZero();
  }

  static void iptables(String namespace, String op, List<String> rule) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace, "iptables", op));
    cmd.addAll(rule);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
  }
}
