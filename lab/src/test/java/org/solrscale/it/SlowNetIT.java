package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.SlowLink;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.Slowness;
import org.solrscale.testing.Await;
import org.solrscale.testing.Needs;

/**
 * Slow links on a lab network of three hosts (one Solr node each, ZooKeeper on the first): a delay,
 * jitter and loss measured by the tests' own probe ({@link LinkProbeMain}, run in the hosts'
 * namespaces), a latency fault during chaos with its verdict checked against our own count, and
 * Ctrl-C in the middle of one. "Nothing left" is the kernel's word: iptables' rule listing in each
 * namespace and the process table.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlowNetIT {
  static final String NET = "snet";
  static final String NAME = "it-slow";
  static final String H1 = "snet-h1";
  static final String H2 = "snet-h2";
  static final String H3 = "snet-h3";
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  static Cluster cluster() {
    return new Cluster(SolrscaleHome.fromEnvironment(), NAME, System.err::println);
  }

  @BeforeAll
  static void labAndCluster() {
    Needs.labHosts();
    Needs.iptables();
    if (cluster().state().isPresent()) {
      cluster().down(true); // what a killed earlier run left
    }
    Cli.run("net", "down", "--name", NET, "--if-exists");
    Cli.Result net = Cli.run("net", "up", "--name", NET, "--hosts", "3");
    assertThat(net.exitCode()).as(net.err()).isZero();
    Cli.Result up =
        Cli.run(
            "up",
            "--name",
            NAME,
            "--hosts",
            H1 + "," + H2 + "," + H3,
            "--zookeepers",
            "1",
            "--heap",
            "256m",
            "--collection",
            "c",
            "--shards",
            "1",
            "--replicas",
            "3");
    assertThat(up.exitCode()).as(up.err()).isZero();
  }

  @AfterAll
  static void cleanUp() throws IOException {
    if (cluster().state().isPresent()) {
      cluster().down(true);
    }
    Cli.Result r = Cli.run("net", "down", "--name", NET, "--if-exists");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(HostsIT.markedProcesses("-Dsolrscale.slow=")).isEmpty();
    assertThat(HostsIT.markedProcesses("-Dsolrscale.node=" + NAME + "/")).isEmpty();
  }

  static NodeState solrOn(String host) {
    return cluster().requireState().solrNodes().stream()
        .filter(n -> host.equals(n.ssh()))
        .findFirst()
        .orElseThrow();
  }

  static String namespace(String host) {
    return "solrscale-" + NET + "-h" + host.substring(host.length() - 1);
  }

  /** What iptables lists in a host's namespace: the kernel's own word on the rules. */
  static String rules(String host) throws Exception {
    Process p =
        new ProcessBuilder("ip", "netns", "exec", namespace(host), "iptables", "-S")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  static void assertNothingLeft() throws Exception {
    for (String h : List.of(H1, H2, H3)) {
      assertThat(rules(h)).as(h).doesNotContain("sslow").doesNotContain("NFQUEUE");
    }
    assertThat(HostsIT.markedProcesses("-Dsolrscale.slow=" + NAME + "/")).isEmpty();
  }

  static List<String> java(String host, String... args) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "ip",
                "netns",
                "exec",
                namespace(host),
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                Path.of("target/test-classes").toAbsolutePath().toString(),
                LinkProbeMain.class.getName()));
    cmd.addAll(Arrays.asList(args));
    return cmd;
  }

  /** Our probe from {@code from} to {@code to}: connects to its Solr port, datagrams to an echo. */
  record Probe(double[] connects, double[] udp, int lost) {
    double connectMedian() {
      return median(connects);
    }

    double udpMedian() {
      return median(udp);
    }

    double udpStdev() {
      double m = Arrays.stream(udp).average().orElse(0);
      return Math.sqrt(Arrays.stream(udp).map(x -> (x - m) * (x - m)).sum() / (udp.length - 1));
    }

    static double median(double[] v) {
      double[] s = v.clone();
      Arrays.sort(s);
      return s[s.length / 2];
    }
  }

  static Probe probe(String from, String to, int n) throws Exception {
    String address = solrOn(to).host();
    Process echo = new ProcessBuilder(java(to, "echo", address, "60")).start();
    try {
      String line =
          new BufferedReader(new InputStreamReader(echo.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      assertThat(line).startsWith("port ");
      Process p =
          new ProcessBuilder(
                  java(
                      from,
                      "probe",
                      address,
                      Integer.toString(solrOn(to).port()),
                      line.substring(5),
                      Integer.toString(n)))
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      List<String> lines =
          new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      double[] connects =
          lines.stream()
              .filter(l -> l.startsWith("connect "))
              .mapToDouble(l -> Double.parseDouble(l.substring(8)))
              .toArray();
      double[] udp =
          lines.stream()
              .filter(l -> l.startsWith("udp ") && !l.equals("udp lost"))
              .mapToDouble(l -> Double.parseDouble(l.substring(4)))
              .toArray();
      int lost = (int) lines.stream().filter(l -> l.equals("udp lost")).count();
      assertThat(connects).hasSize(n);
      assertThat(udp.length + lost).isEqualTo(n);
      return new Probe(connects, udp, lost);
    } finally {
      echo.destroy();
      echo.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @Order(1)
  void delayJitterAndLossOnALinkShowInOurOwnProbeOnlyThereAndHealingLeavesNothing()
      throws Exception {
    assertThat(probe(H3, H2, 40).connectMedian()).isLessThan(2.0); // before: a fast link
    // the link h2<->h3: 20 ms each way, jitter 4 ms (normal), 2 % lost each way
    Slowness slow = Slowness.of("20ms", "4ms", null, "2%", null, null);
    SlowLink link = cluster().hosts().slow(List.of(H2), List.of(H3), slow);
    try {
      int n = 600;
      Probe across = probe(H3, H2, n);
      System.err.printf(
          "[slow] h3 -> h2, %s: udp p50 %.2f ms stdev %.2f, %d of %d lost, connect p50 %.2f ms%n",
          slow.describe(),
          across.udpMedian(),
          across.udpStdev(),
          across.lost(),
          n,
          across.connectMedian());
      // the delay shows in the median round trip within 10 % (or 2 ms): 2 x 20 ms
      assertThat(across.udpMedian()).isBetween(36.0, 44.0);
      assertThat(across.connectMedian()).isBetween(36.0, 44.0);
      // the jitter in the spread: at least most of one way's 4 ms, at most both ways' whole
      assertThat(across.udpStdev()).isBetween(0.7 * 4, 2.5 * 4);
      // the loss within the binomial interval: a round trip is lost when either way drops
      double p = 1 - 0.98 * 0.98;
      double sd = Math.sqrt(n * p * (1 - p));
      assertThat((double) across.lost()).isBetween(n * p - 3 * sd, n * p + 3 * sd);
      // outside the link nothing changes: h1 to either end, this machine to h2, h2 to itself
      assertThat(probe(H1, H2, 40).connectMedian()).isLessThan(2.0);
      assertThat(probe(H1, H3, 40).connectMedian()).isLessThan(2.0);
      assertThat(probe(H2, H2, 40).connectMedian()).isLessThan(2.0);
      assertThat(connectFromHere(solrOn(H2))).isLessThan(2.0);
      assertThat(rules(H2)).contains("sslow-" + link.id()).contains("NFQUEUE");
      assertThat(HostsIT.markedProcesses("-Dsolrscale.slow=" + NAME + "/" + link.id())).hasSize(1);
    } finally {
      cluster().hosts().heal(link);
    }
    assertNothingLeft();
    assertThat(probe(H3, H2, 40).connectMedian()).isLessThan(2.0);
  }

  static double connectFromHere(NodeState n) throws IOException {
    double[] t = new double[20];
    for (int i = 0; i < t.length; i++) {
      long t0 = System.nanoTime();
      try (java.net.Socket s = new java.net.Socket()) {
        s.connect(new java.net.InetSocketAddress(n.host(), n.port()), 5000);
      }
      t[i] = (System.nanoTime() - t0) / 1e6;
    }
    return Probe.median(t);
  }

  @Test
  @Order(2)
  void aLatencyFaultDuringChaosIsMeasuredAndTheVerdictAgreesWithOurOwnCount() throws Exception {
    Path out = dir.resolve("chaos");
    Cli.Result chaos =
        Cli.run(
            "chaos",
            "--name",
            NAME,
            "--collection",
            "c",
            "--into",
            "c",
            "--write-rate",
            "40",
            "--query-rate",
            "5",
            "--at",
            "2s",
            "--after",
            "2s",
            "--fault",
            "latency",
            "--target",
            H3,
            "--delay",
            "30ms",
            "--jitter",
            "3ms",
            "--duration",
            "12s",
            "--out",
            out.toString(),
            "--json");
    assertThat(chaos.exitCode()).as(chaos.err()).isZero();
    JsonNode v = JSON.readTree(chaos.out());
    JsonNode fault = v.get("faults").get(0).get("fault");
    assertThat(fault.get("fault").asText()).isEqualTo("latency");
    assertThat(fault.get("nodes")).extracting(JsonNode::asText).containsExactly("solr3");
    JsonNode link = fault.get("link");
    assertThat(link.get("round_trip_ms_added").asDouble()).isEqualTo(60.0);
    JsonNode probe = link.get("probe");
    assertThat(probe.get("from").asText()).isIn(H1, H2);
    assertThat(probe.get("udp_rtt_ms_p50").asDouble()).isBetween(54.0, 66.0);
    assertThat(probe.get("connect_ms_p50").asDouble()).isBetween(54.0, 66.0);
    assertThat(chaos.err()).contains("latency").contains("round trip p50");
    // faults.json holds the same, and the history has the measurement beside the fault
    JsonNode faults = JSON.readTree(out.resolve("faults.json").toFile());
    assertThat(faults.get(0).get("link").get("probe").get("udp_rtt_ms_p50").asDouble())
        .isEqualTo(probe.get("udp_rtt_ms_p50").asDouble());
    assertThat(Files.readString(out.resolve("history.jsonl"))).contains("\"measured\"");
    // the verdict's count agrees with ours, whatever Solr did
    assertThat(v.get("recovered").asBoolean()).as(chaos.out()).isTrue();
    List<String> acked = Acknowledged.ids(out.resolve("history.jsonl"));
    assertThat(acked).hasSizeGreaterThan(100);
    long found = OnAnyReplica.found(cluster().solrUrls().get(0), "c", acked, null).size();
    assertThat(v.get("acknowledged").asLong()).isEqualTo(acked.size());
    assertThat(v.get("found").asLong()).isEqualTo(found);
    assertThat(v.get("lost").asLong()).isEqualTo(acked.size() - found);
    assertNothingLeft();
  }

  @Test
  @Order(3)
  void ctrlCDuringALatencyFaultLeavesNoRuleAndNoDelayer() throws Exception {
    Path err = dir.resolve("ctrl-c.txt");
    // as from a terminal: SIGINT reaches the JVM even when this test runs where it is ignored
    Process p =
        new ProcessBuilder(
                "perl",
                "-e",
                "$SIG{INT} = 'DEFAULT'; exec @ARGV",
                ProcessHandle.current().info().command().orElse("java"),
                "-Dsolrscale.home=" + SolrscaleHome.fromEnvironment().dir(),
                "-jar",
                Path.of("target/solrscale.jar").toAbsolutePath().toString(),
                "chaos",
                "--name",
                NAME,
                "--collection",
                "c",
                "--write-rate",
                "10",
                "--at",
                "1s",
                "--fault",
                "latency",
                "--target",
                H1 + "<->" + H2,
                "--delay",
                "10ms",
                "--duration",
                "60s",
                "--out",
                dir.resolve("ctrl-c").toString())
            .redirectOutput(dir.resolve("ctrl-c-out.txt").toFile())
            .redirectError(err.toFile())
            .start();
    try {
      Await.until(
          "the latency fault holds",
          Duration.ofSeconds(120),
          () -> rules(H1).contains("sslow") || !p.isAlive());
      assertThat(rules(H1)).contains("sslow");
      assertThat(HostsIT.markedProcesses("-Dsolrscale.slow=" + NAME + "/")).hasSize(1);
      assertThat(new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor())
          .isZero();
      assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    String log = Files.readString(err);
    assertThat(p.exitValue()).as(log).isEqualTo(130);
    assertThat(log).doesNotContain("\tat ");
    assertNothingLeft();
  }
}
