package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.StateStore;
import org.solrscale.runtime.SolrscaleHome;

/** Bad input and a broken environment get one clear line and the right exit code, never a trace. */
class CliErrorsIT {

  /** The exit code, and a last line of stderr that holds every fragment, without a stack trace. */
  static void assertOneLineError(Cli.Result r, int code, String... fragments) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(code);
    String last = r.err().strip().lines().reduce((a, b) -> b).orElse("");
    assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception:");
    assertThat(last).startsWith("solrscale: ").contains(fragments);
  }

  @Test
  void everySubcommandAnswersHelp() {
    for (String[] cmd :
        new String[][] {{"bench"}, {"index"}, {"data", "synth"}, {"node", "pause"}}) {
      String[] args = Arrays.copyOf(cmd, cmd.length + 1);
      args[cmd.length] = "--help";
      Cli.Result r = Cli.run(args);
      assertThat(r.exitCode()).as(String.join(" ", args)).isZero();
      assertThat(r.out()).contains("Usage: solrscale " + String.join(" ", cmd));
      args[cmd.length] = "--version"; // listed by every help: it printed nothing on a subcommand
      r = Cli.run(args);
      assertThat(r.exitCode()).as(String.join(" ", args)).isZero();
      assertThat(r.out()).as(String.join(" ", args)).startsWith("solrscale ");
    }
  }

  /** Replays and request logs given wrong: one line each, before anything is sent. */
  @Test
  void replaysAndLogsGivenWrongSayWhatToDo(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("requests.jsonl");
    Files.writeString(
        log,
        "{\"start_ms\":1795900000000,\"collection\":\"c\",\"handler\":\"/select\","
            + "\"params\":{\"q\":[\"a\"]}}\n");
    String url = "http://127.0.0.1:1/solr";
    assertOneLineError(
        Cli.run("bench", "--url", url, "--replay", log.toString(), "--queries", log.toString()),
        2,
        "--replay sends the logged requests: leave out --queries");
    assertOneLineError(
        Cli.run("bench", "--url", url, "--replay", log.toString(), "--loop"),
        2,
        "--loop replays the log again and again: give --duration");
    assertOneLineError(
        Cli.run("bench", "--url", url, "--replay", log.toString(), "--speed", "0"),
        2,
        "--speed must be above 0");
    assertOneLineError(
        Cli.run("bench", "--url", url, "--threads", "2", "--collection", "c"),
        2,
        "give the requests to send: --queries FILE");
    Path q = dir.resolve("q.txt");
    Files.writeString(q, "q=a\n");
    assertOneLineError(
        Cli.run("bench", "--url", url, "--replay", q.toString()),
        2,
        q + ":1: not a request of data log-requests");
    Path gc = dir.resolve("gc.log");
    Files.writeString(gc, "[0.004s][info][gc] Using G1\n");
    assertOneLineError(
        Cli.run("data", "log-requests", gc.toString(), "-o", dir.resolve("r.jsonl").toString()),
        2,
        "has a request line: give Solr's solr.log");
    assertOneLineError(
        Cli.run(
            "data",
            "log-requests",
            gc.toString(),
            "--sample",
            "0%",
            "-o",
            dir.resolve("r.jsonl").toString()),
        2,
        "--sample '0%' is not a share above 0");
    assertOneLineError(
        Cli.run(
            "data",
            "log-requests",
            gc.toString(),
            "--from",
            "yesterday",
            "-o",
            dir.resolve("r.jsonl").toString()),
        2,
        "--from 'yesterday' is not a time");
    assertOneLineError(
        Cli.run(
            "data", "queries", "--from-log", q.toString(), "-o", dir.resolve("x.txt").toString()),
        2,
        q + ":1: not a request of data log-requests");
  }

  @Test
  void dataInputsAndOutputsThatCannotBeUsedSayWhatToDo(@TempDir Path dir) throws Exception {
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\":\"1\"}\n");
    String missing = dir.resolve("nodir").resolve("x.jsonl").toString();
    assertOneLineError(
        Cli.run("data", "convert", in.toString(), "-o", missing),
        2,
        "no such folder: " + dir.resolve("nodir") + " (create it with mkdir -p");
    assertOneLineError(
        Cli.run("data", "queries", in.toString(), "-o", missing),
        2, // it made the folder
        "no such folder: " + dir.resolve("nodir") + " (create it with mkdir -p");
    assertThat(Files.exists(dir.resolve("nodir"))).isFalse();
    assertOneLineError(
        Cli.run("data", "convert", "/dev/stdin", "-o", dir.resolve("y.jsonl").toString()),
        2,
        "is not a regular file (a pipe or standard input?)");
    assertOneLineError(
        Cli.run("data", "convert", "-", "-o", dir.resolve("y.jsonl").toString()),
        2,
        "is not a regular file");
    assertOneLineError(
        Cli.run("data", "convert", "", "-o", dir.resolve("y.jsonl").toString()),
        2,
        "an input file name is empty");
    assertOneLineError(
        Cli.run("data", "convert", in.toString(), "--to", "jsonl", "-o", ""), 2, "--out is empty");
    assertOneLineError(
        Cli.run("data", "split", in.toString(), "--parts", "2", "-o", ""), 2, "--out is empty");
    assertOneLineError(
        Cli.run("data", "split", in.toString(), "--parts", "2", "-o", in.toString()),
        2,
        "is a file: split writes its parts into a folder");
  }

  @Test
  void indexRefusesARejectsFileThatHoldsSomethingBeforeItReadsOrSends(@TempDir Path dir)
      throws Exception {
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\":\"1\"}\n");
    Path rejects = dir.resolve("docs-rejects.jsonl");
    Files.writeString(rejects, "{\"error\":\"of an earlier run\"}\n");
    // nothing listens on port 1: a run that got as far as connecting would exit 3
    String[] args = {
      "index",
      "--url",
      "http://127.0.0.1:1/solr",
      "--collection",
      "docs",
      "--rejects",
      rejects.toString(),
      in.toString()
    };
    assertOneLineError(
        Cli.run(args),
        2,
        "the rejects file "
            + rejects
            + " already holds 30 bytes (an "
            + "earlier run's rejects?), which this run would overwrite: move it away or give another --rejects FILE");
    assertThat(Files.readString(rejects)).isEqualTo("{\"error\":\"of an earlier run\"}\n");
    Files.writeString(rejects, ""); // an empty one is used: the run goes on and finds no Solr
    assertOneLineError(Cli.run(args), 3, "cannot reach SolrCloud at --url http://127.0.0.1:1/solr");
  }

  @Test
  void sampleFirstReadsNoFurtherThanItsDocumentsAndSaysWhenThereAreFewer(@TempDir Path dir)
      throws Exception {
    Path in = dir.resolve("in.jsonl");
    // a broken line after the first two documents: --first 2 never reads it
    Files.writeString(in, "{\"id\":\"1\"}\n{\"id\":\"2\"}\n{broken\n{\"id\":\"4\"}\n");
    Cli.Result r =
        Cli.run(
            "data",
            "sample",
            in.toString(),
            "--first",
            "2",
            "-o",
            dir.resolve("two.jsonl").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("read 2 documents");
    assertThat(Files.readAllLines(dir.resolve("two.jsonl"))).hasSize(2);

    r =
        Cli.run(
            "data",
            "sample",
            in.toString(),
            "--first",
            "5",
            "-o",
            dir.resolve("all.jsonl").toString());
    assertThat(r.exitCode()).isEqualTo(1); // the broken line is reported
    assertThat(r.out()).contains("only 3 documents could be read, fewer than the 5 asked for");

    assertOneLineError(
        Cli.run(
            "data",
            "sample",
            in.toString(),
            "--first",
            "2",
            "--seed",
            "7",
            "-o",
            dir.resolve("s.jsonl").toString()),
        2,
        "--seed goes with --random");
  }

  @Test
  void portInUseNamesThePidAndTheFlag() throws Exception {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      Cli.Result r =
          Cli.run("up", "--name", "it-port", "--base-port", Integer.toString(s.getLocalPort()));
      assertOneLineError(
          r,
          3,
          "port "
              + s.getLocalPort()
              + " is in use by pid "
              + ProcessHandle.current().pid()
              + "; pick another with --base-port");
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
  void unsupportedSolrMajorsAreRefusedClearly() {
    Cli.Result r = Cli.run("up", "--name", "it-eight", "--solr-version", "8.11.4");
    assertOneLineError(r, 2, "Solr 8.11.4 is not supported", "9.x and 10.x");
  }

  @Test
  void solr10WithOnlyJava17IsOneLineNamingWhatWasFound(@TempDir Path noJdks) throws Exception {
    // solrscale itself on Java 17, no JAVA_HOME of 21+, nothing in the install locations
    assumeTrue(Runtime.version().feature() < 21, "this JVM is already new enough for Solr 10");
    String javaHome = System.getenv("JAVA_HOME");
    assumeTrue(
        javaHome == null
            || !Files.exists(Path.of(javaHome, "release"))
            || !Files.readString(Path.of(javaHome, "release")).contains("VERSION=\"2"),
        "JAVA_HOME names a JDK 20+");
    System.setProperty("solrscale.jdk.dirs", noJdks.toString());
    try {
      Cli.Result r = Cli.run("up", "--name", "it-ten", "--solr-version", "10.0.0");
      assertOneLineError(
          r,
          3,
          "Solr 10.0.0 needs Java 21 or newer and found only Java "
              + Runtime.version().feature()
              + " (running solrscale, ",
          "install a JDK 21+ or name one with --java DIR");
      // refused before anything was resolved or started
      assertThat(SolrscaleHome.fromEnvironment().cluster("it-ten")).doesNotExist();
      // an explicit JDK too old is refused as such
      r =
          Cli.run(
              "up",
              "--name",
              "it-ten",
              "--solr-version",
              "10.0.0",
              "--java",
              System.getProperty("java.home"));
      assertOneLineError(r, 3, "Solr 10.0.0 needs Java 21+ but ", "(chosen by --java/java_home)");
    } finally {
      System.clearProperty("solrscale.jdk.dirs");
    }
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
    assertOneLineError(
        Cli.run("up", "--name", "it-bad", "--collection", "c", "--shards", "0"), 2, "shards 0");
    assertOneLineError(
        Cli.run("status", "--name", "no-such-cluster"), 2, "no cluster named 'no-such-cluster'");
    assertOneLineError(
        Cli.run("data", "splt"),
        2,
        "unknown command 'splt': give one of clean, " + "convert, sample, split, synth, queries");
    assertOneLineError(Cli.run("stauts"), 2, "unknown command 'stauts': give one of up, status");
    assertThat(Cli.run("stauts").err()).doesNotContain("cds-training"); // hidden
    // an unknown fault kind is named before the cluster is looked for
    assertOneLineError(
        Cli.run("chaos", "--name", "no-such-cluster", "--collection", "c", "--fault", "kil"),
        2,
        "unknown fault 'kil'; use one of kill, stop, pause",
        "--help-faults");
  }

  @Test
  void aNodeThatDiesDuringStartIsNamedWithItsLogTailAndNothingIsLeftRunning(@TempDir Path dir)
      throws Exception {
    Path spec = dir.resolve("broken.yaml");
    Files.writeString(
        spec, "name: it-broken\nnodes: 1\njvm_args: [-XX:+NoSuchJvmFlagForSolrscale]\n");
    Cli.Result r = Cli.run("up", "--spec", spec.toString(), "--timeout", "120s");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err())
        .contains("solrscale: solr1 died while starting")
        .contains("NoSuchJvmFlagForSolrscale")
        .doesNotContain("\tat ");
    // the ZooKeeper that had started was stopped again and the cluster forgotten
    assertThat(new StateStore(SolrscaleHome.fromEnvironment()).find("it-broken")).isEmpty();
    String zkPid =
        r.err()
            .lines()
            .filter(l -> l.contains("started zk1"))
            .map(l -> l.replaceAll(".*pid (\\d+).*", "$1"))
            .findFirst()
            .orElseThrow();
    assertThat(ClusterIT.gone(Long.parseLong(zkPid))).isTrue();
  }
}
