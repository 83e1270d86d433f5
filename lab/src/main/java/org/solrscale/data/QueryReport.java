package org.solrscale.data;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What {@code data queries} did: the corpus it read, the requests it wrote by kind, and the range
 * of document frequencies of the terms it chose (null when it chose none by df: phrases only).
 */
public record QueryReport(
    @JsonProperty("documents") long documents,
    @JsonProperty("bad") long bad,
    @JsonProperty("problems") List<String> problems,
    @JsonProperty("field") String field,
    @JsonProperty("distinct_terms") long distinctTerms,
    @JsonProperty("terms_not_counted") long termsNotCounted,
    @JsonProperty("queries") Map<String, Integer> queries,
    @JsonProperty("min_df") Long minDf,
    @JsonProperty("max_df") Long maxDf,
    @JsonProperty("df_groups") int dfGroups,
    @JsonProperty("facet_fields") List<String> facetFields,
    @JsonProperty("sort_fields") List<String> sortFields,
    @JsonProperty("output") String output,
    @JsonProperty("seconds") double seconds) {

  public int total() {
    return queries.values().stream().mapToInt(Integer::intValue).sum();
  }
}
