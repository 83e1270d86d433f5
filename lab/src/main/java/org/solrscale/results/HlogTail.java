package org.solrscale.results;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Follows an HdrHistogram interval log while it is written: each {@link #poll} reads the lines
 * completed since the last one (a line still being written waits for the next poll) and returns
 * them as entries, interval histograms with their wall-clock times, and comments. HdrHistogram's
 * own reader reads a whole file at once; this keeps its place.
 */
public final class HlogTail {
  /** One line of the log: an interval histogram (with its tag) or a comment (histogram null). */
  public record Entry(String tag, long startMs, long endMs, Histogram histogram, String comment) {}

  private final LineTail lines;
  private double startTimeSec = -1;
  private double baseTimeSec = -1;

  public HlogTail(Path file) {
    this.lines = file == null ? null : new LineTail(file);
  }

  /** A reader of lines given one by one ({@link #parse}), in the log's order; no file. */
  public static HlogTail parser() {
    return new HlogTail(null);
  }

  /** The entries completed since the last poll; none when the file is missing or unchanged. */
  public List<Entry> poll() throws IOException {
    List<Entry> out = new ArrayList<>();
    for (String line : lines.poll()) {
      Entry e = parse(line);
      if (e != null) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * One line of the log, read in order (the start and base time lines set how later times are
   * read): an entry, or null for a header line or one this reader does not know.
   */
  public Entry parse(String line) {
    if (line.isEmpty() || line.startsWith("\"")) { // the legend
      return null;
    }
    if (line.startsWith("#[StartTime: ")) {
      startTimeSec = leadingNumber(line.substring(13));
      return null;
    }
    if (line.startsWith("#[BaseTime: ")) {
      baseTimeSec = leadingNumber(line.substring(12));
      return null;
    }
    if (line.startsWith("#")) {
      return new Entry(null, 0, 0, null, line.substring(1));
    }
    String[] f = line.split(",");
    int k = 0;
    String tag = null;
    if (f[0].startsWith("Tag=")) {
      tag = f[0].substring(4);
      k = 1;
    }
    if (f.length != k + 4) {
      return null; // not a line this reader knows: skipped, as HdrHistogram's reader would fail
    }
    try {
      double start = Double.parseDouble(f[k]);
      double length = Double.parseDouble(f[k + 1]);
      // as HdrHistogram's reader: times are from the base time, or absolute, or (no base time)
      // from the start time when they are too small to be absolute
      double base = baseTimeSec >= 0 ? baseTimeSec : start < 365.25 * 24 * 3600 ? startTimeSec : 0;
      Histogram h =
          Histogram.decodeFromCompressedByteBuffer(
              ByteBuffer.wrap(Base64.getDecoder().decode(f[k + 3])), 0);
      long startMs = Math.round((Math.max(0, base) + start) * 1000);
      return new Entry(tag, startMs, startMs + Math.round(length * 1000), h, null);
    } catch (DataFormatException | IllegalArgumentException e) {
      return null;
    }
  }

  private static double leadingNumber(String s) {
    int end = 0;
    while (end < s.length() && (Character.isDigit(s.charAt(end)) || s.charAt(end) == '.')) {
      end++;
    }
    try {
      return Double.parseDouble(s.substring(0, end));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
