package org.solrscale.load;

import java.util.List;

/**
 * How one request ended: its HTTP status (0 when there was no answer), an error kind when it
 * failed, a sample message, the bytes received (as sent on the wire) and Solr's numFound (-1 if
 * unknown); for a request sampled for attribution, each shard's answering replica and time; and
 * whether Solr marked the answer partial ({@code partialResults}: a shard missing under
 * shards.tolerant, or a query limit such as timeAllowed reached); and, for a sampled request, the
 * base URL of the node that coordinated it.
 */
public record Outcome(
    int status,
    String errorKind,
    String message,
    long bytes,
    long numFound,
    List<ShardTime> shards,
    boolean partial,
    String coordinator) {
  /**
   * One shard of a distributed request as shards.info told it: the replica that answered, and its
   * QTime-like time in ms.
   */
  public record ShardTime(String shard, String replica, long timeMs) {}

  public Outcome(int status, String errorKind, String message, long bytes, long numFound) {
    this(status, errorKind, message, bytes, numFound, null, false, null);
  }

  public static Outcome ok(int status, long bytes, long numFound) {
    return new Outcome(status, null, null, bytes, numFound);
  }

  /** An answer Solr marked partial (partialResults true or omitted). */
  public static Outcome partial(int status, long bytes, long numFound) {
    return new Outcome(status, null, null, bytes, numFound, null, true, null);
  }

  public static Outcome failed(int status, String kind, String message, long bytes) {
    return new Outcome(status, kind, message, bytes, -1);
  }

  /** The same, with the shards that answered (from shards.info) and the node that asked them. */
  public Outcome withShards(List<ShardTime> s, String coordinatorUrl) {
    return new Outcome(status, errorKind, message, bytes, numFound, s, partial, coordinatorUrl);
  }

  public boolean failed() {
    return errorKind != null;
  }
}
