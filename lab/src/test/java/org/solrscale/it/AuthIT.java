package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Cluster;
import org.solrscale.runtime.SolrscaleHome;

/**
 * A cluster with Solr's BasicAuth, driven through the CLI as a user would: every command
 * authenticates, the read-only user can query but not write, wrong or missing credentials are one
 * line, a leader kill's verdict matches an independent count, and no password shows up in any file
 * of the runs or in the process list while they run.
 */
class AuthIT {
  static final String NAME = "it-auth";
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  static Cluster cluster() {
    return new Cluster(SolrscaleHome.fromEnvironment(), NAME, System.err::println);
  }

  @AfterAll
  static void down() {
    if (cluster().exists()) {
      Cli.run("down", "--name", NAME, "--purge");
    }
  }

  /** Watches `ps` (every process's arguments) for any of the passwords, once they exist. */
  static final class PsWatch extends Thread {
    final Path credentials;
    final List<String> passwords = new CopyOnWriteArrayList<>();
    final List<String> leaks = new CopyOnWriteArrayList<>();
    final AtomicBoolean stop = new AtomicBoolean();
    int samples;

    PsWatch(Path credentials) {
      this.credentials = credentials;
      setDaemon(true);
    }

    @Override
    public void run() {
      long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(15); // bounded
      while (!stop.get() && System.nanoTime() < until) {
        try {
          if (passwords.isEmpty() && Files.exists(credentials)) {
            Properties p = read(credentials);
            if (p.getProperty("admin") != null && p.getProperty("reader") != null) {
              passwords.add(p.getProperty("admin"));
              passwords.add(p.getProperty("reader"));
            }
          }
          if (!passwords.isEmpty()) {
            Process ps = new ProcessBuilder("ps", "-eo", "pid,args", "ww").start();
            String all = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ps.waitFor(10, TimeUnit.SECONDS);
            samples++;
            for (String line : all.split("\n")) {
              for (String pw : passwords) {
                if (line.contains(pw)) {
                  leaks.add(line);
                }
              }
            }
          }
          Thread.sleep(300); // the sampling rate of ps, not a wait
        } catch (IOException e) {
          // the file half-written: read again next time
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  static Properties read(Path f) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(f)) {
      p.load(in);
    }
    return p;
  }

  /** The lab CA's trust, from the cluster's own files: an independent HTTPS client. */
  static SSLContext labTrust() throws Exception {
    Path tls = SolrscaleHome.fromEnvironment().cluster(NAME).resolve("tls");
    String pw = Files.readString(tls.resolve("password")).strip();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(tls.resolve("truststore.p12"))) {
      ks.load(in, pw.toCharArray());
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx;
  }

  static HttpResponse<String> get(String url, String user, String password) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    if (user != null) {
      b.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
    return HttpClient.newBuilder()
        .sslContext(labTrust())
        .build()
        .send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void everyCommandAuthenticatesAndNoSecretLeaves() throws Exception {
    Path credentials = SolrscaleHome.fromEnvironment().cluster(NAME).resolve("credentials");
    PsWatch watch = new PsWatch(credentials);
    watch.start();
    List<Path> runDirs = new ArrayList<>();
    try {
      Cli.Result up =
          Cli.run(
              "up",
              "--name",
              NAME,
              "--auth",
              "basic",
              "--tls",
              "--nodes",
              "2",
              "--heap",
              "384m",
              "--jvm-arg", // a 10 s ZooKeeper session: the killed leader is replaced sooner
              "-DzkClientTimeout=10000",
              "--collection",
              "docs",
              "--shards",
              "2",
              "--replicas",
              "2");
      assertThat(up.exitCode()).as(up.err()).isZero();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(credentials)))
          .isEqualTo("rw-------");
      Properties users = read(credentials);
      String admin = users.getProperty("admin");
      String reader = users.getProperty("reader");
      String url = cluster().solrUrls().get(0);
      assertThat(url).startsWith("https://");
      String tlsPassword =
          Files.readString(SolrscaleHome.fromEnvironment().cluster(NAME).resolve("tls/password"))
              .strip();
      watch.passwords.add(tlsPassword);
      // TLS, independently: a client trusting only the JDK's CAs cannot talk to the nodes
      assertThatThrownBy(
              () ->
                  HttpClient.newHttpClient()
                      .send(
                          HttpRequest.newBuilder(URI.create(url + "/admin/info/health")).build(),
                          HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
      // Solr itself, asked directly: nothing without credentials, everything for the admin
      assertThat(get(url + "/docs/select?q=*:*", null, null).statusCode()).isEqualTo(401);
      assertThat(get(url + "/docs/select?q=*:*", "admin", "wrong").statusCode()).isEqualTo(401);
      assertThat(get(url + "/docs/select?q=*:*", "admin", admin).statusCode()).isEqualTo(200);

      Path corpus = dir.resolve("docs.jsonl");
      Path queries = dir.resolve("queries.txt");
      assertThat(Cli.run("data", "synth", "--docs", "2000", "-o", corpus.toString()).exitCode())
          .isZero();
      assertThat(
              Cli.run(
                      "data",
                      "queries",
                      corpus.toString(),
                      "-o",
                      queries.toString(),
                      "--count",
                      "100")
                  .exitCode())
          .isZero();
      Cli.Result index =
          Cli.run("index", "--name", NAME, "--collection", "docs", corpus.toString());
      assertThat(index.exitCode()).as(index.err()).isZero();
      assertThat(index.out() + index.err()).contains("verified");

      // the read-only user queries, and is refused a write in one line that names it
      Cli.Result bench =
          Cli.run(
              "bench",
              "--name",
              NAME,
              "--user",
              "reader",
              "--collection",
              "docs",
              "--queries",
              queries.toString(),
              "--rate",
              "20",
              "--warmup",
              "1s",
              "--duration",
              "3s",
              "--json");
      assertThat(bench.exitCode()).as(bench.err()).isZero();
      JsonNode b = JSON.readTree(bench.out());
      assertThat(b.get("count").asLong()).isPositive();
      assertThat(b.get("errors").get("total").asLong()).isZero();
      Cli.Result write =
          Cli.run(
              "index",
              "--name",
              NAME,
              "--user",
              "reader",
              "--collection",
              "docs",
              corpus.toString());
      assertThat(write.exitCode()).isEqualTo(2);
      assertThat(write.err().strip()).doesNotContain("\n").contains("refused user 'reader'");

      // any SolrCloud by --url: no user, a wrong password: one line each, naming the user
      Path wrong = dir.resolve("wrong-password");
      Files.writeString(wrong, "not-" + admin + "\n");
      String trust =
          SolrscaleHome.fromEnvironment().cluster(NAME).resolve("tls/truststore.p12").toString();
      Cli.Result untrusted = Cli.run("status", "--url", url);
      assertThat(untrusted.exitCode()).isEqualTo(3);
      assertThat(untrusted.err().strip()).doesNotContain("\n").contains("--truststore");
      Cli.Result none = Cli.run("status", "--url", url, "--truststore", trust);
      assertThat(none.exitCode()).isEqualTo(2);
      assertThat(none.err().strip()).doesNotContain("\n").contains("requires authentication");
      Cli.Result bad =
          Cli.run(
              "status",
              "--url",
              url,
              "--truststore",
              trust,
              "--user",
              "admin",
              "--password-file",
              wrong.toString());
      assertThat(bad.exitCode()).isEqualTo(2);
      assertThat(bad.err().strip())
          .doesNotContain("\n")
          .contains("did not accept the password of user 'admin'");
      Cli.Result noPassword =
          Cli.run("status", "--url", url, "--truststore", trust, "--user", "admin");
      assertThat(noPassword.exitCode()).isEqualTo(2);
      assertThat(noPassword.err()).contains("SOLRSCALE_PASSWORD");

      // a scenario against it by --url, the admin's password from a file
      Path right = dir.resolve("admin-password");
      Files.writeString(right, admin + "\n");
      Path scenario = dir.resolve("auth.yaml");
      Files.writeString(
          scenario,
          String.join(
              "\n",
              "name: it-auth-run",
              "cluster: {nodes: 1}", // not started: the steps run against --url
              "data:",
              "  synth: {docs: 1000}",
              "  derive_queries: {count: 50}",
              "steps:",
              "  - index: {collection: docs}",
              "  - bench: {name: q, collection: docs, threads: 1, warmup: 1s, requests: 50}",
              "  - bench: {name: log, collection: docs, replay: requests.jsonl, speed: 4,"
                  + " warmup: 0s}",
              "  - chaos: {name: writes, collection: docs, duration: 4s}",
              ""));
      // a replay over TLS as the admin: 20 logged requests, each logged with the 2,000 hits the
      // collection holds when it runs (the 2,000 indexed above; the step's 1,000 replace ids
      // doc-0 to doc-999 of them)
      List<String> logged = new java.util.ArrayList<>();
      for (int i = 0; i < 20; i++) {
        logged.add(
            "{\"start_ms\":"
                + (1_795_900_000_000L + i * 100L)
                + ",\"collection\":\"docs\",\"handler\":\"/select\",\"params\":{\"q\":[\"*:*\"],"
                + "\"rows\":[\"0\"]},\"hits\":2000,\"status\":0,\"qtime\":1,\"source\":\"log:"
                + (i + 1)
                + "\"}");
      }
      Files.write(dir.resolve("requests.jsonl"), logged);
      Path runOut = dir.resolve("run");
      runDirs.add(runOut);
      Cli.Result run =
          Cli.run(
              "run",
              scenario.toString(),
              "--url",
              url,
              "--user",
              "admin",
              "--password-file",
              right.toString(),
              "--truststore",
              trust,
              "--out",
              runOut.toString());
      assertThat(run.exitCode()).as(run.err()).isZero();
      JsonNode results = JSON.readTree(runOut.resolve("results.json").toFile());
      JsonNode steps = results.get("combinations").get(0).get("steps");
      assertThat(steps.get(0).get("summary").get("verified").asBoolean()).isTrue();
      assertThat(steps.get(1).get("summary").get("errors").get("total").asLong()).isZero();
      JsonNode replay = steps.get(2).get("summary").get("replay");
      assertThat(replay.get("answered").asLong()).isEqualTo(20);
      assertThat(replay.get("equal").asLong()).isEqualTo(20);

      // a leader killed while writing into a collection of our own: the verdict against an
      // independent count of the acknowledged ids the collection holds
      assertThat(
              Cli.run(
                      "collection",
                      "create",
                      "--name",
                      NAME,
                      "--collection",
                      "cw",
                      "--shards",
                      "2",
                      "--replicas",
                      "2")
                  .exitCode())
          .isZero();
      Path chaosOut = dir.resolve("chaos");
      runDirs.add(chaosOut);
      Cli.Result chaos =
          Cli.run(
              "chaos",
              "--name",
              NAME,
              "--collection",
              "docs",
              "--into",
              "cw",
              "--fault",
              "kill",
              "--target",
              "leader-of:shard1",
              "--at",
              "3s",
              "--duration",
              "4s",
              "--after",
              "3s",
              "--write-rate",
              "50",
              "--query-rate",
              "5",
              "--out",
              chaosOut.toString(),
              "--json");
      assertThat(chaos.exitCode()).as(chaos.err()).isIn(0, 1);
      JsonNode v = JSON.readTree(chaos.out());
      List<String> acked = Acknowledged.ids(chaosOut.resolve("history.jsonl"));
      assertThat(acked).isNotEmpty();
      Set<String> present =
          OnAnyReplica.found(
              HttpClient.newBuilder().sslContext(labTrust()).build(),
              cluster().solrUrls().get(0),
              "cw",
              acked,
              "Basic "
                  + java.util.Base64.getEncoder()
                      .encodeToString(
                          ("admin:" + admin).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      long found = acked.stream().filter(present::contains).count();
      assertThat(v.get("acknowledged").asLong()).isEqualTo(acked.size());
      assertThat(v.get("found").asLong()).isEqualTo(found);
      assertThat(v.get("lost").asLong()).isEqualTo(acked.size() - found);

      // nothing secret in any file of the runs, nor in the process list at any moment
      watch.stop.set(true);
      watch.join(5000);
      assertThat(watch.samples).isGreaterThan(20);
      assertThat(watch.leaks).isEmpty();
      List<String> secrets =
          List.of(
              admin,
              reader,
              Base64.getEncoder()
                  .encodeToString(("admin:" + admin).getBytes(StandardCharsets.UTF_8)),
              Base64.getEncoder()
                  .encodeToString(("reader:" + reader).getBytes(StandardCharsets.UTF_8)),
              tlsPassword);
      int files = 0;
      for (Path root : runDirs) {
        try (Stream<Path> walk = Files.walk(root)) {
          for (Path f : walk.filter(Files::isRegularFile).toList()) {
            files++;
            String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            for (String s : secrets) {
              assertThat(text.contains(s)).as(f + " holds a password").isFalse();
            }
          }
        }
      }
      assertThat(files).isGreaterThan(10);
      // nor in what solrscale printed, nor in its cluster's files other than the credentials
      for (String s : secrets) {
        assertThat(up.out() + up.err() + run.out() + run.err() + chaos.out() + chaos.err())
            .doesNotContain(s);
      }
      try (Stream<Path> walk = Files.walk(SolrscaleHome.fromEnvironment().cluster(NAME))) {
        for (Path f :
            walk.filter(Files::isRegularFile).filter(f -> !f.equals(credentials)).toList()) {
          if (Files.size(f) > 50_000_000) {
            continue; // an index file
          }
          String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
          for (String s : List.of(admin, reader)) {
            assertThat(text.contains(s)).as(f + " holds a password").isFalse();
          }
        }
      }
    } finally {
      watch.stop.set(true);
    }
  }
}
