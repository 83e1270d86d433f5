package org.solrscale.data;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One request read from a Solr log, as a line of {@code data log-requests}' output: when it started
 * (the log's time minus QTime, epoch ms), the collection, the handler path, the parameters decoded
 * (each name with its values in the logged order), and what production answered: hits, status and
 * QTime (null when the log does not say: Jetty's request log, updates). {@code source} is the log's
 * file:line.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoggedRequest(
    @JsonProperty("start_ms") long startMs,
    @JsonProperty("time") String time,
    @JsonProperty("collection") String collection,
    @JsonProperty("handler") String handler,
    @JsonProperty("params") Map<String, List<String>> params,
    @JsonProperty("hits") Long hits,
    @JsonProperty("status") Integer status,
    @JsonProperty("qtime") Integer qtime,
    @JsonProperty("source") String source) {

  /** The parameters as a URL query string (UTF-8, space as +), in the logged order. */
  public String query() {
    StringBuilder sb = new StringBuilder();
    params.forEach(
        (name, values) -> {
          for (String v : values) {
            if (sb.length() > 0) {
              sb.append('&');
            }
            sb.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                .append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
          }
        });
    return sb.toString();
  }

  /** The request's kind for figures: its collection and handler ("docs /select"). */
  public String kind() {
    return (collection == null ? "-" : collection) + " " + handler;
  }
}
