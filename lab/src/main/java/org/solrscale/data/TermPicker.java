package org.solrscale.data;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Picks terms stratified by document frequency on a log scale: terms are grouped by floor(log2(df))
 * and a group is chosen uniformly, so a query is as likely to hit a handful of documents as a
 * thousand or most of the index.
 */
final class TermPicker {
  /** Operators for parsers that accept them in lowercase: never a term to search for. */
  private static final Set<String> OPERATORS = Set.of("and", "or", "not");

  private final Map<String, long[]> df;

  /** Non-empty groups, rarest first; each sorted by df then term, so picks are reproducible. */
  private final List<List<String>> groups = new ArrayList<>();

  private final List<Long> lowest = new ArrayList<>();

  TermPicker(Map<String, long[]> df) {
    this.df = df;
    List<List<String>> byLog = new ArrayList<>();
    df.forEach(
        (term, n) -> {
          if (!OPERATORS.contains(term)) {
            int g = 63 - Long.numberOfLeadingZeros(n[0]);
            while (byLog.size() <= g) {
              byLog.add(new ArrayList<>());
            }
            byLog.get(g).add(term);
          }
        });
    Comparator<String> order =
        Comparator.<String>comparingLong(t -> df.get(t)[0])
            .thenComparing(Comparator.naturalOrder());
    for (List<String> g : byLog) {
      if (!g.isEmpty()) {
        g.sort(order);
        groups.add(g);
        lowest.add(df.get(g.get(0))[0]);
      }
    }
  }

  boolean isEmpty() {
    return groups.isEmpty();
  }

  /** How many log2 groups there are. */
  int groups() {
    return groups.size();
  }

  long df(String term) {
    return df.get(term)[0];
  }

  /** A term from a uniformly chosen group. */
  String pick(SplittableRandom rnd) {
    return pickFrom(0, rnd);
  }

  /**
   * A term from a group whose terms all have a df of at least {@code minDf}, or from the most
   * frequent group if none has.
   */
  String pickAtLeast(long minDf, SplittableRandom rnd) {
    int first = groups.size() - 1;
    while (first > 0 && lowest.get(first - 1) >= minDf) {
      first--;
    }
    return pickFrom(first, rnd);
  }

  private String pickFrom(int firstGroup, SplittableRandom rnd) {
    List<String> g = groups.get(firstGroup + rnd.nextInt(groups.size() - firstGroup));
    return g.get(rnd.nextInt(g.size()));
  }
}
