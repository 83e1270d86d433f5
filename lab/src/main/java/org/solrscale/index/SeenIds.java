package org.solrscale.index;

/**
 * The ids a load has read so far, in bounded memory (a Bloom filter): {@link #add} says whether an
 * id may have been read before. "No" is certain, "maybe" is not. So a load into an empty collection
 * asks Solr which ids it already holds only for the ids that may repeat, and a repeated id still
 * counts as replacing a document. A "maybe" that was wrong costs only that look-up. The filter is
 * sized from the input: about one bit per two input bytes, between 64 Kbit and 128 Mbit (16 MB),
 * and at most a 16th of the heap. That keeps wrong "maybe"s rare up to a few million ids; a corpus
 * with far more gives more of them, so look-ups of a few ids per batch, but never a wrong count.
 * Blocked: an id's bits all lie in one 64-bit word, so adding it costs one cache miss, not one per
 * bit (four bits spread over a 16 MB array took 3 % of the client's CPU in a profile of the
 * benchmark's load; one word of 8 MB about 1.6 %).
 */
final class SeenIds {
  private static final int HASHES = 4;
  private static final int MIN_BITS_LOG2 = 16;
  private static final int MAX_BITS_LOG2 = 27;

  private final long[] words;
  private final int wordMask;

  /** A filter for ids read from about {@code inputBytes} bytes of input, for a JVM's heap. */
  SeenIds(long inputBytes) {
    this(inputBytes, Runtime.getRuntime().maxMemory() / 16);
  }

  /**
   * A filter for ids read from about {@code inputBytes} bytes of input, of at most {@code
   * maxBytes}.
   */
  SeenIds(long inputBytes, long maxBytes) {
    long bits = Math.min(Math.max(1, inputBytes / 2), Math.max(1, maxBytes) * 8);
    int log2 = 64 - Long.numberOfLeadingZeros(bits - 1);
    if (log2 > 1 && 1L << log2 > maxBytes * 8) { // rounded up past the limit: the power below
      log2--;
    }
    log2 = Math.max(MIN_BITS_LOG2, Math.min(MAX_BITS_LOG2, log2));
    words = new long[1 << (log2 - 6)];
    wordMask = words.length - 1;
  }

  /**
   * Records the id; true when it may have been recorded before, false when it certainly was not.
   */
  boolean add(String id) {
    // the String's own hash (cached), spread by murmur3's finalizer: its low bits pick the word,
    // four times six of its high bits the bits in it. Ids whose String hashes are equal always
    // look alike here: such an id is looked up once more than it needs to be.
    long x = id.hashCode() * 0x9E3779B97F4A7C15L;
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    int w = (int) x & wordMask;
    long m = 0;
    for (int i = 0; i < HASHES; i++) {
      m |= 1L << (x >>> (40 + 6 * i));
    }
    boolean all = (words[w] & m) == m;
    words[w] |= m;
    return all;
  }

  /** The filter's size in bits. */
  long bits() {
    return (long) words.length << 6;
  }
}
