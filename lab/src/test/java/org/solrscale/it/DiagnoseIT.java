package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.diagnose.Doctor;
import org.solrscale.results.Diagnosis;
import org.solrscale.runtime.SolrscaleHome;

/**
 * --profile against a real Solr node: a planted hot lock (an update log with one version bucket,
 * Solr 9.7.0, the last release that has them) is named and an unplanted run does not name it; the
 * lock waits agree with the JDK's own jfr tool; allocation differs as the workload does, and the GC
 * log agrees with the recording; nothing is left running or outside the results directory.
 */
class DiagnoseIT {
  static final String NAME = "it-diagnose";
  @TempDir static Path dir;
  static Path corpus;

  static Cluster cluster() {
    return new Cluster(SolrscaleHome.fromEnvironment(), NAME, System.err::println);
  }

  @BeforeAll
  static void up() throws IOException {
    cluster().state().ifPresent(s -> cluster().down(true));
    Path spec = dir.resolve("cluster.yaml");
    Files.writeString(
        spec,
        String.join(
            "\n",
            "name: " + NAME,
            "solr_version: 9.7.0",
            "heap: 512m",
            "zookeeper: {servers: 1, tick_time: 1000}", // sessions of at most 20 s: a trap
            "collections:",
            "  - name: normal",
            "  - name: planted",
            "    properties: {solr.ulog.numVersionBuckets: 1}",
            "  - name: traps",
            "    replicas: 2",
            "    properties: {solr.filterCache.autowarm: 1024, solr.autoSoftCommit.maxTime: 200,",
            "      solr.autoCommit.maxTime: 500, solr.autoCommit.openSearcher: true}",
            ""));
    Cli.Result r = Cli.run("up", "--spec", spec.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    corpus = dir.resolve("synth.jsonl");
    assertThat(Cli.run("data", "synth", "--docs", "15000", "-o", corpus.toString()).exitCode())
        .isZero();
  }

  @AfterAll
  static void down() {
    if (cluster().state().isPresent()) {
      cluster().down(true);
    }
  }

  @Test
  void theDoctorFindsThePlantedTrapsEachWithItsFix() throws Exception {
    Cluster c = cluster();
    NodeState solr = c.requireState().nodes().stream().filter(NodeState::isSolr).findFirst().get();
    // and an open-file limit below Solr's 65000, on the node's own process (ours)
    Process p =
        new ProcessBuilder("prlimit", "--pid", Long.toString(solr.pid()), "--nofile=4096:")
            .inheritIO()
            .start();
    assertThat(p.waitFor()).isZero();
    long limit = Doctor.limitsOf(solr.pid()).get("Max open files");
    assertThat(limit).as("read back from /proc independently of the doctor").isEqualTo(4096);

    Cli.Result r = Cli.run("doctor", "--name", NAME);
    assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1); // an error was found
    assertThat(r.out())
        .contains("error   collection traps (coll-autocommit-opensearcher)")
        .contains("autoCommit every 500 ms opens a new searcher")
        .contains("fix: set autoCommit openSearcher=false")
        .contains("(zk-session-timeout)")
        .contains("gets 20,000 ms")
        .contains("(node-open-files)")
        .contains("open-file limit 4096")
        .contains("(coll-autowarm)")
        .contains("filterCache autowarmCount 1024")
        .contains("(coll-soft-commit)")
        .contains("autoSoftCommit every 200 ms")
        .contains("collection planted (coll-version-buckets)")
        .contains("(SOLR-5939)")
        .contains("collection traps shard1 (coll-replicas-host)")
        .contains("(zk-shares-host)")
        // load over the doctor's own window, and a fix one machine can take
        .contains("(CPU, GC and update rates over a 3.0 s window):")
        .contains("busy over the doctor's 3.0 s window")
        .contains("as every node of a cluster solrscale runs on one machine does")
        .contains("on real hosts give ZooKeeper hosts of its own")
        .contains("fix: raise zookeeper: {tick_time: 1500} in the cluster spec");
    assertThat(r.out()).doesNotContain("collection normal (");
    assertThat(r.out()).containsOnlyOnce("(coll-autocommit-opensearcher)"); // traps' own settings

    Cli.Result json = Cli.run("doctor", "--name", NAME, "--json");
    assertThat(json.exitCode()).isEqualTo(1);
    var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
    assertThat(tree.path("facts").path("zookeeper").get(0).path("conf").path("tickTime").asText())
        .isEqualTo("1000");
    assertThat(tree.path("findings").size()).isGreaterThan(5);
    assertThat(tree.path("facts").path("layout").asText()).isEqualTo("one-machine");
    assertThat(tree.path("facts").path("window_s").asDouble()).isEqualTo(3.0);
    var window = tree.path("facts").path("nodes").get(0).path("window");
    assertThat(window.path("cpu_cores").isNumber()).as(window.toString()).isTrue();
    assertThat(window.path("host_cpu_busy_percent").isNumber()).as(window.toString()).isTrue();
    assertThat(window.path("gc_count").isNumber()).as(window.toString()).isTrue();
  }

  private static Diagnosis index(String collection) {
    Path out = dir.resolve("index-" + collection);
    Cli.Result r =
        Cli.run(
            "index",
            "--name",
            NAME,
            "--collection",
            collection,
            "--threads",
            "8",
            "--batch",
            "100",
            "--profile",
            "--out",
            out.toString(),
            corpus.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("profile (" + out.resolve("profile") + "):");
    assertNothingLeft(out);
    return Diagnosis.read(out).orElseThrow();
  }

  @Test
  void thePlantedHotLockIsNamedAndTheNormalRunDoesNotNameIt() throws Exception {
    Diagnosis planted = index("planted");
    Diagnosis.Lock top = planted.nodes().get(0).locks().get(0);
    assertThat(top.lock()).isEqualTo("org.apache.solr.update.VersionBucket");
    assertThat(top.from()).contains("DistributedUpdateProcessor.versionAdd");
    assertThat(top.share()).isGreaterThan(0.05);
    assertThat(planted.findings()).anyMatch(f -> f.contains("VersionBucket"));
    // the waits counted agree with the JDK's own reader of the same recording
    Path jfr = dir.resolve("index-planted").resolve(planted.nodes().get(0).recording());
    long byJfrTool =
        jfrToolCount(jfr, "jdk.JavaMonitorEnter", "org.apache.solr.update.VersionBucket");
    long counted =
        planted.nodes().get(0).locks().stream()
            .filter(l -> l.lock().equals("org.apache.solr.update.VersionBucket"))
            .mapToLong(Diagnosis.Lock::waits)
            .sum();
    assertThat(counted).isEqualTo(byJfrTool).isPositive();

    Diagnosis normal = index("normal");
    assertThat(normal.findings()).noneMatch(f -> f.contains("VersionBucket"));
    assertThat(normal.nodes().get(0).locks())
        .noneMatch(l -> l.lock().endsWith("VersionBucket") && l.share() > 0.05);

    // allocation: the GC log and the recording agree over the same collections, wherever a run had
    // two or more with enough between them (how many fall in a 5 s run depends on the heap's state)
    List<Diagnosis.AllocationCheck> checks =
        List.of(planted, normal).stream()
            .map(d -> d.nodes().get(0).gcLogCheck())
            .filter(c -> c != null)
            .toList();
    assertThat(checks)
        .as("a GC-log check in at least one of two 15,000-document runs")
        .isNotEmpty();
    for (Diagnosis.AllocationCheck c : checks) {
      assertThat(Math.abs(c.differencePercent())).as(c.toString()).isLessThan(20);
    }
  }

  @Test
  void storedFieldsAllocateMoreThanIdsAndTheFlameGraphIsPlainSvg() throws Exception {
    Path all = dir.resolve("all.txt");
    Path ids = dir.resolve("ids.txt");
    List<String> allLines = new ArrayList<>();
    List<String> idLines = new ArrayList<>();
    for (int start = 0; start < 5000; start += 100) {
      allLines.add("q=*:*&rows=100&fl=*&start=" + start);
      idLines.add("q=*:*&rows=100&fl=id&start=" + start);
    }
    Files.write(all, allLines);
    Files.write(ids, idLines);
    assertThat(
            Cli.run("index", "--name", NAME, "--collection", "normal", corpus.toString())
                .exitCode())
        .isZero();
    double stored = benchAllocation(all, "stored");
    double idsOnly = benchAllocation(ids, "ids");
    assertThat(stored).isGreaterThan(1.5 * idsOnly);
  }

  private static double benchAllocation(Path queries, String name) throws Exception {
    Path out = dir.resolve("bench-" + name);
    Cli.Result r =
        Cli.run(
            "bench",
            "--name",
            NAME,
            "--collection",
            "normal",
            "--queries",
            queries.toString(),
            "--rate",
            "40",
            "--warmup",
            "1s",
            "--duration",
            "6s",
            "--profile",
            "--out",
            out.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertNothingLeft(out);
    Diagnosis d = Diagnosis.read(out).orElseThrow();
    Diagnosis.Node n = d.nodes().get(0);
    Path svg = out.resolve(n.flameGraph());
    String text = Files.readString(svg);
    assertThat(text).doesNotContain("<script").doesNotContain("href=\"http");
    DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile()); // well-formed
    assertThat(n.cpuSamples()).isPositive();
    return n.allocatedMb();
  }

  /** No recording runs on the node, and the profile's files are in OUT/profile and nowhere else. */
  private static void assertNothingLeft(Path out) {
    Cluster c = cluster();
    NodeState solr = c.requireState().nodes().stream().filter(NodeState::isSolr).findFirst().get();
    assertThat(c.hosts().jcmd(solr, List.of("JFR.check"))).contains("No available recordings");
    try (Stream<Path> files = Files.list(out.resolve("profile"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("diagnosis.json", "solr1.jfr", "solr1-cpu.svg");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    try (Stream<Path> files = Files.walk(c.hosts().nodeDir(solr))) {
      assertThat(files.map(Path::toString))
          .noneMatch(p -> p.endsWith(".jfr") || p.contains(".repository"));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** How many events of a type name the class, as `jfr print` (the JDK's own tool) reads them. */
  private static long jfrToolCount(Path jfr, String event, String className) throws Exception {
    Path jfrTool = Path.of(System.getProperty("java.home"), "bin", "jfr");
    Path text = dir.resolve("jfr-print.txt");
    Process p =
        new ProcessBuilder(jfrTool.toString(), "print", "--events", event, jfr.toString())
            .redirectErrorStream(true)
            .redirectOutput(text.toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    try (Stream<String> lines = Files.lines(text)) {
      return lines.filter(l -> l.contains("monitorClass = " + className + " ")).count();
    }
  }
}
