package org.solrscale.index;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.solr.common.SolrInputDocument;
import org.solrscale.data.Document;

/** Documents sent in one request, numbered in input order ({@link BatchOrder} keeps to it). */
final class Batch {
  /**
   * One document to send, its id as sent, and where it came from (for the rejects file); {@code
   * again} when the id may have been read before in this run.
   */
  record Entry(
      SolrInputDocument doc,
      String id,
      boolean again,
      Document source,
      String file,
      long ordinal,
      long line) {}

  /** Tells the workers that the input has ended. */
  static final Batch END = new Batch(-1, List.of());

  final long seq;
  final List<Entry> entries;

  /** Its ids, made when another batch first needs them (guarded by {@link BatchOrder}'s lock). */
  private Set<String> ids;

  Batch(long seq, List<Entry> entries) {
    this.seq = seq;
    this.entries = entries;
  }

  Set<String> ids() {
    if (ids == null) {
      ids = new HashSet<>();
      for (Entry e : entries) {
        ids.add(e.id());
      }
    }
    return ids;
  }
}
