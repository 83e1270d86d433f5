package org.solrscale.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.solrscale.spec.SolrscaleException;

/**
 * The users of a cluster solrscale started with BasicAuth: an admin, allowed everything, and a
 * reader, allowed to query and to read status, metrics, configs and schemas. Their passwords are
 * generated once, at the cluster's first {@code up}, and kept in one file readable by its owner
 * only (mode 0600, created so, never widened); Solr gets only salted hashes, in security.json.
 */
public final class ClusterCredentials {
  public static final String ADMIN = "admin";
  public static final String READER = "reader";
  private static final String FILE = "credentials";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The permissions the reader role gets (Solr's predefined names), besides queries ("read"). */
  static final List<String> READER_PERMISSIONS =
      List.of(
          "read",
          "health",
          "metrics-read",
          "collection-admin-read",
          "core-admin-read",
          "config-read",
          "schema-read");

  private final Map<String, String> passwords;

  private ClusterCredentials(Map<String, String> passwords) {
    this.passwords = passwords;
  }

  /** The credentials file of cluster directory {@code clusterDir}. */
  public static Path file(Path clusterDir) {
    return clusterDir.resolve(FILE);
  }

  /** Whether {@code clusterDir} holds credentials (its cluster was started with BasicAuth). */
  public static boolean exist(Path clusterDir) {
    return Files.exists(file(clusterDir));
  }

  /**
   * The cluster's credentials: read from its file, or generated and written there (mode 0600) when
   * there is none yet.
   */
  public static ClusterCredentials ensure(Path clusterDir) {
    Path f = file(clusterDir);
    if (Files.exists(f)) {
      return load(clusterDir);
    }
    Map<String, String> generated = new LinkedHashMap<>();
    generated.put(ADMIN, generatePassword());
    generated.put(READER, generatePassword());
    StringBuilder text =
        new StringBuilder(
            "# BasicAuth users of this solrscale cluster; keep this file private (mode 0600)\n");
    generated.forEach((u, p) -> text.append(u).append('=').append(p).append('\n'));
    try {
      Files.createDirectories(clusterDir);
      Files.createFile(
          f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(f, text);
    } catch (FileAlreadyExistsException raced) {
      return load(clusterDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + f, e);
    }
    return new ClusterCredentials(generated);
  }

  /** The credentials in {@code clusterDir}'s file; a one-line error when it is gone or broken. */
  public static ClusterCredentials load(Path clusterDir) {
    Path f = file(clusterDir);
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot read the cluster's credentials "
              + f
              + " ("
              + e.getMessage()
              + "): without them solrscale cannot talk to its Solr nodes; run down --purge and up"
              + " again");
    }
    Map<String, String> passwords = new LinkedHashMap<>();
    for (String u : List.of(ADMIN, READER)) {
      String pw = p.getProperty(u);
      if (pw == null || pw.isBlank()) {
        throw SolrscaleException.environment(
            "the cluster's credentials " + f + " have no password for user '" + u + "'");
      }
      passwords.put(u, pw.trim());
    }
    return new ClusterCredentials(passwords);
  }

  /** Access as {@code user} (admin or reader); a one-line error for any other. */
  public Access access(String user) {
    String pw = passwords.get(user);
    if (pw == null) {
      throw SolrscaleException.usage(
          "this cluster has the users "
              + String.join(" and ", passwords.keySet())
              + ", not '"
              + user
              + "'; give --user "
              + ADMIN
              + " or --user "
              + READER);
    }
    return Access.basic(user, pw);
  }

  /**
   * Solr's security.json for these users: BasicAuth for every request (blockUnknown) and rule-based
   * authorization, the reader limited to {@link #READER_PERMISSIONS}.
   */
  public String securityJson() {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode authn = root.putObject("authentication");
    authn.put("class", "solr.BasicAuthPlugin");
    authn.put("blockUnknown", true);
    authn.put("forwardCredentials", false);
    ObjectNode creds = authn.putObject("credentials");
    passwords.forEach((u, p) -> creds.put(u, hashed(p)));
    ObjectNode authz = root.putObject("authorization");
    authz.put("class", "solr.RuleBasedAuthorizationPlugin");
    ArrayNode perms = authz.putArray("permissions");
    for (String name : READER_PERMISSIONS) {
      ObjectNode perm = perms.addObject();
      perm.put("name", name);
      perm.putArray("role").add(ADMIN).add(READER);
    }
    perms.addObject().put("name", "all").put("role", ADMIN);
    ObjectNode roles = authz.putObject("user-role");
    roles.put(ADMIN, ADMIN);
    roles.put(READER, READER);
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The form Solr's Sha256AuthenticationProvider checks: base64(sha256(sha256(salt, password))) and
   * the base64 salt, separated by a space.
   */
  static String hashed(String password) {
    byte[] salt = new byte[32];
    new SecureRandom().nextBytes(salt);
    return hash(password, salt) + " " + Base64.getEncoder().encodeToString(salt);
  }

  static String hash(String password, byte[] salt) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(salt);
      byte[] once = d.digest(password.getBytes(StandardCharsets.UTF_8));
      d.reset();
      return Base64.getEncoder().encodeToString(d.digest(once));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** 24 random bytes, URL-safe base64 (32 characters): no quoting needed anywhere. */
  private static String generatePassword() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
