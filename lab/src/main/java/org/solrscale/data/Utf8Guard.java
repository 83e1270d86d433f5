package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;

/**
 * Passes a stream through with each malformed UTF-8 sequence replaced by U+FFFD (as Java's decoders
 * would, silently) and remembers the lines where it did, so that a reader can report the document
 * that held one instead of accepting it altered. Lines are counted as Jackson and {@link
 * java.io.BufferedReader} count them: each of {@code \n}, {@code \r} and {@code \r\n} ends one.
 */
final class Utf8Guard extends InputStream {
  /** The reason given for a document with invalid UTF-8. */
  static final String INVALID =
      "invalid UTF-8: repair the file with `solrscale data clean FILE -o CLEAN`";

  private static final long CRS = Bytes.spread('\r');
  private static final long LFS = Bytes.spread('\n');
  private final InputStream in;
  private final byte[] raw = new byte[1 << 16];
  private int rawLimit; // raw[0, rawLimit) not yet looked at (an unfinished sequence, carried over)
  private final byte[] out = new byte[raw.length * 3];
  private int outPos;
  private int outLimit;
  private boolean eof;
  private long line = 1;
  private boolean afterCr;
  private boolean started;
  private long delivered;

  /**
   * Where malformed sequences were that no reader has claimed yet, ascending, no repeats: lines, or
   * offsets in the stream this guard delivers.
   */
  private final ArrayDeque<Long> malformed = new ArrayDeque<>();

  private final boolean byOffset;
  private final String invalid;

  /** A guard that remembers lines: for readers whose documents never share a line. */
  Utf8Guard(InputStream in) {
    this(in, false);
  }

  /**
   * With {@code byOffset}, it remembers the offset (in what it delivers) of each replacement
   * instead: for readers whose documents can share a line, such as a JSON array on one line.
   */
  Utf8Guard(InputStream in, boolean byOffset) {
    this.in = in;
    this.byOffset = byOffset;
    this.invalid = in instanceof Transcoder t ? t.invalid() : INVALID;
  }

  /**
   * Why a document with a malformed sequence is bad: {@link #INVALID}, or over a {@link
   * Transcoder}, that the file's encoding does not allow its bytes (its marks are what is
   * malformed).
   */
  String invalid() {
    return invalid;
  }

  /**
   * The first line (or offset) up to {@code last} (inclusive) that had a malformed sequence, or -1;
   * those are forgotten. A reader calls it with each document's last line (or offset), in order.
   */
  long firstMalformedUpTo(long last) {
    long first = -1;
    while (!malformed.isEmpty() && malformed.peekFirst() <= last) {
      long l = malformed.pollFirst();
      first = first < 0 ? l : first;
    }
    return first;
  }

  /** How many bytes the reader has been given so far. */
  long delivered() {
    return delivered;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (outPos == outLimit) {
      if (!fill()) {
        return -1;
      }
    }
    int n = Math.min(len, outLimit - outPos);
    System.arraycopy(out, outPos, b, off, n);
    outPos += n;
    delivered += n;
    return n;
  }

  /** Reads and checks the next block; false at the end of the input. */
  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    int n = in.read(raw, rawLimit, raw.length - rawLimit);
    if (n < 0) {
      eof = true;
    } else {
      rawLimit += n;
    }
    outPos = 0;
    outLimit = 0;
    int i = 0;
    if (!started) { // a byte order mark is not part of the first document
      if (rawLimit < 3 && !eof) {
        return true; // the mark cannot be told yet
      }
      started = true;
      if (rawLimit >= 3
          && raw[0] == (byte) 0xEF
          && raw[1] == (byte) 0xBB
          && raw[2] == (byte) 0xBF) {
        i = 3;
      }
    }
    int run = i; // start of the bytes not copied to out yet
    while (i < rawLimit) {
      if (!afterCr && i + 8 <= rawLimit) { // eight plain bytes at a time, the common case
        long w = Bytes.word(raw, i);
        if (Bytes.ascii(w) && Bytes.zeroBytes(w ^ CRS) == 0) {
          line += Long.bitCount(Bytes.zeroBytes(w ^ LFS));
          i += 8;
          continue;
        }
      }
      byte c = raw[i];
      if (c >= 0) {
        if (c == '\n') {
          line += afterCr ? 0 : 1;
          afterCr = false;
        } else if (c == '\r') {
          line++;
          afterCr = true;
        } else {
          afterCr = false;
        }
        i++;
        continue;
      }
      afterCr = false;
      int seq = Cleaner.sequence(raw, i, rawLimit);
      if (seq == 0 && !eof) {
        break; // finished by the next block
      }
      if (seq > 0) {
        i += seq;
        continue;
      }
      long at = byOffset ? delivered + outLimit + (i - run) : line; // out is empty when filled
      if (malformed.isEmpty() || malformed.peekLast() != at) {
        malformed.addLast(at);
      }
      copy(run, i);
      System.arraycopy(Cleaner.REPLACEMENT, 0, out, outLimit, 3);
      outLimit += 3;
      i += Cleaner.malformedLength(raw, i, rawLimit);
      run = i;
    }
    copy(run, i);
    System.arraycopy(raw, i, raw, 0, rawLimit - i);
    rawLimit -= i;
    return outLimit > 0 || !eof;
  }

  private void copy(int from, int to) {
    System.arraycopy(raw, from, out, outLimit, to - from);
    outLimit += to - from;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
