package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;

/**
 * The {@code <doc ...>...</doc>} ranges of a Solr XML stream. A {@code <doc} that starts before the
 * current one ended gives a range with an error, and the scan resumes at the new document, so one
 * broken document never swallows its neighbours. Nested child documents are not supported.
 */
final class XmlChunks extends ChunkScanner {
  static final String NOT_CLOSED = "document is not closed before the next <doc> (missing </doc>; "
      + "nested child documents are not supported)";
  static final String NOT_CLOSED_AT_END = "document is not closed before the end of the file";

  /** Whether a document start was found before: the first one is never contiguous. */
  private boolean found;

  XmlChunks(InputStream in) {
    this(in, 1 << 20);
  }

  XmlChunks(InputStream in, int bufferSize) {
    super(in, bufferSize);
  }

  @Override
  boolean next() throws IOException {
    error = null;
    if (!findStart()) {
      return false;
    }
    pos = start + 4;
    while (true) {
      int at = Bytes.indexOfPair(buf, pos, limit, (byte) '<', (byte) '/', (byte) 'd');
      if (at < 0) {
        pos = Math.max(pos, limit - 1); // the last byte may start a pair
        if (!refill()) {
          return unclosedAtEnd();
        }
        continue;
      }
      if (buf[at] == '/') {
        if (buf[at - 1] != '<') {
          pos = at + 1;
          continue;
        }
        at--;
      }
      pos = at;
      if (!have(6)) {
        if (isDocStart(pos)) {
          break;
        }
        return unclosedAtEnd();
      }
      if (Bytes.startsWith(buf, pos, limit, "</doc>")) {
        end = pos + 6;
        pos = end;
        return true;
      }
      if (isDocStart(pos)) {
        break;
      }
      pos++;
    }
    end = pos; // the next document starts here; the scan resumes with it
    error = NOT_CLOSED;
    return true;
  }

  /** Moves {@link #start} to the next {@code <doc} start tag; false at the end of the input. */
  private boolean findStart() throws IOException {
    contiguous = found;
    start = pos;
    while (true) {
      int lt = Bytes.indexOfPair(buf, pos, limit, (byte) '<', (byte) '<', (byte) 'd');
      contiguous &= blank(pos, lt < 0 ? limit - 1 : lt);
      if (lt < 0) {
        pos = Math.max(pos, limit - 1); // the last byte may start a pair
        start = pos;
        if (!refill()) {
          return false;
        }
        continue;
      }
      pos = lt;
      start = lt;
      if (!have(5)) {
        return false;
      }
      if (isDocStart(pos)) {
        found = true;
        return true;
      }
      contiguous = false;
      pos++;
      start = pos;
    }
  }

  private boolean unclosedAtEnd() {
    end = limit;
    pos = limit;
    error = NOT_CLOSED_AT_END;
    return true;
  }

  /** {@code <doc} followed by white space, '>' or '/'. */
  private boolean isDocStart(int at) {
    if (at + 5 > limit || !Bytes.startsWith(buf, at, limit, "<doc")) {
      return false;
    }
    byte c = buf[at + 4];
    return c == '>' || c == '/' || c == ' ' || c == '\n' || c == '\t' || c == '\r';
  }
}
