package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.solrscale.net.LabNet;
import org.solrscale.net.NetHost;
import org.solrscale.net.NetState;
import org.solrscale.net.SshConfig;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Await;
import org.solrscale.testing.Needs;

/**
 * A real lab network of two hosts (namespaces, bridge, capped links, an sshd each), reached through
 * the generated ssh configuration with the system's ssh, and taken down again without a trace.
 * Needs root, ip and OpenSSH's server; skipped without them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetIT {
  /** A name of this run only, so a leftover of another run or another home is never touched. */
  static final String NET = "it" + UUID.randomUUID().toString().substring(0, 6);

  static final ObjectMapper JSON = new ObjectMapper();
  static final SolrscaleHome HOME = SolrscaleHome.fromEnvironment();

  /** What the net recorded at any time: what clean-up removes even when a test failed. */
  static final Set<NetState> seen = new HashSet<>();

  /** Processes this test started on a host, stopped by pid. */
  static final List<Long> started = new ArrayList<>();

  record Run(int code, String out) {}

  static Run sh(String... command) throws Exception {
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  /** {@code command} on {@code host} over ssh, through solrscale's ssh configuration. */
  static Run ssh(String host, String command) throws Exception {
    return sh("ssh", "-F", SshConfig.file(HOME).toString(), "-o", "BatchMode=yes", host, command);
  }

  static NetState state() {
    NetState s = LabNet.find(HOME, NET).orElseThrow();
    seen.add(s);
    return s;
  }

  static String host(int i) {
    return NET + "-h" + i;
  }

  static String cmdline(long pid) {
    try {
      return Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    } catch (Exception e) {
      return "";
    }
  }

  /** A one-line error: what the CLI printed on stderr is one line starting "solrscale: ". */
  static void oneLineError(Cli.Result r, int code, String contains) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(code);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).startsWith("solrscale: ").contains(contains).doesNotContain("Exception");
  }

  @BeforeAll
  static void requirements() throws Exception {
    Needs.root();
    Needs.sshd();
    Needs.that(sh("ip", "-V").code() == 0, "needs iproute2");
  }

  @AfterAll
  static void cleanUp() throws Exception {
    for (long pid : started) {
      if (cmdline(pid).contains("sleep 300")) {
        ProcessHandle.of(pid)
            .ifPresent(
                p -> {
                  p.destroyForcibly();
                  p.onExit().join();
                });
      }
    }
    if (LabNet.find(HOME, NET).isPresent()) {
      state();
      try {
        LabNet.down(HOME, NET, System.err::println);
      } catch (RuntimeException e) {
        System.err.println("net down failed (" + e.getMessage() + "): removing by name");
      }
    }
    boolean downFailed = LabNet.find(HOME, NET).isPresent();
    for (NetState s : seen) { // whatever down left, by the names and pids the net recorded
      for (NetHost h : s.hosts()) {
        if (h.sshdPid() > 0 && cmdline(h.sshdPid()).contains(h.dir() + "/sshd_config")) {
          ProcessHandle.of(h.sshdPid()).ifPresent(ProcessHandle::destroyForcibly);
        }
        sh("ip", "netns", "del", h.namespace());
        sh("ip", "link", "del", h.veth());
      }
      sh("ip", "link", "del", s.bridge());
    }
    if (downFailed) {
      try (Stream<Path> files = Files.walk(HOME.dir().resolve("nets").resolve(NET))) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
      SshConfig.write(HOME);
    }
    assertNothingLeft();
  }

  static void assertNothingLeft() throws Exception {
    String namespaces = sh("ip", "netns", "list").out();
    String links = sh("ip", "-o", "link", "show").out();
    for (NetState s : seen) {
      assertThat(links).doesNotContain(" " + s.bridge() + ":");
      for (NetHost h : s.hosts()) {
        assertThat(namespaces).doesNotContain(h.namespace());
        assertThat(links).doesNotContain(" " + h.veth() + "@").doesNotContain(" " + h.veth() + ":");
        assertThat(cmdline(h.sshdPid())).doesNotContain(h.dir());
      }
    }
  }

  @Test
  @Order(1)
  void upMakesTwoHostsThatLetSshIn() {
    Cli.Result r = Cli.run("net", "up", "--name", NET, "--hosts", "2", "--bandwidth", "50mbit");
    NetState net = state();
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(net.hosts()).hasSize(2);
    for (NetHost h : net.hosts()) {
      assertThat(r.out())
          .contains(
              h.name()
                  + " "
                  + h.address()
                  + " (namespace "
                  + h.namespace()
                  + ", sshd pid "
                  + h.sshdPid()
                  + ")");
      assertThat(cmdline(h.sshdPid())).startsWith("sshd: /usr/sbin/sshd -D -f " + h.dir());
    }
    assertThat(r.out()).contains("reach them with: ssh -F " + SshConfig.file(HOME) + " " + host(1));
  }

  @Test
  @Order(2)
  void eachHostHasItsAddressAndItsDirectoryInTheSession() throws Exception {
    for (NetHost h : state().hosts()) {
      Run r = ssh(h.name(), "echo dir=$SOLRSCALE_HOST_DIR; ip -4 -o addr show dev eth0");
      assertThat(r.code()).as(r.out()).isZero();
      assertThat(r.out()).contains("dir=" + h.dir() + "\n").contains("inet " + h.address() + "/24");
    }
  }

  @Test
  @Order(3)
  void oneHostReachesTheOthersSshd() throws Exception {
    String other = state().hosts().get(1).address();
    Run r = ssh(host(1), "timeout 5 bash -c 'exec 3<>/dev/tcp/" + other + "/22; head -c 7 <&3'");
    assertThat(r.code()).as(r.out()).isZero();
    assertThat(r.out()).startsWith("SSH-2.0");
  }

  @Test
  @Order(4)
  void bothEndsOfEachLinkAreCapped() throws Exception {
    for (NetHost h : state().hosts()) {
      assertThat(sh("tc", "qdisc", "show", "dev", h.veth()).out())
          .contains("tbf")
          .contains("rate 50Mbit");
      assertThat(sh("tc", "-n", h.namespace(), "qdisc", "show", "dev", "eth0").out())
          .contains("tbf")
          .contains("rate 50Mbit");
    }
    LabNet.limit(HOME, NET, host(1), "10mbit");
    assertThat(sh("tc", "qdisc", "show", "dev", state().hosts().get(0).veth()).out())
        .contains("rate 10Mbit");
    LabNet.unlimit(HOME, NET, host(1));
    assertThat(
            sh("tc", "-n", state().hosts().get(0).namespace(), "qdisc", "show", "dev", "eth0")
                .out())
        .contains("rate 50Mbit");
  }

  @Test
  @Order(5)
  void statusShowsEachHostAsItIs() throws Exception {
    Cli.Result r = Cli.run("net", "status", "--name", NET, "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode net = JSON.readTree(r.out()).get(0);
    assertThat(net.get("bridge_present").asBoolean()).isTrue();
    for (JsonNode h : net.get("hosts")) {
      assertThat(h.get("namespace_present").asBoolean()).isTrue();
      assertThat(h.get("sshd_alive").asBoolean()).isTrue();
      assertThat(h.get("bandwidth").asText()).isEqualTo("50mbit");
    }
    assertThat(Cli.run("net", "status").out())
        .contains(host(2) + "  " + state().hosts().get(1).address());
  }

  @Test
  @Order(6)
  void upAgainKeepsTheNetAndRestartsADeadSshd() throws Exception {
    NetState before = state();
    Cli.Result again = Cli.run("net", "up", "--name", NET, "--hosts", "2");
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("was up already");
    assertThat(state()).isEqualTo(before);

    NetHost h2 = before.hosts().get(1);
    assertThat(cmdline(h2.sshdPid())).contains(h2.dir() + "/sshd_config");
    ProcessHandle sshd = ProcessHandle.of(h2.sshdPid()).orElseThrow();
    sshd.destroy();
    sshd.onExit().get(10, TimeUnit.SECONDS);
    Cli.Result revived = Cli.run("net", "up", "--name", NET, "--hosts", "2");
    assertThat(revived.exitCode()).as(revived.err()).isZero();
    assertThat(state().hosts().get(1).sshdPid()).isNotEqualTo(h2.sshdPid());
    assertThat(ssh(h2.name(), "true").code()).isZero();
  }

  @Test
  @Order(7)
  void badInputIsAOneLineError() {
    oneLineError(Cli.run("net", "up", "--name", NET, "--hosts", "0"), 2, "1 to 50 hosts, not 0");
    oneLineError(Cli.run("net", "up", "--name", "Bad-1", "--hosts", "1"), 2, "'Bad-1' cannot name");
    oneLineError(
        Cli.run("net", "up", "--name", NET, "--hosts", "3"),
        2,
        "lab network " + NET + " is up with 2 host(s), not 3; take it down first");
    oneLineError(
        Cli.run("net", "up", "--name", NET, "--hosts", "2", "--bandwidth", "fast"),
        2,
        "'fast' is no bandwidth");
    oneLineError(Cli.run("net", "down", "--name", "nonet"), 2, "no lab network named 'nonet'");
  }

  @Test
  @Order(8)
  void aProcessStartedOverSshOutlivesTheSessionAndKeepsTheNetUp() throws Exception {
    NetHost h1 = state().hosts().get(0);
    Run r = ssh(h1.name(), "setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $!");
    assertThat(r.code()).as(r.out()).isZero();
    long pid = Long.parseLong(r.out().strip());
    started.add(pid);
    // setsid execs in place: the pid becomes sleep's
    Await.until(
        "pid " + pid + " becomes sleep's",
        Duration.ofSeconds(10),
        () -> !cmdline(pid).startsWith("setsid"));
    assertThat(cmdline(pid)).startsWith("sleep 300");
    assertThat(Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/net")))
        .isEqualTo(Files.readSymbolicLink(Path.of("/proc/" + h1.sshdPid() + "/ns/net")));

    oneLineError(
        Cli.run("net", "down", "--name", NET),
        2,
        "processes still run on " + h1.name() + " (" + pid + " sleep)");
    assertThat(LabNet.find(HOME, NET)).isPresent();
    ProcessHandle p = ProcessHandle.of(pid).orElseThrow();
    p.destroy();
    p.onExit().get(10, TimeUnit.SECONDS);
  }

  @Test
  @Order(9)
  void downLeavesNothing() throws Exception {
    state();
    Cli.Result r = Cli.run("net", "down", "--name", NET);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertNothingLeft();
    assertThat(LabNet.find(HOME, NET)).isEmpty();
    assertThat(Files.exists(HOME.dir().resolve("nets").resolve(NET))).isFalse();
    assertThat(Files.readString(SshConfig.file(HOME))).doesNotContain(host(1));
    assertThat(Cli.run("net", "down", "--name", NET, "--if-exists").exitCode()).isZero();
  }
}
