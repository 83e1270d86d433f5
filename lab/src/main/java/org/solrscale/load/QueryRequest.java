package org.solrscale.load;

/**
 * One request of a workload: the request handler path (e.g. {@code /select}), its parameters
 * already URL-encoded as a query string, the template it belongs to (for per-template stats) and
 * where it was read (file:line). A replayed request also has its own {@code collection} (null: the
 * bench's) and its {@code index} in the replay's schedule (-1: not a replay).
 */
public record QueryRequest(
    String handler, String params, String template, String source, String collection, int index) {
  public QueryRequest(String handler, String params, String template, String source) {
    this(handler, params, template, source, null, -1);
  }
}
