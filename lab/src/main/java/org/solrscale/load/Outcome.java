package org.solrscale.load;

/**
 * How one request ended: its HTTP status (0 when there was no answer), an error kind when it
 * failed, a sample message, the bytes received (as sent on the wire) and Solr's numFound (-1 if
 * unknown).
 */
public record Outcome(int status, String errorKind, String message, long bytes, long numFound) {
  public static Outcome ok(int status, long bytes, long numFound) {
    return new Outcome(status, null, null, bytes, numFound);
  }

  public static Outcome failed(int status, String kind, String message, long bytes) {
    return new Outcome(status, kind, message, bytes, -1);
  }

  public boolean failed() {
    return errorKind != null;
  }
}
