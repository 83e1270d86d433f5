package org.solrscale.data;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * One request of a query file: Solr parameters in order, names and values URL-encoded
 * (application/x-www-form-urlencoded, UTF-8: a space is '+'), joined by '&amp;' on one line.
 */
final class QueryLine {
  private final StringBuilder line = new StringBuilder();

  QueryLine add(String name, String value) {
    if (line.length() > 0) {
      line.append('&');
    }
    line.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
        .append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    return this;
  }

  /** A value as a quoted term of the query syntax: backslashes and quotes escaped. */
  static String quoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  @Override
  public String toString() {
    return line.toString();
  }
}
