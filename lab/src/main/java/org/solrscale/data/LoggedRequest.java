package org.solrscale.data;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.solrscale.spec.SolrscaleException;

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

  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /**
   * The requests of a file {@code data log-requests} wrote (plain or gzip), in its order; a line
   * that is none, or a file without any, is a usage error naming {@code option} and file:line.
   */
  public static List<LoggedRequest> read(Path file, String option) {
    List<LoggedRequest> out = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(Corpus.input(file, new AtomicLong()), StandardCharsets.UTF_8),
            1 << 16)) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        LoggedRequest r;
        try {
          r = JSON.readValue(line, LoggedRequest.class);
        } catch (IOException e) {
          throw SolrscaleException.usage(
              file
                  + ":"
                  + n
                  + ": not a request of data log-requests (one JSON object a line with start_ms,"
                  + " handler and params): make the file with solrscale data log-requests LOG...");
        }
        if (r.handler() == null || r.params() == null || r.startMs() <= 0) {
          throw SolrscaleException.usage(
              file + ":" + n + ": a request needs start_ms, handler and params");
        }
        out.add(r);
      }
    } catch (NoSuchFileException e) {
      throw SolrscaleException.usage(option + " " + file + " does not exist");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read " + option + " " + file + ": " + Corpus.why(e));
    }
    if (out.isEmpty()) {
      throw SolrscaleException.usage(
          option
              + " "
              + file
              + " has no requests: make it with solrscale data log-requests LOG...");
    }
    return out;
  }
}
