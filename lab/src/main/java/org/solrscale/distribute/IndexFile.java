package org.solrscale.distribute;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One file of the commit being distributed, as the leader has it: its name in the index directory,
 * its length and its Lucene footer checksum (the CRC32 Solr's IndexFetcher compares).
 */
public record IndexFile(
    @JsonProperty("name") String name,
    @JsonProperty("length") long length,
    @JsonProperty("checksum") long checksum) {

  public IndexFile {
    if (name == null || name.isEmpty() || name.contains("/") || name.startsWith(".")) {
      throw new IllegalArgumentException("not an index file name: '" + name + "'");
    }
    if (length < Footer.LENGTH) {
      throw new IllegalArgumentException(name + " is too short for a Lucene file: " + length);
    }
  }
}
