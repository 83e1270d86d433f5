package org.solrscale.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.solrscale.spec.SolrscaleException;

/**
 * The node launcher jar embedded in solrscale, extracted once per build into $SOLRSCALE_HOME/lib.
 */
public final class NodeJar {
  private NodeJar() {}

  /**
   * Extracts the launcher jar at {@code resource} (a {@link Launcher}'s) once into the home's lib.
   */
  public static Path extract(SolrscaleHome home, String resource) {
    byte[] bytes;
    try (InputStream in = NodeJar.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw SolrscaleException.environment(
            "this solrscale build lacks its node launcher ("
                + resource
                + "); rebuild with mvn -B package");
      }
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot read the embedded node launcher: " + e.getMessage());
    }
    Path target = home.lib().resolve("solrscale-node-" + sha256(bytes).substring(0, 16) + ".jar");
    if (Files.isRegularFile(target)) {
      return target;
    }
    try {
      Files.createDirectories(target.getParent());
      Path tmp = Files.createTempFile(target.getParent(), "node", ".jar.tmp");
      Files.write(tmp, bytes);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + target + ": " + e.getMessage());
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
