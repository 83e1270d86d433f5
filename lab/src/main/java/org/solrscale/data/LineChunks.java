package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;

/** The non-blank lines of a stream (JSON Lines documents), each with its line feed if it has one. */
final class LineChunks extends ChunkScanner {
  LineChunks(InputStream in) {
    super(in, 1 << 20);
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
      int nl;
      while ((nl = Bytes.indexOf(buf, pos, limit, (byte) '\n')) < 0) {
        pos = limit;
        if (!refill()) {
          break;
        }
      }
      end = nl < 0 ? limit : nl + 1;
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
}
