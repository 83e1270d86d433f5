package org.solrscale.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.solrscale.spec.SolrscaleException;

/** Directory trees solrscale made and removes again. */
public final class FileTrees {
  private FileTrees() {}

  /**
   * Deletes a directory tree (symbolic links in it are deleted, not followed); one that is not
   * there is fine.
   */
  public static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot delete " + dir + ": " + e.getMessage());
    }
  }
}
