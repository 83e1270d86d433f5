package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The acknowledged writes that lost ids: how many, how many lost every id they carried ({@code
 * whole}) and how many only some ({@code partial}), and how many carried more than one id. Lost ids
 * that come in acknowledged batches are the pattern of SOLR-5939.
 */
public record LostBatches(
    @JsonProperty("writes") long writes,
    @JsonProperty("whole") long whole,
    @JsonProperty("partial") long partial,
    @JsonProperty("multi_document") long multiDocument) {

  public static final LostBatches NONE = new LostBatches(0, 0, 0, 0);

  /** Where what is known of acknowledged batches losing ids is written up. */
  public static final String FINDINGS = "docs/findings/solr-5939.md";

  /**
   * One line naming SOLR-5939 when lost ids came in acknowledged writes of more than one document,
   * else null.
   */
  public String knownDefect() {
    if (multiDocument == 0) {
      return null;
    }
    return "lost ids came in "
        + writes
        + " acknowledged write(s) ("
        + whole
        + " lost whole, "
        + partial
        + " in part): the pattern of SOLR-5939, acknowledged batched updates not applied when a"
        + " forwarded stream fails; see "
        + FINDINGS;
  }
}
