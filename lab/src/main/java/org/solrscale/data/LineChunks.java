package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;

/**
 * The non-blank lines of a stream (JSON Lines documents), each with its line end if it has one:
 * {@code \n}, {@code \r\n} or {@code \r} alone, as the JSON Lines reader counts them.
 */
final class LineChunks extends ChunkScanner {
  private final CarriageReturns crs = new CarriageReturns();

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
        } else {
          error = notAnObject(start, end);
        }
        return true;
      }
      contiguous = false;
    }
  }

  static final String NOT_AN_OBJECT =
      "the line does not start with '{' (after spaces and tabs): "
          + "JSON Lines holds one JSON object, a document, per line";
  static final String NOT_CLOSED =
      "the line does not end with '}' (before spaces and tabs): a "
          + "document cut short, or one spread over several lines, which JSON Lines cannot hold";

  /**
   * Why the line {@code buf[from, to)} (its line end included) cannot be one JSON object, by its
   * first and last bytes only (what is inside is the reader's to judge), or null.
   */
  private String notAnObject(int from, int to) {
    int a = from;
    while (a < to && (buf[a] == ' ' || buf[a] == '\t')) {
      a++;
    }
    int z = to - 1;
    while (z > a && (buf[z] == '\n' || buf[z] == '\r' || buf[z] == ' ' || buf[z] == '\t')) {
      z--;
    }
    return buf[a] != '{' ? NOT_AN_OBJECT : z == a || buf[z] != '}' ? NOT_CLOSED : null;
  }

  /**
   * The index just past the end of the line at {@link #pos} (its line end included), or the end.
   */
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
    return crs.first(pos, to);
  }
}
