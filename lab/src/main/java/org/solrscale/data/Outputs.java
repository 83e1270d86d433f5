package org.solrscale.data;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.solrscale.spec.SolrscaleException;

/**
 * Output files that exist whole or not at all: a run that fails half way (a truncated input, a full
 * disk) or is stopped (Ctrl-C, SIGTERM) leaves no partial file that could be taken for a result.
 * Files being written are registered; a shutdown hook removes those not finished, and then refuses
 * to create more (a writer thread goes on while the hooks run).
 */
final class Outputs {
  private Outputs() {}

  private static final Object LOCK = new Object();

  /** Files being written, and directories created for them, to remove at shutdown. */
  private static final Set<Path> UNFINISHED = new LinkedHashSet<>();

  private static final Set<Path> NEW_DIRS = new LinkedHashSet<>();
  private static boolean hooked;
  private static boolean stopping;

  /** What a write started while the JVM shuts down gets instead. */
  static final String STOPPED = "stopped (interrupted) before it was written";

  /**
   * Creates {@code file} with {@code open} (which must create it) and registers it for removal
   * should the JVM stop before {@link #finished} is called for it.
   */
  static <T> T opening(Path file, IOSupplier<T> open) throws IOException {
    synchronized (LOCK) {
      if (stopping) {
        throw new IOException(STOPPED);
      }
      if (!hooked) {
        Runtime.getRuntime().addShutdownHook(new Thread(Outputs::removeUnfinished, "outputs"));
        hooked = true;
      }
      T opened = open.get();
      UNFINISHED.add(file);
      return opened;
    }
  }

  /**
   * Opens a file for writing; one registered by {@link #opening} (a temporary file of {@link
   * #whole}) is opened without creating it: once the shutdown hook has removed it, it must stay
   * removed, not come back when the writing thread opens it.
   */
  static OutputStream newOutputStream(Path file) throws IOException {
    synchronized (LOCK) {
      if (stopping) {
        throw new IOException(STOPPED);
      }
      return UNFINISHED.contains(file)
          ? Files.newOutputStream(
              file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)
          : Files.newOutputStream(file);
    }
  }

  /** {@code file} is complete (or removed): it stays at shutdown. */
  static void finished(Path file) {
    synchronized (LOCK) {
      UNFINISHED.remove(file);
    }
  }

  /** Something that opens a file. */
  interface IOSupplier<T> {
    T get() throws IOException;
  }

  private static void removeUnfinished() {
    synchronized (LOCK) {
      stopping = true;
      for (Path f : UNFINISHED) {
        try {
          Files.deleteIfExists(f);
        } catch (IOException e) {
          System.err.println("could not remove the unfinished " + f + ": " + Corpus.why(e));
        }
      }
      NEW_DIRS.forEach(Outputs::removeIfEmpty);
    }
  }

  private static void removeIfEmpty(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) { // not empty (someone else's files): kept
      // nothing to say: the directory holds what it held
    }
  }

  /** Something that writes one file at the path it is given. */
  interface Writing {
    void to(Path file) throws IOException;
  }

  /**
   * Writes {@code target} under a hidden name beside it (same extension, so gzip is still chosen by
   * name) and moves it into place only when complete; on failure the partial file is deleted and an
   * older {@code target} is left as it was.
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
    Path tmp =
        target.resolveSibling(
            ".partial-" + ProcessHandle.current().pid() + "-" + target.getFileName());
    boolean done = false;
    try {
      try {
        opening(tmp, () -> Files.newOutputStream(tmp)).close();
        writing.to(tmp);
      } catch (SolrscaleException e) { // about the file the user named, not the hidden one
        throw new SolrscaleException(
            e.exitCode(), e.getMessage().replace(tmp.toString(), named.toString()), e);
      } catch (IOException e) {
        throw new IOException(Corpus.why(e).replace(tmp.toString(), named.toString()), e);
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
      finished(tmp);
    }
  }

  /**
   * Runs a multi-file write (split's parts, each created through {@link #opening}) into {@code
   * dir}; if it fails, deletes the files it wrote, whose list it fills as it goes, and says so in
   * the error, and removes {@code dir} if this run created it.
   */
  static <T> T allOrNone(Path dir, List<String> written, Supplier<T> work) {
    List<Path> newDirs = new ArrayList<>(); // dir and the parents made for it, deepest first
    for (Path p = dir.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
      newDirs.add(p);
    }
    synchronized (LOCK) {
      NEW_DIRS.addAll(newDirs);
    }
    boolean ok = false;
    int removed = -1;
    try {
      T result = work.get();
      ok = true;
      return result;
    } catch (SolrscaleException e) {
      removed = remove(written, newDirs);
      throw new SolrscaleException(
          e.exitCode(),
          e.getMessage()
              + (written.isEmpty()
                  ? ""
                  : " (the " + removed + " of " + written.size() + " parts written were removed)"),
          e);
    } finally {
      if (!ok && removed < 0) { // any other failure (a bug, out of memory) leaves no parts either
        remove(written, newDirs);
      }
      synchronized (LOCK) {
        NEW_DIRS.removeAll(newDirs);
        written.forEach(f -> UNFINISHED.remove(Path.of(f)));
      }
    }
  }

  /** Deletes the files written and the directories made for them; how many files it deleted. */
  private static int remove(List<String> written, List<Path> newDirs) {
    int removed = 0;
    for (String f : List.copyOf(written)) {
      try {
        removed += Files.deleteIfExists(Path.of(f)) ? 1 : 0;
      } catch (IOException ignored) {
        // reported by the caller as not removed
      }
    }
    newDirs.forEach(Outputs::removeIfEmpty);
    return removed;
  }
}
