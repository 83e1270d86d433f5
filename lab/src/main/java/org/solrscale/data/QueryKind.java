package org.solrscale.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.solrscale.spec.SolrscaleException;

/** The kinds of request {@code data queries} derives. */
public enum QueryKind {
  /** One term. */
  TERM,
  /** Two or three terms, all required. */
  AND,
  /** Two or three terms, any of them. */
  OR,
  /** Two or three consecutive terms of a document, as a phrase. */
  PHRASE,
  /** A term query with a filter query on a string field's value. */
  FILTER,
  /** A term query sorted on a numeric or date field. */
  SORT,
  /** A term query with facets on several string fields. */
  FACET;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A comma-separated list of kinds, e.g. {@code term,and,phrase}; repeats are dropped. */
  public static List<QueryKind> parseList(String spec) {
    List<QueryKind> kinds = new ArrayList<>();
    for (String part : spec.split(",")) {
      String id = part.trim();
      QueryKind kind = null;
      for (QueryKind k : values()) {
        if (k.id().equalsIgnoreCase(id)) {
          kind = k;
        }
      }
      if (kind == null) {
        throw SolrscaleException.usage(
            "unknown query kind '"
                + id
                + "' in --kinds; use term, and, or, phrase, filter, sort, facet");
      }
      if (!kinds.contains(kind)) {
        kinds.add(kind);
      }
    }
    return kinds;
  }
}
