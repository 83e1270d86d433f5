package org.solrscale.data;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte searches eight bytes at a time (SWAR): the scanners of split, clean and the XML reader look
 * at every byte of files of many gigabytes, so a byte-at-a-time loop would be their bottleneck.
 */
final class Bytes {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;

  private Bytes() {}

  static long word(byte[] a, int i) {
    return (long) LONGS.get(a, i);
  }

  /** The first index of {@code b} in {@code a[from, to)}, or -1. */
  static int indexOf(byte[] a, int from, int to, byte b) {
    long pattern = (b & 0xFFL) * ONES;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long w = word(a, i) ^ pattern;
      // the lowest byte flagged is exactly the first zero byte (carries only spill upwards)
      long t = (w - ONES) & ~w & HIGHS;
      if (t != 0) {
        return i + (Long.numberOfTrailingZeros(t) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static final long LT = spread('<');
  private static final long SLASH = spread('/');
  private static final long D = spread('d');
  private static final long BANG = spread('!');
  private static final long QUESTION = spread('?');

  /**
   * The first index {@code i} in {@code [from, to - 1)} where {@code a[i, i + 2)} is "<d", "<!" or
   * "<?", or with {@code endTags} also "/d", or -1: finds every {@code <doc}, comment, CDATA
   * section and processing instruction (and {@code </doc>}) while skipping the far more common
   * other tags.
   */
  static int indexOfMarkup(byte[] a, int from, int to, boolean endTags) {
    long py = endTags ? SLASH : LT; // without end tags "/d" becomes "<d" again: no extra match
    int i = from;
    for (; i + 9 <= to; i += 8) {
      long w = word(a, i);
      long next = word(a, i + 1);
      long d = zeroBytes(next ^ D);
      long m =
          zeroBytes(w ^ LT) & (d | zeroBytes(next ^ BANG) | zeroBytes(next ^ QUESTION))
              | zeroBytes(w ^ py) & d;
      if (m != 0) {
        return i + (Long.numberOfTrailingZeros(m) >>> 3);
      }
    }
    for (; i + 1 < to; i++) {
      byte x = a[i];
      byte n = a[i + 1];
      if (x == '<' && (n == 'd' || n == '!' || n == '?') || endTags && x == '/' && n == 'd') {
        return i;
      }
    }
    return -1;
  }

  /** How many times {@code b} occurs in {@code a[from, to)}. */
  static long count(byte[] a, int from, int to, byte b) {
    long pattern = (b & 0xFFL) * ONES;
    long n = 0;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      n += Long.bitCount(zeroBytes(word(a, i) ^ pattern));
    }
    for (; i < to; i++) {
      if (a[i] == b) {
        n++;
      }
    }
    return n;
  }

  /** {@code b} in each of the eight bytes of a word. */
  static long spread(char b) {
    return (b & 0xFFL) * ONES;
  }

  /** Whether every byte of {@code w} is ASCII. */
  static boolean ascii(long w) {
    return (w & HIGHS) == 0;
  }

  /** The high bit of every byte of {@code w} that is zero, exactly (no false positives). */
  static long zeroBytes(long w) {
    return ~(((w & LOWS) + LOWS) | w | LOWS);
  }

  /**
   * The high bit of every byte that is below 0x20 or 0x80 and above: the bytes that are not plain
   * printable ASCII. Exact, as {@link #zeroBytes}.
   */
  static long unusualBytes(long w) {
    // a byte b < 0x80 is below 0x20 when b + 0x60 stays below 0x80
    long belowSpace = ~((w & LOWS) + 0x6060606060606060L) & HIGHS;
    return (belowSpace | w) & HIGHS;
  }

  /** Whether {@code a[at...]} starts with {@code ascii} (which must fit before {@code limit}). */
  static boolean startsWith(byte[] a, int at, int limit, String ascii) {
    if (at + ascii.length() > limit) {
      return false;
    }
    for (int k = 0; k < ascii.length(); k++) {
      if (a[at + k] != ascii.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}
