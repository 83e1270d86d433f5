package org.solrscale.index;

/** A message (Solr's, an exception's) made one line of at most 300 characters, for a report. */
final class OneLine {
  private OneLine() {}

  static String of(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replaceAll("\\s+", " ").trim();
    return t.length() > 300 ? t.substring(0, 300) + "..." : t;
  }
}
