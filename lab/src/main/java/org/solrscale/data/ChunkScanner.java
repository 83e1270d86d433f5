package org.solrscale.data;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Finds the byte ranges of documents in a stream without decoding them: the XML reader parses each
 * range, raw split copies it. The buffer holds the current document whole (it grows for a document
 * larger than itself) and the bytes before it are dropped as the scan moves on.
 */
abstract class ChunkScanner implements Closeable {
  private final InputStream in;
  protected byte[] buf;

  /** Valid bytes in {@code buf}. */
  protected int limit;

  /** Where the scan goes on. */
  protected int pos;

  /** Start of the current document: bytes from here on are kept when the buffer is refilled. */
  protected int start;

  /** End (exclusive) of the document just found. */
  protected int end;

  /** Why the range just found is not a document, or null. */
  protected String error;

  /**
   * Whether only white space lies between the previous document's end and this one's start, so raw
   * split may copy both, and what lies between them, as one range.
   */
  protected boolean contiguous;

  /**
   * Where the problem of an error range starts when its bytes were not kept (a section not closed
   * before the end, which is not held in memory): a stream offset and line, or -1 for {@link
   * #start}.
   */
  protected long errorOffset = -1;

  protected long errorLine = -1;
  private boolean eof;

  /** Stream offset of {@code buf[0]}. */
  private long base;

  /** The line number of {@code buf[lineIndex]}. */
  private long line = 1;

  private int lineIndex;

  /** Off when the caller finds lines afterwards ({@link #linesAt}): saves a pass over the bytes. */
  private boolean countLines = true;

  ChunkScanner(InputStream in, int bufferSize) {
    this.in = in;
    this.buf = new byte[bufferSize];
  }

  /**
   * Finds the next document: true with {@link #start}/{@link #end} (and {@link #error} when the
   * range is not a well-delimited document), false at the end of the input.
   */
  abstract boolean next() throws IOException;

  /**
   * Reads more input, dropping the bytes before {@code min(start, pos)}; false when the input is
   * exhausted and nothing was added.
   */
  protected final boolean refill() throws IOException {
    if (eof) {
      return false;
    }
    int keep = Math.min(start, pos);
    if (keep > 0) {
      if (countLines) {
        lineAt(keep);
      }
      System.arraycopy(buf, keep, buf, 0, limit - keep);
      limit -= keep;
      pos -= keep;
      start -= keep;
      end = Math.max(0, end - keep);
      lineIndex -= keep;
      base += keep;
    }
    if (limit == buf.length) {
      buf = Arrays.copyOf(buf, buf.length * 2);
    }
    int n = in.read(buf, limit, buf.length - limit);
    if (n < 0) {
      eof = true;
      return false;
    }
    limit += n;
    return true;
  }

  /** Makes at least {@code n} bytes from {@code at} available if the input has them; may shift. */
  protected final boolean have(int n) throws IOException {
    while (pos + n > limit) {
      if (!refill()) {
        return false;
      }
    }
    return true;
  }

  /** The stream offset where the range just found (its problem, if any) starts. */
  final long problemOffset() {
    return errorOffset >= 0 ? errorOffset : offset(start);
  }

  /** The line where the range just found (its problem, if any) starts. */
  final long problemLine() {
    return errorLine >= 0 ? errorLine : lineAt(start);
  }

  protected final boolean countsLines() {
    return countLines;
  }

  /** Stops counting lines: {@link #lineAt} is then not available. */
  final void withoutLines() {
    countLines = false;
  }

  /**
   * The line numbers of the given (ascending) byte offsets of a file, in one pass. Lines end at
   * {@code \n}, {@code \r\n} and {@code \r} alone, as every reader counts them.
   */
  static long[] linesAt(Path file, long[] offsets) throws IOException {
    long[] lines = new long[offsets.length];
    byte[] b = new byte[1 << 16];
    try (InputStream in = Corpus.input(file, new AtomicLong())) {
      long at = 0;
      long line = 1;
      boolean afterCr = false; // the byte before b[0] was '\r'
      int k = 0;
      int n;
      while (k < offsets.length && (n = in.read(b)) > 0) {
        while (k < offsets.length && offsets[k] < at + n) {
          lines[k] = line + lineEnds(b, (int) (offsets[k] - at), afterCr);
          k++;
        }
        line += lineEnds(b, n, afterCr);
        afterCr = b[n - 1] == '\r';
        at += n;
      }
    }
    return lines;
  }

  /**
   * The line ends in {@code b[0, to)}: its line feeds and carriage returns, a {@code \r\n} (also
   * one whose {@code \r} ended the previous read) counting once.
   */
  static long lineEnds(byte[] b, int to, boolean afterCr) {
    long n = Bytes.count(b, 0, to, (byte) '\n');
    if (afterCr && to > 0 && b[0] == '\n') {
      n--;
    }
    for (int r = Bytes.indexOf(b, 0, to, (byte) '\r');
        r >= 0;
        r = Bytes.indexOf(b, r + 1, to, (byte) '\r')) {
      n += r + 1 < to && b[r + 1] == '\n' ? 0 : 1; // a \r\n's line feed is counted already
    }
    return n;
  }

  /** The line number of {@code buf[index]}; indexes must not go backwards between calls. */
  final long lineAt(int index) {
    if (!countLines) {
      throw new IllegalStateException("lines are not counted");
    }
    if (index > lineIndex) {
      // lines end at '\n', '\r\n' and '\r' alone, as the JSON Lines and CSV readers count them
      line += Bytes.count(buf, lineIndex, index, (byte) '\n');
      if (crBefore && buf[lineIndex] == '\n') {
        line--; // the '\r' before it was counted
      }
      for (int r = lineCrs.first(lineIndex, index); r >= 0; r = lineCrs.first(r + 1, index)) {
        line += r + 1 < index && buf[r + 1] == '\n' ? 0 : 1; // a '\r\n''s line feed is counted
      }
      crBefore = buf[index - 1] == '\r';
      lineIndex = index;
    }
    return line;
  }

  /** Whether the byte before {@link #lineIndex} is a '\r' (counted as a line end). */
  private boolean crBefore;

  private final CarriageReturns lineCrs = new CarriageReturns();

  /**
   * Finds the '\r's of the buffer for one reader of it whose {@code from} never goes back: one
   * search per buffer for a file without any, not one per line or document.
   */
  protected final class CarriageReturns {
    /**
     * The stream offset of the first '\r' at or after the last look's start, or -1 if there is none
     * before {@link #to}.
     */
    private long cr = -1;

    private long to;

    /** The index of the first '\r' in {@code buf[from, until)}, or -1. */
    int first(int from, int until) {
      long f = offset(from);
      if (cr >= 0 && cr < f) { // passed: look again from here
        cr = -1;
        to = f;
      }
      long end = offset(limit);
      if (cr < 0 && Math.max(f, to) < end) { // what was read since the last look
        int k = Bytes.indexOf(buf, index(Math.max(f, to)), limit, (byte) '\r');
        cr = k < 0 ? -1 : offset(k);
        to = end;
      }
      return cr >= 0 && cr < offset(until) ? index(cr) : -1;
    }
  }

  /** Whether {@code buf[k, k + 3)} is UTF-8's byte order mark. */
  protected final boolean isByteOrderMark(int k) {
    return k + 3 <= limit
        && buf[k] == (byte) 0xEF
        && buf[k + 1] == (byte) 0xBB
        && buf[k + 2] == (byte) 0xBF;
  }

  /** Whether {@code buf[from, to)} is white space only. */
  protected final boolean blank(int from, int to) {
    for (int k = from; k < to; k++) {
      byte c = buf[k];
      if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
        return false;
      }
    }
    return true;
  }

  /** The index in {@code buf} of a stream offset at or after {@code min(start, pos)}'s. */
  final int index(long offset) {
    return (int) (offset - base);
  }

  /** The stream offset of {@code buf[index]}. */
  final long offset(int index) {
    return base + index;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
