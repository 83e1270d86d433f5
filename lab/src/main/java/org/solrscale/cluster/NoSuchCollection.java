package org.solrscale.cluster;

import java.util.Collection;
import java.util.TreeSet;
import org.solrscale.spec.SolrscaleException;

/** The one wording, for every command, of a collection a cluster does not hold. */
public final class NoSuchCollection {
  private NoSuchCollection() {}

  /**
   * A usage error naming the collections there are, e.g. "there is no collection 'nope' in cluster
   * 'lab'; it has docs, logs: create it (solrscale collection create) or give --collection one of
   * those".
   *
   * @param where the cluster as the user named it: "cluster 'lab'", "--zk HOST:PORT", ...
   */
  public static SolrscaleException error(
      String collection, String where, Collection<String> existing) {
    return SolrscaleException.usage(
        "there is no collection '"
            + collection
            + "' in "
            + where
            + (existing.isEmpty()
                ? " (it has none): create it (solrscale collection create)"
                : "; it has "
                    + String.join(", ", new TreeSet<>(existing))
                    + ": create it (solrscale collection create) or give --collection one of those"));
  }
}
