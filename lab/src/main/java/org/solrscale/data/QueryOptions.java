package org.solrscale.data;

import java.util.List;
import org.solrscale.spec.SolrscaleException;

/**
 * What {@code data queries} derives: from which text field, how many requests of which kinds, the
 * seed, the facet fields (empty: the corpus's first string fields), facet.limit and rows.
 */
public record QueryOptions(
    String field,
    int count,
    long seed,
    List<QueryKind> kinds,
    List<String> facetFields,
    int facetLimit,
    int rows) {
  /** How many string fields the facet kind uses when none are named. */
  public static final int DEFAULT_FACET_FIELDS = 6;

  public QueryOptions {
    if (field == null || field.isBlank()) {
      throw SolrscaleException.usage("--field must name a text field, e.g. body_t");
    }
    if (count < 1) {
      throw SolrscaleException.usage("--count must be at least 1");
    }
    if (kinds.isEmpty()) {
      throw SolrscaleException.usage("--kinds must name at least one kind");
    }
    if (facetLimit < 1) {
      throw SolrscaleException.usage("--facet-limit must be at least 1");
    }
    if (rows < 0) {
      throw SolrscaleException.usage("--rows must be 0 or more");
    }
    kinds = List.copyOf(kinds);
    facetFields = List.copyOf(facetFields);
  }
}
