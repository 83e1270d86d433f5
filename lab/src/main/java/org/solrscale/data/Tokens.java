package org.solrscale.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits text into lowercase terms roughly as Solr's standard tokenizer and lowercase filter do, so
 * that derived queries use terms the index holds.
 */
final class Tokens {
  private Tokens() {}

  /**
   * The terms of a text: runs of letters, digits and underscores. As in Unicode word breaking, a
   * single ' or . between two letters (don't, e.g) and a single , or . between two digits (3.14,
   * 1,000) do not break a term. Other scripts' finer rules (ideographs) are not followed.
   */
  static List<String> of(String text) {
    List<String> terms = new ArrayList<>();
    int n = text.length();
    int start = -1;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      boolean inTerm =
          isWordChar(c)
              || start >= 0 && i + 1 < n && joins(text.charAt(i - 1), c, text.charAt(i + 1));
      if (inTerm && start < 0) {
        start = i;
      } else if (!inTerm && start >= 0) {
        terms.add(text.substring(start, i).toLowerCase(Locale.ROOT));
        start = -1;
      }
    }
    if (start >= 0) {
      terms.add(text.substring(start).toLowerCase(Locale.ROOT));
    }
    return terms;
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private static boolean joins(char before, char c, char after) {
    if (Character.isLetter(before) && Character.isLetter(after)) {
      return c == '\'' || c == '\u2019' || c == '.';
    }
    if (Character.isDigit(before) && Character.isDigit(after)) {
      return c == ',' || c == '.';
    }
    return false;
  }
}
