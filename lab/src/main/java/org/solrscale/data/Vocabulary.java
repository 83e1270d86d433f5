package org.solrscale.data;

/**
 * Unique pronounceable pseudo-words (lowercase a-z, consonant-vowel syllables) numbered by rank,
 * the low ranks short, as frequent words are in real text.
 */
final class Vocabulary {
  private static final String CONSONANTS = "bdfgklmnprstvz";
  private static final String VOWELS = "aeiou";
  private static final int SYLLABLES = CONSONANTS.length() * VOWELS.length();

  /** Words have two to four syllables: at least four letters, so never an English stopword. */
  private static final int MIN_SYLLABLES = 2;

  /**
   * Coprime with 70 (the syllable count) and so with every class size: multiplying by it permutes a
   * class, spreading neighbouring ranks over unrelated-looking words.
   */
  private static final long SCRAMBLE = 1_640_531_527L;

  /** How many distinct words there are: all words of two, three and four syllables. */
  static final long CAPACITY = pow(SYLLABLES, 2) + pow(SYLLABLES, 3) + pow(SYLLABLES, 4);

  private Vocabulary() {}

  /** The first {@code n} words for a salt; different salts give differently ordered words. */
  static String[] words(int n, long salt) {
    String[] words = new String[n];
    for (int i = 0; i < n; i++) {
      words[i] = word(i, salt);
    }
    return words;
  }

  /**
   * The word of a rank. Ranks fill the two-syllable words first, then three, then four; within a
   * length, (index * SCRAMBLE + salt) mod size is a bijection, so words never repeat.
   */
  static String word(long rank, long salt) {
    if (rank < 0 || rank >= CAPACITY) {
      throw new IllegalArgumentException("a vocabulary holds at most " + CAPACITY + " words");
    }
    int syllables = MIN_SYLLABLES;
    long size = pow(SYLLABLES, syllables);
    while (rank >= size) {
      rank -= size;
      syllables++;
      size = pow(SYLLABLES, syllables);
    }
    long code = (rank * SCRAMBLE % size + Math.floorMod(salt, size)) % size;
    char[] w = new char[2 * syllables];
    for (int s = 0; s < syllables; s++) {
      int syllable = (int) (code % SYLLABLES);
      code /= SYLLABLES;
      w[2 * s] = CONSONANTS.charAt(syllable / VOWELS.length());
      w[2 * s + 1] = VOWELS.charAt(syllable % VOWELS.length());
    }
    return new String(w);
  }

  private static long pow(long base, int exp) {
    long r = 1;
    for (int i = 0; i < exp; i++) {
      r *= base;
    }
    return r;
  }
}
