package org.solrscale.index;

/**
 * The ids a load has read so far, in bounded memory (a Bloom filter): {@link #add} says whether an
 * id may have been read before. "No" is certain, "maybe" is not. So a load into an empty
 * collection asks Solr which ids it already holds only for the ids that may repeat, and a repeated
 * id still counts as replacing a document. A "maybe" that was wrong costs only that look-up. The
 * filter is sized from the input (about one bit per input byte, between 64 Kbit and 128 Mbit, so
 * at most 16 MB). A corpus with far more ids than that gives more false "maybe"s, and so more
 * look-ups, but no wrong count.
 */
final class SeenIds {
  private static final int HASHES = 4;
  private static final int MIN_BITS_LOG2 = 16;
  private static final int MAX_BITS_LOG2 = 27;

  private final long[] words;
  private final int mask;

  /** A filter for ids read from about {@code inputBytes} bytes of input. */
  SeenIds(long inputBytes) {
    int log2 = 64 - Long.numberOfLeadingZeros(Math.max(1, inputBytes - 1));
    log2 = Math.max(MIN_BITS_LOG2, Math.min(MAX_BITS_LOG2, log2));
    words = new long[1 << (log2 - 6)];
    mask = (1 << log2) - 1;
  }

  /** Records the id; true when it may have been recorded before, false when it certainly was not. */
  boolean add(String id) {
    // two hashes from the String's own (cached, and cheap: a murmur3 over the characters cost the
    // reader thread about 3 % of its time), spread by murmur3's finalizer, combined into HASHES
    // probes (Kirsch and Mitzenmacher). Ids whose String hashes are equal always look alike here:
    // such an id is looked up once more than it needs to be.
    long x = id.hashCode() * 0x9E3779B97F4A7C15L;
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    int h1 = (int) x;
    int h2 = (int) (x >>> 32) | 1;
    boolean all = true;
    for (int i = 0; i < HASHES; i++) {
      int bit = (h1 + i * h2) & mask;
      long m = 1L << bit;
      int w = bit >>> 6;
      if ((words[w] & m) == 0) {
        all = false;
        words[w] |= m;
      }
    }
    return all;
  }

  /** The filter's size in bits. */
  long bits() {
    return (long) mask + 1;
  }
}
