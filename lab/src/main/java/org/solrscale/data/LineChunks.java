package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;

/**
 * The non-blank lines of a stream (JSON Lines documents), each with its line end if it has one:
 * {@code \n}, {@code \r\n} or {@code \r} alone, as the JSON Lines reader counts them.
 */
final class LineChunks extends ChunkScanner {
  /**
   * The stream offset of the next {@code \r} (at or after the scan), or -1 if there is none before
   * {@link #crTo}: one search per buffer for a file without any, not one per line.
   */
  private long cr = -1;
  private long crTo;

  LineChunks(InputStream in) {
    this(in, 1 << 20);
  }

  /** With a smaller buffer, for tests. */
  LineChunks(InputStream in, int bufferSize) {
    super(in, bufferSize);
  }

  @Override
  boolean next() throws IOException {
    error = null;
    contiguous = true;
    if (offset(pos) == 0 && have(3) && isByteOrderMark(pos)) { // not part of the first line
      pos += 3;
      contiguous = false;
    }
    while (true) {
      start = pos;
      end = lineEnd();
      pos = end;
      if (end == start) {
        return false;
      }
      if (!blank(start, end)) {
        if (isByteOrderMark(start)) { // after the start of the file: as the reader says
          error = JsonLinesReader.MARK;
        }
        return true;
      }
      contiguous = false;
    }
  }

  /** The index just past the end of the line at {@link #pos} (its line end included), or the end. */
  private int lineEnd() throws IOException {
    while (true) {
      int nl = Bytes.indexOf(buf, pos, limit, (byte) '\n');
      int r = nextCr(nl < 0 ? limit : nl);
      if (r >= 0) { // "\r\n" is one line end, and '\r' alone is one too
        if (r + 1 == limit) {
          pos = r;
          if (!refill()) {
            return limit;
          }
          r = pos;
        }
        return buf[r + 1] == '\n' ? r + 2 : r + 1;
      }
      if (nl >= 0) {
        return nl + 1;
      }
      pos = limit;
      if (!refill()) {
        return limit;
      }
    }
  }

  /** The index of the first '\r' in {@code buf[pos, to)}, or -1. */
  private int nextCr(int to) {
    long from = offset(pos);
    if (cr >= 0 && cr < from) { // passed: look again from here
      cr = -1;
      crTo = from;
    }
    long end = offset(limit);
    if (cr < 0 && Math.max(from, crTo) < end) { // what was read since the last look
      int k = Bytes.indexOf(buf, index(Math.max(from, crTo)), limit, (byte) '\r');
      cr = k < 0 ? -1 : offset(k);
      crTo = end;
    }
    return cr >= 0 && cr < offset(to) ? index(cr) : -1;
  }
}
