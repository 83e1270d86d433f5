package org.solrscale.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.spec.SolrscaleException;

/**
 * SHA-256 digests of what is put on hosts once by content: a runtime's jars (computed once and kept
 * beside them in content.sha256) and single files.
 */
final class ContentDigest {
  private ContentDigest() {}

  static String of(SolrRuntime runtime) {
    Path cached = runtime.dir().resolve("content.sha256");
    try {
      if (Files.exists(cached)
          && Files.getLastModifiedTime(cached)
                  .compareTo(Files.getLastModifiedTime(runtime.dir().resolve("lib")))
              >= 0) {
        return Files.readString(cached).strip();
      }
      MessageDigest all = MessageDigest.getInstance("SHA-256");
      List<Path> jars = runtime.classpath().stream().sorted().toList();
      for (Path jar : jars) {
        all.update(jar.getFileName().toString().getBytes(StandardCharsets.UTF_8));
        all.update(HexFormat.of().parseHex(ofFile(jar)));
      }
      String digest = HexFormat.of().formatHex(all.digest()).substring(0, 32);
      Files.writeString(cached, digest + "\n");
      return digest;
    } catch (IOException | NoSuchAlgorithmException e) {
      throw SolrscaleException.environment(
          "cannot digest the runtime in " + runtime.dir() + ": " + e.getMessage());
    }
  }

  static String ofFile(Path file) {
    try (InputStream in =
        new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
      in.transferTo(OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
    } catch (IOException | NoSuchAlgorithmException e) {
      throw SolrscaleException.environment("cannot read " + file + ": " + e.getMessage());
    }
  }
}
