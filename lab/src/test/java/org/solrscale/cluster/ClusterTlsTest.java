package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterTlsTest {
  @TempDir static Path dir;

  static Path keytool() {
    return Path.of(System.getProperty("java.home"), "bin", "keytool");
  }

  @Test
  void aLabCaSignsTheNodeForItsAddressesAndClientsTrustOnlyThat() throws Exception {
    ClusterTls tls = ClusterTls.ensure(dir, keytool(), List.of("10.0.0.12"));
    Path password = dir.resolve("tls/password");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(password)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("tls"))))
        .isEqualTo("rwx------");
    String pw = tls.secretForEnvironment();
    KeyStore node = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(tls.nodeKeystore())) {
      node.load(in, pw.toCharArray());
    }
    X509Certificate cert = (X509Certificate) node.getCertificate("node");
    assertThat(node.getCertificateChain("node")).hasSize(2);
    assertThat(cert.getSubjectAlternativeNames().stream().map(l -> String.valueOf(l.get(1))))
        .contains("127.0.0.1", "10.0.0.12", "localhost");
    // the trust store holds only the CA's certificate, and opens without a password
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(tls.truststore())) {
      trust.load(in, null);
    }
    assertThat(java.util.Collections.list(trust.aliases())).containsExactly("ca");
    assertThat(trust.isCertificateEntry("ca")).isTrue();
    // the same material again, not made anew
    assertThat(ClusterTls.ensure(dir, keytool(), List.of()).secretForEnvironment()).isEqualTo(pw);

    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(node, pw.toCharArray());
    SSLContext server = SSLContext.getInstance("TLS");
    server.init(kmf.getKeyManagers(), null, null);
    try (SSLServerSocket ss =
        (SSLServerSocket)
            server
                .getServerSocketFactory()
                .createServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Void> serving =
          CompletableFuture.runAsync(
              () -> {
                for (int i = 0; i < 2; i++) {
                  try (Socket s = ss.accept()) {
                    s.getOutputStream().write('x');
                  } catch (Exception ignored) {
                    // the refused handshake ends here too
                  }
                }
              });
      // by the address in the certificate: trusted; by another name: refused
      assertThat(
              handshake(
                  Access.NONE.trusting(tls.truststore(), null).sslContext(),
                  ss.getLocalPort(),
                  "127.0.0.1"))
          .isEqualTo('x');
      assertThatThrownBy(
              () ->
                  handshake(
                      Access.NONE.trusting(tls.truststore(), null).sslContext(),
                      ss.getLocalPort(),
                      "other.invalid"))
          .isInstanceOf(SSLHandshakeException.class);
      serving.join();
    }
  }

  static int handshake(SSLContext ctx, int port, String name) throws Exception {
    try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), port);
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(plain, name, port, true)) {
      SSLParameters p = s.getSSLParameters();
      p.setEndpointIdentificationAlgorithm("HTTPS");
      s.setSSLParameters(p);
      s.startHandshake();
      return s.getInputStream().read();
    }
  }
}
