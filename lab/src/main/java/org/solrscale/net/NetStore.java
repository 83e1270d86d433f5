package org.solrscale.net;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/** Reads and writes lab networks' state files: $SOLRSCALE_HOME/nets/NET/net.json. */
final class NetStore {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private NetStore() {}

  static Optional<NetState> find(SolrscaleHome home, String name) {
    Path f = NetFiles.state(home, name);
    if (!Files.isRegularFile(f)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(f.toFile(), NetState.class));
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "lab network state "
              + f
              + " is unreadable ("
              + e.getMessage()
              + "); remove its namespaces and that directory by hand");
    }
  }

  /** Every net with a state file, by name. */
  static List<NetState> all(SolrscaleHome home) {
    List<NetState> result = new ArrayList<>();
    Path nets = NetFiles.nets(home);
    if (!Files.isDirectory(nets)) {
      return result;
    }
    try (Stream<Path> dirs = Files.list(nets)) {
      for (Path d : dirs.sorted().toList()) {
        try {
          find(home, d.getFileName().toString()).ifPresent(result::add);
        } catch (SolrscaleException e) {
          // an unreadable neighbour must not hide the others
        }
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot list " + nets + ": " + e.getMessage());
    }
    return result;
  }

  /** Writes the state atomically (a reader sees the old file or the new one). */
  static void save(SolrscaleHome home, NetState state) {
    Path f = NetFiles.state(home, state.name());
    try {
      Files.createDirectories(f.getParent());
      Path tmp = f.resolveSibling("net.json.tmp");
      JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), state);
      Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write the state of lab network " + state.name() + ": " + e.getMessage());
    }
  }

  /** Writes {@code text} to {@code file} atomically. */
  static void writeAtomically(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, text);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }

  /**
   * Keeps other solrscale processes from changing this home's lab networks meanwhile, so that two
   * never pick the same subnet or take down what the other brings up.
   */
  static Lock lock(SolrscaleHome home) {
    Path f = NetFiles.lock(home);
    try {
      Files.createDirectories(f.getParent());
      FileChannel channel =
          FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.lock();
      return () -> {
        try {
          lock.release();
          channel.close();
        } catch (IOException e) {
          // closing the channel releases the lock; the process exiting does too
        }
      };
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot lock " + f + ": " + e.getMessage());
    }
  }

  /** A held lock; closing it lets the next solrscale process go on. */
  interface Lock extends AutoCloseable {
    @Override
    void close();
  }
}
