package org.solrscale.data;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Builds texts from words of at most eight ASCII letters, each packed into one long. Appending
 * String by String took most of synth's time; one eight-byte store per word is about 2.5 times
 * faster. Not thread-safe: it reuses one buffer.
 */
final class PackedWords {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private final long[] packed;
  private final byte[] lengths;
  private byte[] buf = new byte[1024];

  PackedWords(String[] words) {
    packed = new long[words.length];
    lengths = new byte[words.length];
    for (int i = 0; i < words.length; i++) {
      String w = words[i];
      if (w.length() > Long.BYTES || !w.chars().allMatch(c -> c < 0x80)) {
        throw new IllegalArgumentException("not a word of at most 8 ASCII letters: " + w);
      }
      long v = 0;
      for (int c = w.length() - 1; c >= 0; c--) {
        v = (v << 8) | w.charAt(c); // little-endian: the first letter lands at the lowest address
      }
      packed[i] = v;
      lengths[i] = (byte) w.length();
    }
  }

  /** {@code n} words, separated by single spaces, their ranks drawn from {@code ranks}. */
  String text(SplittableRandom rnd, Zipf ranks, int n) {
    int need = n * (Long.BYTES + 1);
    if (buf.length < need) {
      buf = new byte[need];
    }
    int end = 0;
    for (int i = 0; i < n; i++) {
      int k = ranks.sample(rnd);
      // the store may write past the word; the next word or the space overwrites that
      LONGS.set(buf, end, packed[k]);
      end += lengths[k];
      buf[end++] = ' ';
    }
    return new String(buf, 0, Math.max(end - 1, 0), StandardCharsets.ISO_8859_1);
  }
}
