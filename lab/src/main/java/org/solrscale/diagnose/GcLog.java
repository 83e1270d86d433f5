package org.solrscale.diagnose;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.solrscale.spec.SolrscaleException;

/**
 * The pauses in a node's GC log as solrscale writes it ({@code -Xlog:gc*:file=...:time,uptime},
 * rotated as solr_gc.log, solr_gc.log.0, ...): when each ended and the heap before and after it,
 * for an allocation estimate independent of the flight recording.
 */
final class GcLog {
  private static final Pattern PAUSE =
      Pattern.compile(
          "^\\[([^\\]]+)\\]\\[[^\\]]*\\] GC\\((\\d+)\\) Pause .*? (\\d+)([KMG])->(\\d+)([KMG])\\(\\d+[KMG]\\) ([0-9.]+)ms$");
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

  /** One pause: when it ended, heap before and after it (bytes), how long it took. */
  record Pause(Instant end, long before, long after, double ms) {}

  private GcLog() {}

  /** Pauses from every file of the log in {@code logs} (named {@code name}*), in time order. */
  static List<Pause> read(Path logs, String name) {
    List<Pause> out = new ArrayList<>();
    if (!Files.isDirectory(logs)) {
      return out;
    }
    try (Stream<Path> files = Files.list(logs)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith(name)).toList()) {
        try (Stream<String> lines = Files.lines(f)) {
          lines.map(GcLog::parse).filter(p -> p != null).forEach(out::add);
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      throw SolrscaleException.environment("cannot read the GC log in " + logs + ": " + e);
    }
    out.sort(Comparator.comparing(Pause::end));
    return out;
  }

  /** A pause line, or null for any other line. */
  static Pause parse(String line) {
    Matcher m = PAUSE.matcher(line);
    if (!m.matches()) {
      return null;
    }
    try {
      // the line is written as the pause ends
      return new Pause(
          OffsetDateTime.parse(m.group(1), TIME).toInstant(),
          bytes(m.group(3), m.group(4)),
          bytes(m.group(5), m.group(6)),
          Double.parseDouble(m.group(7)));
    } catch (DateTimeParseException | NumberFormatException e) {
      return null;
    }
  }

  private static long bytes(String n, String unit) {
    long v = Long.parseLong(n);
    return switch (unit) {
      case "K" -> v << 10;
      case "M" -> v << 20;
      default -> v << 30;
    };
  }
}
