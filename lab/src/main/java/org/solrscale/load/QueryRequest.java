package org.solrscale.load;

/**
 * One request of a workload: the request handler path (e.g. {@code /select}), its parameters
 * already URL-encoded as a query string, the template it belongs to (for per-template stats) and
 * where it was read (file:line).
 */
public record QueryRequest(String handler, String params, String template, String source) {}
