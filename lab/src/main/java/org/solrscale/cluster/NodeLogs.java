package org.solrscale.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** A node's log files: which they are, their last lines, and new lines as they are written. */
public final class NodeLogs {
  private static final int BLOCK = 8192;

  private NodeLogs() {}

  /** The node's own log: solr.log or zookeeper.log in its logs directory. */
  public static Path main(Path nodeDir, NodeState node) {
    return nodeDir.resolve("logs").resolve(node.isZk() ? "zookeeper.log" : "solr.log");
  }

  /** What the node's JVM printed: startup failures, crashes, GC warnings. */
  public static Path console(Path nodeDir) {
    return nodeDir.resolve("logs").resolve("console.log");
  }

  /** The last {@code lines} lines of a file (fewer when it is shorter, none when it is missing). */
  public static List<String> tail(Path file, int lines) {
    if (lines <= 0 || !Files.isRegularFile(file)) {
      return List.of();
    }
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      long size = ch.size();
      long start = 0;
      int newlines = 0;
      ByteBuffer buf = ByteBuffer.allocate(BLOCK);
      search:
      for (long pos = size; pos > 0; ) {
        int n = (int) Math.min(BLOCK, pos);
        pos -= n;
        read(ch, buf, pos, n);
        for (int i = n - 1; i >= 0; i--) {
          // the newline that ends the last line starts no line
          if (buf.get(i) == '\n' && pos + i != size - 1 && ++newlines == lines) {
            start = pos + i + 1;
            break search;
          }
        }
      }
      ByteBuffer rest = ByteBuffer.allocate((int) (size - start));
      read(ch, rest, start, rest.capacity());
      return lines(new String(rest.array(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return List.of(); // a log that cannot be read shows nothing; the caller names the file
    }
  }

  private static void read(SeekableByteChannel ch, ByteBuffer buf, long pos, int n)
      throws IOException {
    buf.clear().limit(n);
    ch.position(pos);
    while (buf.hasRemaining() && ch.read(buf) >= 0) {
      // read until the block is full
    }
  }

  private static List<String> lines(String text) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\r?\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  /**
   * Solr's reason for a core of {@code collection} it could not create ("Unknown fieldType ..."),
   * from the last such "Caused by:" in the last lines of a Solr node's log.
   */
  public static Optional<String> coreCreationCause(Path solrLog, String collection) {
    List<String> lines = tail(solrLog, 5000);
    for (int i = lines.size() - 1; i >= 0; i--) {
      String l = lines.get(i);
      int cause = l.lastIndexOf("Caused by: ");
      // the overseer's copy of a node's answer ("response=...}") ends in its map's brace
      if (cause >= 0 && l.contains("'" + collection + "_") && !l.contains("response=")) {
        return Optional.of(l.substring(cause + "Caused by: ".length()).strip());
      }
    }
    return Optional.empty();
  }

  /**
   * Hands each line appended to the files (keyed by a label) to {@code out}, from their current
   * ends, until the thread is interrupted. A file that was rotated (Solr's log is on every start)
   * or truncated is read again from its start.
   */
  public static void follow(Map<String, Path> files, BiConsumer<String, String> out) {
    Map<String, Position> at = new LinkedHashMap<>();
    files.forEach((label, f) -> at.put(label, Position.atEnd(f)));
    try {
      while (!Thread.currentThread().isInterrupted()) {
        at.forEach((label, p) -> p.readNew(files.get(label), line -> out.accept(label, line)));
        Thread.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** How far a followed file was read: its identity, the offset, and a line not yet ended. */
  private static final class Position {
    private Object fileKey;
    private long offset;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

    static Position atEnd(Path f) {
      Position p = new Position();
      try {
        p.fileKey = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
        p.offset = Files.size(f);
      } catch (IOException e) {
        p.offset = 0; // not there yet: whatever it will hold is new
      }
      return p;
    }

    void readNew(Path f, Consumer<String> out) {
      try (SeekableByteChannel ch = Files.newByteChannel(f)) {
        Object key = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
        if (!Objects.equals(key, fileKey) || ch.size() < offset) {
          fileKey = key; // a new file under the name
          offset = 0;
          partial.reset();
        }
        ByteBuffer buf = ByteBuffer.allocate(BLOCK);
        ch.position(offset);
        for (int n; (n = ch.read(buf)) > 0; buf.clear()) {
          offset += n;
          for (int i = 0; i < n; i++) {
            byte b = buf.get(i);
            if (b == '\n') {
              out.accept(
                  new String(partial.toByteArray(), StandardCharsets.UTF_8).replaceAll("\r$", ""));
              partial.reset();
            } else {
              partial.write(b);
            }
          }
        }
      } catch (IOException e) {
        // not there (yet, or between a rotation's rename and the new file): try again next time
      }
    }
  }
}
