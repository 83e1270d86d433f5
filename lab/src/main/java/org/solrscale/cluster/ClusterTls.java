package org.solrscale.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.solrscale.spec.SolrscaleException;

/**
 * A cluster's TLS material, made once with the JDK's keytool (nothing is downloaded): a lab CA, one
 * node key pair whose certificate the CA signs for every address the nodes use, and a trust store
 * holding the CA alone. The stores' password is generated and kept in a file only its owner reads;
 * keytool gets it through its environment ({@code -storepass:env}), never its arguments. Layout
 * under the cluster directory: {@code tls/ca.p12} (the CA's key: stays here), {@code tls/node.p12},
 * {@code tls/truststore.p12}, {@code tls/password}.
 */
public final class ClusterTls {
  private static final String DIR = "tls";
  private static final String PASSWORD_ENV = "SOLRSCALE_TLS_STORE_PASSWORD";

  private final Path dir;
  private final String password;

  private ClusterTls(Path dir, String password) {
    this.dir = dir;
    this.password = password;
  }

  /** Whether {@code clusterDir} holds TLS material. */
  public static boolean exist(Path clusterDir) {
    return Files.isRegularFile(clusterDir.resolve(DIR).resolve("password"));
  }

  /**
   * The cluster's TLS material: read, or made with {@code keytool} for {@code addresses} (IP
   * addresses or host names; 127.0.0.1 and localhost are always added).
   */
  public static ClusterTls ensure(Path clusterDir, Path keytool, List<String> addresses) {
    Path dir = clusterDir.resolve(DIR);
    if (exist(clusterDir)) {
      return load(clusterDir);
    }
    try {
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + dir, e);
    }
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    String pw = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    ClusterTls tls = new ClusterTls(dir, pw);
    tls.make(keytool, addresses);
    try {
      Path f = dir.resolve("password");
      Files.createFile(
          f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(f, pw + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tls;
  }

  /** The material in {@code clusterDir}; a one-line error when it is gone. */
  public static ClusterTls load(Path clusterDir) {
    Path dir = clusterDir.resolve(DIR);
    try {
      String pw = Files.readString(dir.resolve("password")).strip();
      return new ClusterTls(dir, pw);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot read the cluster's TLS password "
              + dir.resolve("password")
              + ": without it solrscale cannot talk to its nodes; run down --purge and up again");
    }
  }

  public Path nodeKeystore() {
    return dir.resolve("node.p12");
  }

  public Path truststore() {
    return dir.resolve("truststore.p12");
  }

  /** The stores' password, only for a child process's environment or stdin, never argv. */
  public String secretForEnvironment() {
    return password;
  }

  private void make(Path keytool, List<String> addresses) {
    Set<String> sans = new LinkedHashSet<>(List.of("ip:127.0.0.1", "dns:localhost"));
    for (String a : addresses) {
      sans.add((a.matches("[0-9.]+") || a.contains(":") ? "ip:" : "dns:") + a);
    }
    String ca = dir.resolve("ca.p12").toString();
    String node = nodeKeystore().toString();
    String caPem = dir.resolve("ca.pem").toString();
    String csr = dir.resolve("node.csr").toString();
    String nodePem = dir.resolve("node.pem").toString();
    run(
        keytool,
        "-genkeypair",
        "-alias",
        "ca",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-sigalg",
        "SHA256withECDSA",
        "-dname",
        "CN=solrscale lab CA",
        "-ext",
        "bc:c",
        "-ext",
        "ku:c=keyCertSign,cRLSign",
        "-validity",
        "3650",
        "-keystore",
        ca,
        "-storetype",
        "PKCS12");
    run(keytool, "-exportcert", "-rfc", "-alias", "ca", "-keystore", ca, "-file", caPem);
    run(
        keytool,
        "-genkeypair",
        "-alias",
        "node",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-sigalg",
        "SHA256withECDSA",
        "-dname",
        "CN=solrscale node",
        "-validity",
        "825",
        "-keystore",
        node,
        "-storetype",
        "PKCS12");
    run(keytool, "-certreq", "-alias", "node", "-keystore", node, "-file", csr);
    run(
        keytool,
        "-gencert",
        "-alias",
        "ca",
        "-keystore",
        ca,
        "-infile",
        csr,
        "-outfile",
        nodePem,
        "-rfc",
        "-validity",
        "825",
        "-ext",
        "san=" + String.join(",", sans),
        "-ext",
        "ku:c=digitalSignature",
        "-ext",
        "eku=serverAuth,clientAuth");
    run(keytool, "-importcert", "-noprompt", "-alias", "ca", "-file", caPem, "-keystore", node);
    run(keytool, "-importcert", "-alias", "node", "-file", nodePem, "-keystore", node);
    run(keytool, "-delete", "-alias", "ca", "-keystore", node);
    run(
        keytool,
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-file",
        caPem,
        "-keystore",
        truststore().toString(),
        "-storetype",
        "PKCS12",
        // a trust store holds nothing secret: readable without a password, by any client
        "-J-Dkeystore.pkcs12.certProtectionAlgorithm=NONE",
        "-J-Dkeystore.pkcs12.macAlgorithm=NONE");
    for (String f : List.of(csr, nodePem)) {
      try {
        Files.deleteIfExists(Path.of(f));
      } catch (IOException ignored) {
        // a leftover request or copy of the public certificate: nothing secret
      }
    }
  }

  private void run(Path keytool, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(keytool.toString());
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storepass:env", PASSWORD_ENV));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put(PASSWORD_ENV, password);
    try {
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw SolrscaleException.failed("keytool " + args[0] + " did not finish in 60 s");
      }
      if (p.exitValue() != 0) {
        throw SolrscaleException.failed(
            "keytool " + args[0] + " failed: " + out.strip().replaceAll("\\s+", " "));
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot run " + keytool + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while making the cluster's certificates");
    }
  }
}
