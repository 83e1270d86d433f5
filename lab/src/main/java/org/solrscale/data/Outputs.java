package org.solrscale.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.solrscale.spec.SolrscaleException;

/**
 * Output files that exist whole or not at all: a run that fails half way (a truncated input, a
 * full disk) leaves no partial file that could be taken for a result.
 */
final class Outputs {
  private Outputs() {}

  /** Something that writes one file at the path it is given. */
  interface Writing {
    void to(Path file) throws IOException;
  }

  /**
   * Writes {@code target} under a hidden name beside it (same extension, so gzip is still chosen by
   * name) and moves it into place only when complete; on failure the partial file is deleted and
   * an older {@code target} is left as it was.
   */
  static void whole(Path named, Writing writing) throws IOException {
    Path target = named;
    if (Files.isDirectory(target)) {
      throw SolrscaleException.usage(named + " is a directory: give a file name for the output");
    }
    if (Files.exists(target)) {
      Path real = target.toRealPath(); // a link is written through, never replaced by a file
      if (!Files.isRegularFile(real)) { // /dev/stdout, a FIFO, a device: written straight into
        writing.to(target);
        return;
      }
      target = real;
    }
    Path tmp = target.resolveSibling(".partial-" + ProcessHandle.current().pid() + "-"
        + target.getFileName());
    boolean done = false;
    try {
      try {
        writing.to(tmp);
      } catch (SolrscaleException e) { // about the file the user named, not the hidden one
        throw new SolrscaleException(e.exitCode(),
            e.getMessage().replace(tmp.toString(), named.toString()), e);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      done = true;
    } finally {
      if (!done) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) { // never created (its directory is not one): the first error tells
          // nothing to remove
        }
      }
    }
  }

  /**
   * Runs a multi-file write (split's parts); if it fails, deletes the files it wrote, whose list
   * it fills as it goes, and says so in the error.
   */
  static <T> T allOrNone(List<String> written, java.util.function.Supplier<T> work) {
    try {
      return work.get();
    } catch (SolrscaleException e) {
      int removed = 0;
      for (String f : List.copyOf(written)) {
        try {
          removed += Files.deleteIfExists(Path.of(f)) ? 1 : 0;
        } catch (IOException ignored) {
          // reported below as not removed
        }
      }
      throw new SolrscaleException(e.exitCode(), e.getMessage() + (written.isEmpty() ? ""
          : " (the " + removed + " of " + written.size() + " parts written were removed)"), e);
    }
  }
}
