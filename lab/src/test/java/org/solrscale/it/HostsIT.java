package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.results.IntervalLog;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Await;

/**
 * A SolrCloud across three lab-network hosts, each a network namespace with its own sshd, deployed
 * over SSH: 3 ZooKeepers and 3 Solr nodes, indexed, benchmarked, a node killed and started, a chaos
 * run, down and up again (nothing copied the second time), then everything removed; and the inputs
 * that must be refused before anything starts.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostsIT {
  static final String NET = "hit";
  static final String NAME = "it-hosts";
  static final String HOSTS = "hit-h1,hit-h2,hit-h3";
  static final String LIMITED = "it-hosts-lim";
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  static Cluster cluster(String name) {
    return new Cluster(SolrscaleHome.fromEnvironment(), name, System.err::println);
  }

  @BeforeAll
  static void net() {
    LabNets.fresh(NET, 3);
  }

  @AfterAll
  static void cleanUp() throws IOException {
    for (String name : List.of(NAME, "it-hosts-port", LIMITED, "scn-it-limits")) {
      if (cluster(name).state().isPresent()) {
        cluster(name).down(true);
      }
    }
    LabNets.down(NET);
    assertThat(markedProcesses("-Dsolrscale.node=it-hosts")).isEmpty();
    assertThat(namespaces()).noneMatch(ns -> ns.startsWith("solrscale-" + NET + "-"));
  }

  /** A JDK 17+ installed here other than the build running the tests (Temurin 25), or null. */
  static final String OTHER_JDK = otherJdk();

  static String jdkBuild(Path home) {
    try {
      return Files.readAllLines(home.resolve("release")).stream()
          .filter(l -> l.startsWith("JAVA_RUNTIME_VERSION=\""))
          .map(l -> l.substring(22, l.length() - 1))
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  private static String otherJdk() {
    try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm"))) {
      return jdks.filter(h -> Files.isExecutable(h.resolve("bin/java")))
          .filter(h -> jdkBuild(h) != null && jdkBuild(h).matches("(1[7-9]|[2-9][0-9])\\..*"))
          .filter(h -> !jdkBuild(h).equals(System.getProperty("java.runtime.version")))
          .map(Path::toString)
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  /** Pids whose command line has an argument starting with {@code prefix}. */
  static List<Long> markedProcesses(String prefix) throws IOException {
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
        try {
          for (String arg : new String(Files.readAllBytes(p.resolve("cmdline"))).split("\0")) {
            if (arg.startsWith(prefix)) {
              pids.add(Long.parseLong(p.getFileName().toString()));
              break;
            }
          }
        } catch (IOException e) {
          // gone meanwhile
        }
      }
    }
    return pids;
  }

  static List<String> namespaces() throws IOException {
    Path dir = Path.of("/run/netns");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }

  @Test
  @Order(1)
  void aClusterOnThreeHostsIsUpIndexedBenchmarkedBrokenAndMended() throws Exception {
    Cli.Result up =
        Cli.run(
            "up",
            "--name",
            NAME,
            "--hosts",
            HOSTS,
            "--auth", // BasicAuth on hosts: security.json over the lab network, drivers' passwords
            "basic",
            "--zookeepers",
            "3",
            "--heap",
            "384m",
            "--collection",
            "c",
            "--shards",
            "2",
            "--replicas",
            "2");
    assertThat(up.exitCode()).as(up.err()).isZero();
    // the first up on fresh hosts copies the runtime to each of them
    assertThat(up.err()).contains("hit-h1: copied", "hit-h2: copied", "hit-h3: copied");
    assertThat(up.out()).contains("HOST").contains("hit-h2");

    JsonNode status = JSON.readTree(Cli.run("status", "--name", NAME, "--json").out());
    Set<String> zkHosts = new HashSet<>();
    Set<String> solrHosts = new HashSet<>();
    for (JsonNode n : status.get("nodes")) {
      assertThat(n.get("state").asText()).isEqualTo("running");
      assertThat(n.get("host").asText()).startsWith("10.");
      (n.get("role").asText().equals("zk") ? zkHosts : solrHosts).add(n.get("ssh").asText());
    }
    assertThat(zkHosts).containsExactlyInAnyOrder("hit-h1", "hit-h2", "hit-h3");
    assertThat(solrHosts).containsExactlyInAnyOrder("hit-h1", "hit-h2", "hit-h3");

    // the nodes really run inside the hosts' namespaces
    long solr2 = cluster(NAME).requireState().node("solr2").pid();
    assertThat(Files.readSymbolicLink(Path.of("/proc/" + solr2 + "/ns/net")))
        .isNotEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/net")));
    // the class-data archive went to the hosts with the runtime, and their JVMs took it
    for (NodeState n : cluster(NAME).requireState().nodes()) {
      List<String> mapped = ClusterIT.mappedArchives(n.pid());
      assertThat(mapped).as(n.id()).hasSize(1);
      assertThat(mapped.get(0))
          .as(n.id())
          .endsWith((n.isZk() ? "/zk" : "/solr") + ".jsa")
          .doesNotStartWith(SolrscaleHome.fromEnvironment().dir().resolve("runtimes").toString());
    }

    Path docs = dir.resolve("docs.jsonl");
    Path queries = dir.resolve("q.txt");
    assertThat(Cli.run("data", "synth", "--docs", "3000", "-o", docs.toString()).exitCode())
        .isZero();
    Cli.Result index = Cli.run("index", "--name", NAME, "--collection", "c", docs.toString());
    assertThat(index.exitCode()).as(index.err()).isZero();
    assertThat(index.out()).contains("verified: 3000 searchable");
    assertThat(
            Cli.run("data", "queries", "-o", queries.toString(), "--count", "200", docs.toString())
                .exitCode())
        .isZero();
    Cli.Result bench =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--collection",
            "c",
            "--queries",
            queries.toString(),
            "--threads",
            "2",
            "--duration",
            "5s",
            "--warmup",
            "1s",
            "--profile",
            "--out",
            dir.resolve("bench").toString());
    assertThat(bench.exitCode()).as(bench.out() + bench.err()).isZero();
    JsonNode summary = JSON.readTree(dir.resolve("bench/summary.json").toFile());
    assertThat(summary.get("count").asLong()).isPositive();
    // profiled on every host: each node's recording brought here, nothing left on the hosts
    JsonNode diagnosis = JSON.readTree(dir.resolve("bench/profile/diagnosis.json").toFile());
    List<NodeState> solrNodes =
        cluster(NAME).requireState().nodes().stream().filter(NodeState::isSolr).toList();
    assertThat(diagnosis.get("nodes")).hasSize(solrNodes.size());
    for (NodeState n : solrNodes) {
      assertThat(dir.resolve("bench/profile/" + n.id() + ".jfr")).isRegularFile();
      assertThat(cluster(NAME).hosts().jcmd(n, List.of("JFR.check")))
          .contains("No available recordings");
      String scratch = cluster(NAME).hosts().scratchDir(n);
      assertThat(cluster(NAME).hosts().readFile(n, scratch + "/" + n.id() + ".jfr")).isNull();
    }
    try (Stream<Path> left = Files.list(dir.resolve("bench/profile"))) {
      assertThat(left.map(p -> p.getFileName().toString())).noneMatch(f -> f.startsWith("."));
    }

    // two drivers on two hosts, the rate split between them, merged exactly; watched live: the
    // coordinator merges the drivers' logs second by second while they run
    Path two = dir.resolve("bench2");
    int livePort = LiveViews.freePort();
    java.util.concurrent.atomic.AtomicReference<Cli.Result> ran =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread runner =
        new Thread(
            () ->
                ran.set(
                    Cli.run(
                        "bench",
                        "--name",
                        NAME,
                        "--collection",
                        "c",
                        "--queries",
                        queries.toString(),
                        "--rate",
                        "20",
                        "--duration",
                        "6s",
                        "--warmup",
                        "2s",
                        "--drivers",
                        "hit-h1,hit-h2",
                        "--out",
                        two.toString(),
                        "--live",
                        "--live-port",
                        Integer.toString(livePort))));
    runner.start();
    long[] whileRunning = {0};
    Await.until(
        "merged seconds in the live view while the drivers run",
        Duration.ofSeconds(90),
        () -> {
          if (!runner.isAlive()) {
            return true;
          }
          try {
            long n = LiveViews.measured(LiveViews.get("http://127.0.0.1:" + livePort + "/metrics"));
            if (n > 0 && !Files.exists(two.resolve("summary.json"))) {
              whileRunning[0] = n;
            }
          } catch (IOException e) {
            // the view not up yet
          }
          return whileRunning[0] > 0;
        });
    runner.join(Duration.ofMinutes(3).toMillis());
    Cli.Result drivers = ran.get();
    assertThat(drivers.exitCode()).as(drivers.out() + drivers.err()).isZero();
    assertThat(whileRunning[0]).as("measured requests served before the merge").isPositive();
    JsonNode merged = JSON.readTree(two.resolve("summary.json").toFile());
    Histogram sum = new Histogram(3);
    long driverCounts = 0;
    for (String h : List.of("hit-h1", "hit-h2")) {
      JsonNode own = JSON.readTree(two.resolve("drivers/" + h + "/summary.json").toFile());
      assertThat(own.get("rates").get(0).asDouble()).isEqualTo(10.0);
      driverCounts += own.get("count").asLong();
      sum.add(
          IntervalLog.read(two.resolve("drivers/" + h + "/latency.hlog"))
              .merged("latency")
              .orElseThrow());
    }
    assertThat(merged.get("count").asLong()).isEqualTo(driverCounts).isBetween(90L, 150L);
    assertThat(merged.get("drivers")).hasSize(2);
    Histogram all = IntervalLog.read(two.resolve("latency.hlog")).merged("latency").orElseThrow();
    assertThat(all).isEqualTo(sum);
    assertThat(merged.get("latency_ms").get("p99").asDouble())
        .isEqualTo(all.getValueAtPercentile(99) / 1000.0);
    // the log written live was exact, so kept; watched afterwards it counts what summary.json
    // does, the drivers' own runs not counted again
    assertThat(Files.readAllLines(two.resolve("latency.hlog")).get(0)).contains("second by second");
    String after = LiveViews.metrics(two);
    assertThat(LiveViews.measured(after)).isEqualTo(merged.get("count").asLong());
    assertThat(after).doesNotContain("drivers/");

    // a replay shared by the same two drivers: every other request each, at its own time
    Path log = dir.resolve("requests.jsonl");
    List<String> logged = new java.util.ArrayList<>();
    List<String> lines =
        Files.readAllLines(queries).stream().filter(l -> !l.startsWith("#")).limit(60).toList();
    for (int i = 0; i < lines.size(); i++) {
      StringBuilder params = new StringBuilder();
      for (String pair : lines.get(i).split("&")) {
        String[] kv = pair.split("=", 2);
        if (!kv[0].equals("_template")) {
          params
              .append(params.length() > 0 ? "," : "")
              .append(JSON.writeValueAsString(kv[0]))
              .append(":[")
              .append(
                  JSON.writeValueAsString(
                      java.net.URLDecoder.decode(kv[1], java.nio.charset.StandardCharsets.UTF_8)))
              .append("]");
        }
      }
      logged.add(
          "{\"start_ms\":"
              + (1_795_900_000_000L + i * 100L)
              + ",\"collection\":\"c\",\"handler\":\"/select\",\"params\":{"
              + params
              + "},\"source\":\"log:"
              + (i + 1)
              + "\"}");
    }
    Files.write(log, logged);
    Path three = dir.resolve("bench3");
    Cli.Result replayed =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--replay",
            log.toString(),
            "--warmup",
            "0s",
            "--drivers",
            "hit-h1,hit-h2",
            "--out",
            three.toString());
    assertThat(replayed.exitCode()).as(replayed.out() + replayed.err()).isZero();
    JsonNode replay = JSON.readTree(three.resolve("summary.json").toFile()).get("replay");
    assertThat(replay.get("scheduled").asLong()).isEqualTo(lines.size());
    assertThat(replay.get("answered").asLong()).isEqualTo(lines.size());
    for (String h : List.of("hit-h1", "hit-h2")) {
      JsonNode own = JSON.readTree(three.resolve("drivers/" + h + "/summary.json").toFile());
      assertThat(own.get("replay").get("scheduled").asLong()).isEqualTo(lines.size() / 2);
      assertThat(own.get("errors").get("total").asLong()).isZero();
    }

    // a node killed on its host is dead there, and starts again over SSH
    Cli.Result kill = Cli.run("node", "kill", "solr2", "--name", NAME);
    assertThat(kill.exitCode()).as(kill.err()).isZero();
    Await.until("pid " + solr2 + " gone after kill", Duration.ofSeconds(10), () -> exited(solr2));
    JsonNode afterKill = JSON.readTree(Cli.run("status", "--name", NAME, "--json").out());
    assertThat(node(afterKill, "solr2").get("state").asText()).isEqualTo("dead");
    Cli.Result start = Cli.run("node", "start", "solr2", "--name", NAME);
    assertThat(start.exitCode()).as(start.err()).isZero();
    assertThat(start.err()).contains("runtime already there, nothing copied");
    cluster(NAME).collections().waitUntilHealthy(Duration.ofMinutes(3));

    // chaos on hosts: a host cut off from the others during writes and queries; whatever Solr does,
    // the verdict's count of acknowledged writes found agrees with one of our own
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
            "50",
            "--query-rate",
            "5",
            "--at",
            "3s",
            "--after",
            "3s",
            "--fault",
            "partition",
            "--target",
            "hit-h3",
            "--duration",
            "15s",
            "--out",
            out.toString(),
            "--json");
    JsonNode v = JSON.readTree(chaos.out());
    JsonNode fault = v.get("faults").get(0).get("fault");
    assertThat(fault.get("fault").asText()).isEqualTo("partition");
    assertThat(fault.get("nodes")).extracting(JsonNode::asText).containsExactly("zk3", "solr3");
    assertThat(fault.has("note") ? fault.get("note").asText() : "").doesNotContain("failed");
    assertThat(v.get("recovered").asBoolean()).as(chaos.out()).isTrue();
    List<String> acked = Acknowledged.ids(out.resolve("history.jsonl"));
    assertThat(acked).hasSizeGreaterThan(100);
    long found =
        OnAnyReplica.found(cluster(NAME).solrUrls().get(0), "c", acked, authorization()).size();
    assertThat(v.get("acknowledged").asLong()).isEqualTo(acked.size());
    assertThat(v.get("found").asLong()).isEqualTo(found);
    assertThat(v.get("lost").asLong()).isEqualTo(acked.size() - found);

    // a scenario's bench step on two drivers, a staircase split step by step and merged exactly
    Path scenario = dir.resolve("stairs.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-stairs",
            "cluster: {collections: [{name: c}]}",
            "steps:",
            "  - bench: {name: stairs, collection: c, queries: "
                + queries
                + ", rate: '10,20', step_duration: 3s, warmup: 1s, drivers: [hit-h1, hit-h2]}",
            ""));
    Path stairs = dir.resolve("stairs");
    Cli.Result run =
        Cli.run(
            "run",
            scenario.toString(),
            "--zk",
            cluster(NAME).requireState().zkHost(),
            "--user",
            "admin",
            "--password-file",
            adminPasswordFile().toString(),
            "--out",
            stairs.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    JsonNode step =
        JSON.readTree(stairs.resolve("results.json").toFile())
            .get("combinations")
            .get(0)
            .get("steps")
            .get(0);
    JsonNode stepSummary = step.get("summary");
    assertThat(stepSummary.get("drivers")).hasSize(2);
    assertThat(stepSummary.get("steps")).hasSize(2);
    assertThat(stepSummary.get("steps").get(0).get("rate").asDouble()).isEqualTo(10.0);
    assertThat(stepSummary.get("steps").get(1).get("rate").asDouble()).isEqualTo(20.0);
    long scheduled = 0;
    for (JsonNode d : stepSummary.get("drivers")) {
      JsonNode own =
          JSON.readTree(
              stairs
                  .resolve(step.get("dir").asText())
                  .resolve("drivers/" + d.get("host").asText() + "/summary.json")
                  .toFile());
      assertThat(own.get("rates")).extracting(JsonNode::asDouble).containsExactly(5.0, 10.0);
      scheduled += own.get("steps").get(1).get("scheduled").asLong();
    }
    assertThat(stepSummary.get("steps").get(1).get("scheduled").asLong())
        .isEqualTo(scheduled)
        .isBetween(50L, 70L);

    // the logs come to this machine; down leaves no process of the cluster on any host
    assertThat(cluster(NAME).nodes().logFile("solr1", false)).exists();
    Cli.Result down = Cli.run("down", "--name", NAME);
    assertThat(down.exitCode()).as(down.err()).isZero();
    assertThat(markedProcesses("-Dsolrscale.node=" + NAME + "/")).isEmpty();

    // a second up copies nothing
    Cli.Result again = Cli.run("up", "--name", NAME);
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.err())
        .contains("hit-h1: Solr")
        .contains("runtime already there, nothing copied")
        .doesNotContain("copied 1", "copied 2", "copied 3", "copied 4", "copied 5")
        .doesNotContain("copied 6", "copied 7", "copied 8", "copied 9");
    assertThat(Cli.run("down", "--name", NAME, "--purge").exitCode()).isZero();
    assertThat(markedProcesses("-Dsolrscale.node=" + NAME + "/")).isEmpty();
    assertThat(cluster(NAME).state()).isEmpty();
  }

  /** Whether the pid has exited (gone, or a zombie not yet reaped). */
  static boolean exited(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
      return state == 'Z' || state == 'X';
    } catch (IOException e) {
      return true;
    }
  }

  static JsonNode node(JsonNode status, String id) {
    for (JsonNode n : status.get("nodes")) {
      if (n.get("id").asText().equals(id)) {
        return n;
      }
    }
    throw new AssertionError("no node " + id + " in " + status);
  }

  /** The admin's password of the cluster on hosts, alone in a file (as a user would keep it). */
  static Path adminPasswordFile() throws Exception {
    Path f = dir.resolve("admin-password");
    Files.writeString(f, adminPassword() + "\n");
    return f;
  }

  static String adminPassword() throws Exception {
    java.util.Properties p = new java.util.Properties();
    try (var in =
        Files.newBufferedReader(
            SolrscaleHome.fromEnvironment().cluster(NAME).resolve("credentials"))) {
      p.load(in);
    }
    return p.getProperty("admin");
  }

  /** How many of {@code ids} Solr's real-time get finds, a hundred at a time, as the admin. */
  /** The Authorization header of the cluster's admin (the cluster runs with BasicAuth). */
  static String authorization() throws Exception {
    return "Basic "
        + java.util.Base64.getEncoder()
            .encodeToString(
                ("admin:" + adminPassword()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  @Order(2)
  void hostsThatCannotRunNodesAreOneLineErrorsAndNothingStarts() throws Exception {
    // two ZooKeepers on one host
    Cli.Result twoZk =
        Cli.run("up", "--name", "it-hosts-zk", "--hosts", "hit-h1,hit-h2", "--zookeepers", "3");
    assertOneLine(twoZk, "zookeeper servers is 3 but 2 hosts may run ZooKeeper");
    // a host that cannot be reached
    Cli.Result unreachable =
        Cli.run("up", "--name", "it-hosts-gone", "--hosts", "hit-h1,no-such-host.invalid");
    assertOneLine(unreachable, "cannot reach host no-such-host.invalid over SSH");
    // a host without a Java (its given java_home has none)
    Path spec = dir.resolve("nojava.yaml");
    Files.writeString(
        spec, "name: it-hosts-java\nhosts:\n  - {ssh: hit-h1, java_home: /opt/no-java-here}\n");
    Cli.Result noJava = Cli.run("up", "--spec", spec.toString());
    assertOneLine(noJava, "host hit-h1 has no Java 11 or newer");
    // a port taken on a host: a listener of our own in the host's namespace, stopped by its pid
    // (its sleep is how long it may live, not a wait)
    Path source = dir.resolve("Listen.java");
    Files.writeString(
        source,
        "public class Listen { public static void main(String[] a) throws Exception {"
            + " try (var s = new java.net.ServerSocket(8990)) { System.out.println(\"ok\");"
            + " Thread.sleep(120_000); } } }");
    Process listener =
        new ProcessBuilder(
                "ip",
                "netns",
                "exec",
                "solrscale-" + NET + "-h2",
                ProcessHandle.current().info().command().orElse("java"),
                source.toString())
            .redirectErrorStream(true)
            .start();
    try {
      assertThat(new String(listener.getInputStream().readNBytes(2))).isEqualTo("ok");
      Cli.Result busy =
          Cli.run(
              "up",
              "--name",
              "it-hosts-port",
              "--hosts",
              "hit-h1,hit-h2",
              "--nodes",
              "2",
              "--base-port",
              "8990");
      assertOneLine(busy, "port 8990 on host hit-h2 is in use");
    } finally {
      listener.destroy();
      listener.waitFor();
    }
    for (String name : List.of("it-hosts-zk", "it-hosts-gone", "it-hosts-java", "it-hosts-port")) {
      assertThat(cluster(name).state()).as(name).isEmpty();
      assertThat(markedProcesses("-Dsolrscale.node=" + name + "/")).isEmpty();
    }
  }

  @Test
  @Order(3)
  void aHostsLimitsHoldItsNodesInCgroupsThatDownRemoves() throws Exception {
    Path spec = dir.resolve("limited.yaml");
    Files.writeString(
        spec,
        String.join(
            "\n",
            "name: " + LIMITED,
            "zookeeper: 1",
            "nodes: 1",
            "heap: 256m",
            "hosts:",
            "  - {ssh: hit-h1, cpus: 0.5, cores: '0', memory: 1500m"
                + (OTHER_JDK == null ? "" : ", java_home: " + OTHER_JDK)
                + "}",
            ""));
    Cli.Result up = Cli.run("up", "--spec", spec.toString());
    assertThat(up.exitCode()).as(up.err()).isZero();
    if (OTHER_JDK != null) {
      // a host whose JDK is not the build the class-data archive was made with starts without it
      assertThat(up.err())
          .contains("hit-h1: its Java (" + jdkBuild(Path.of(OTHER_JDK)) + ")")
          .contains("its nodes start without it");
      for (String n : List.of("zk1", "solr1")) {
        assertThat(ClusterIT.mappedArchives(cluster(LIMITED).requireState().node(n).pid()))
            .as(n)
            .isEmpty();
      }
    }
    String name = "solrscale-" + LIMITED + "-hit-h1";
    List<Path> groups = new ArrayList<>();
    for (String n : List.of("zk1", "solr1")) {
      long pid = cluster(LIMITED).requireState().node(n).pid();
      // the kernel's word, not solrscale's: the node's cgroups, and what they allow
      Map<String, Path> own = cgroupsOf(pid);
      for (String controller : List.of("cpu", "memory", "cpuset")) {
        assertThat(own.get(controller)).as(n + " " + controller).isNotNull();
        assertThat(own.get(controller).getFileName().toString()).isEqualTo(name);
        groups.add(own.get(controller));
      }
      assertThat(read(own.get("memory").resolve("memory.limit_in_bytes")))
          .isEqualTo(Long.toString(1500L << 20));
      assertThat(read(own.get("cpu").resolve("cpu.cfs_quota_us"))).isEqualTo("50000");
      assertThat(read(own.get("cpuset").resolve("cpuset.cpus"))).isEqualTo("0");
    }
    JsonNode env = JSON.readTree(Cli.run("status", "--name", LIMITED, "--json").out());
    assertThat(env.get("nodes"))
        .allSatisfy(n -> assertThat(n.get("state").asText()).isEqualTo("running"));
    Cli.Result down = Cli.run("down", "--name", LIMITED, "--purge");
    assertThat(down.exitCode()).as(down.err()).isZero();
    assertThat(down.err()).doesNotContain("warning");
    assertThat(markedProcesses("-Dsolrscale.node=" + LIMITED + "/")).isEmpty();
    assertThat(groups).allSatisfy(g -> assertThat(g).doesNotExist());
  }

  @Test
  @Order(4)
  void aScenarioSqueezesTheHostsPageCacheThroughARestartAndPutsItBack() throws Exception {
    Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    String thpBefore = read(thp).replaceAll(".*\\[([a-z]+)\\].*", "$1");
    String thpDuring = thpBefore.equals("never") ? "madvise" : "never";
    Path scenario = dir.resolve("limits.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "name: it-limits",
            "cluster:",
            "  zookeeper: 1",
            "  nodes: 1",
            "  heap: 256m",
            "  hosts: [{ssh: hit-h1, memory: 1500m, roles: [zk]},"
                + " {ssh: hit-h2, memory: 1500m, roles: [solr]}]",
            "  collections: [{name: c, shards: 2}]",
            "data:",
            "  synth: {docs: 4000, seed: 3}",
            "  derive_queries: {count: 100, seed: 3, kinds: facet}",
            "steps:",
            "  - index: {collection: c}",
            "  - limits: {page_cache: 60m, thp: " + thpDuring + ", swap: 16m, read_iops: 5000}",
            "  - restart: {drop_caches: true}",
            "  - bench: {name: cold, collection: c, threads: 1, warmup: 0s, requests: 100}",
            "  - cached: {collection: c}",
            "  - wait: 30s",
            ""));
    Path out = dir.resolve("limits-run");
    Cluster c = cluster("scn-it-limits");
    var run =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> Cli.run("run", scenario.toString(), "--out", out.toString()));
    // while the wait step runs (after the restart): the kernel's word on what the steps set
    Await.until(
        "the wait step",
        Duration.ofMinutes(5),
        () -> Files.isDirectory(out.resolve("c001/r1/s6-wait-wait")) || run.isDone());
    assertThat(run.isDone()).as("the run ended before its wait step").isFalse();
    long pid = c.requireState().node("solr1").pid();
    Path memory = cgroupsOf(pid).get("memory");
    long limitDuring = Long.parseLong(read(memory.resolve("memory.limit_in_bytes")));
    Path blkio = cgroupsOf(pid).get("blkio"); // the restarted node, moved again
    String throttle = read(blkio.resolve("blkio.throttle.read_iops_device"));
    String thpSeen = read(thp);
    List<String> swaps = Files.readAllLines(Path.of("/proc/swaps"));
    String host = c.requireState().node("solr1").ssh(); // zk1 on hit-h1, solr1 on hit-h2
    assertThat(host).isEqualTo("hit-h2");
    String swapFile = c.hosts().limits().swapFile(host);
    // an independent count of the index: its files' sizes, walked here (a lab host's files are
    // this machine's)
    String home = c.hosts().solrHome(c.requireState().node("solr1"));
    long indexBytes = 0;
    try (Stream<Path> files = Files.walk(Path.of(home))) {
      for (Path core :
          files.filter(f -> f.getFileName().toString().equals("core.properties")).toList()) {
        if (!Files.readAllLines(core).contains("collection=c")) {
          continue;
        }
        try (Stream<Path> idx = Files.walk(core.resolveSibling("data"))) {
          for (Path f :
              idx.filter(Files::isRegularFile)
                  .filter(f -> f.getParent().getFileName().toString().startsWith("index"))
                  .toList()) {
            indexBytes += Files.size(f);
          }
        }
      }
    }
    Cli.Result r = run.get(10, java.util.concurrent.TimeUnit.MINUTES);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err())
        .doesNotContain("warning")
        .contains(
            "put back on hit-h1: memory limit 1500 MB, huge pages "
                + thpBefore
                + ", swap file off, disk reads unthrottled");
    JsonNode steps =
        JSON.readTree(out.resolve("results.json").toFile()).get("combinations").get(0).get("steps");
    JsonNode byHost = steps.get(1).get("summary").get("hosts");
    assertThat(byHost).hasSize(2);
    JsonNode limits = byHost.get(byHost.get(0).get("host").asText().equals(host) ? 0 : 1);
    assertThat(limits.get("host").asText()).isEqualTo(host);
    assertThat(limits.get("limit_before_mb").asDouble()).isEqualTo(1500.0);
    // the limit is what the nodes held plus the room asked for, and the restart kept it (starting
    // a node sets the spec's 1500m again)
    assertThat(limits.get("page_cache_room_mb").asDouble()).isCloseTo(60.0, within(0.2));
    assertThat(limits.get("limit_mb").asDouble())
        .isCloseTo(limits.get("nodes_hold_mb").asDouble() + 60, within(0.2))
        .isLessThan(1500.0)
        .isCloseTo(limitDuring / 1048576.0, within(0.1));
    assertThat(thpSeen).contains("[" + thpDuring + "]");
    assertThat(blkio.getFileName().toString()).isEqualTo("solrscale-scn-it-limits-" + host);
    assertThat(throttle).matches("[0-9]+:[0-9]+ 5000");
    assertThat(
            byHost.get(0).get("processes_throttled").asInt()
                + byHost.get(1).get("processes_throttled").asInt())
        .isEqualTo(2); // zk1 and solr1
    // the hosts share this machine's kernel: the second saw the first's change
    assertThat(byHost.get(0).get("thp_before").asText()).isEqualTo(thpBefore);
    assertThat(byHost.get(1).get("thp_before").asText()).isEqualTo(thpDuring);
    assertThat(swaps).anyMatch(l -> l.startsWith(swapFile + " "));
    JsonNode cached = steps.get(4).get("summary");
    assertThat(cached.get("index_mb").asDouble()).isCloseTo(indexBytes / 1048576.0, within(0.1));
    assertThat(cached.get("cached_mb").asDouble())
        .isPositive()
        .isLessThanOrEqualTo(cached.get("index_mb").asDouble());
    assertThat(cached.get("cores")).hasSize(2);
    // afterwards: huge pages as they were, the swap file off and gone, the cluster down
    assertThat(read(thp)).contains("[" + thpBefore + "]");
    assertThat(Files.readAllLines(Path.of("/proc/swaps"))).noneMatch(l -> l.contains(".swap"));
    assertThat(Path.of(swapFile)).doesNotExist();
    assertThat(memory).doesNotExist();
    assertThat(blkio).doesNotExist();
    assertThat(markedProcesses("-Dsolrscale.node=scn-it-limits/")).isEmpty();
  }

  /** The cgroup directory of each v1 controller a pid is in, from /proc/PID/cgroup. */
  static Map<String, Path> cgroupsOf(long pid) throws IOException {
    Map<String, Path> out = new HashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
      String[] f = line.split(":", 3);
      for (String c : f[1].split(",")) {
        if (!c.isEmpty()) {
          out.put(c, Path.of("/sys/fs/cgroup", c, f[2].substring(1)));
        }
      }
    }
    return out;
  }

  static String read(Path p) throws IOException {
    return Files.readString(p).strip();
  }

  static void assertOneLine(Cli.Result r, String expected) {
    assertThat(r.exitCode()).as(r.err()).isIn(2, 3);
    assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
    assertThat(r.err()).contains(expected).doesNotContain("Exception");
  }
}
