package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.ClusterTls;
import org.solrscale.spec.Routing;

/** The load driver over HTTPS against a real TLS server whose certificate a lab CA signed. */
class HttpsClientTest {
  @TempDir static Path dir;
  static ClusterTls tls;
  static HttpsServer server;
  static final List<String> auth = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void serve() throws Exception {
    tls =
        ClusterTls.ensure(
            dir, Path.of(System.getProperty("java.home"), "bin", "keytool"), List.of());
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(tls.nodeKeystore())) {
      ks.load(in, tls.secretForEnvironment().toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, tls.secretForEnvironment().toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(ctx));
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.createContext(
        "/solr/c/select",
        ex -> {
          auth.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
          HttpClientTest.answer(ex, "{\"response\":{\"numFound\":5,\"docs\":[]}}");
        });
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  static Outcome query(HttpSender sender, int i) throws Exception {
    CompletableFuture<Outcome> f = new CompletableFuture<>();
    sender.send(
        new QueryRequest("/select", "q=" + i, "t", "x"), i, (o, sent, done) -> f.complete(o));
    return f.get(20, TimeUnit.SECONDS);
  }

  @Test
  void queriesGoOverTlsOnKeptAliveConnectionsWithTheUsersCredentials() throws Exception {
    String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/solr";
    Access access =
        Access.basic("reader", "pw").trusting(tls.truststore(), tls.secretForEnvironment());
    try (HttpSender sender =
        new HttpSender(
            HttpSender.routing(Routing.CLOUD, List.of(url)),
            "c",
            "",
            false,
            5000,
            2,
            Clock.SYSTEM,
            access)) {
      for (int i = 0; i < 30; i++) {
        Outcome o = query(sender, i);
        assertThat(o.failed()).as(String.valueOf(o)).isFalse();
        assertThat(o.numFound()).isEqualTo(5);
      }
    }
    assertThat(auth).hasSize(30).containsOnly("Basic cmVhZGVyOnB3");
  }

  @Test
  void aCertificateTheClientDoesNotTrustIsATlsFailure() throws Exception {
    String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/solr";
    // the JDK's own CAs do not include the lab CA
    try (HttpSender sender =
        new HttpSender(
            HttpSender.routing(Routing.CLOUD, List.of(url)),
            "c",
            "",
            false,
            5000,
            1,
            Clock.SYSTEM,
            Access.NONE)) {
      Outcome o = query(sender, 1);
      assertThat(o.failed()).isTrue();
      assertThat(o.errorKind()).isEqualTo("tls");
      assertThat(o.message()).contains("TLS handshake");
    }
  }
}
