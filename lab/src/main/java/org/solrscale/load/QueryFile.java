package org.solrscale.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.solrscale.data.Corpus;
import org.solrscale.spec.SolrscaleException;

/**
 * Reads a query file: one request a line, either Solr parameters ({@code q=...&fq=...},
 * URL-encoded, as {@code data queries} writes them), optionally after a handler path ({@code
 * /browse?q=...}), or a JSON object of parameters (arrays repeat a parameter; {@code _handler} and
 * {@code _template} are ours). A {@code _template} parameter names the request's template (e.g. the
 * query kind {@code data queries} wrote) and is not sent; without it the template is the handler
 * and the parameter names. Blank lines and lines starting with {@code #} are skipped. The first bad
 * line stops the load before it starts, with its file:line.
 *
 * <p>A parameter line is read as a person means it ({@link #urlSafe}): characters that cannot stand
 * in a URL (spaces, quotes, {@code #}, braces, non-ASCII, a {@code %} not followed by two hex
 * digits) are percent-encoded, while {@code +} (a space) and {@code %XX} keep their URL meaning.
 */
public final class QueryFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  private QueryFile() {}

  public static List<QueryRequest> read(Path file) {
    List<QueryRequest> requests = new ArrayList<>();
    // gzip (told by its content, as corpora are) or plain
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                Corpus.input(file, new AtomicLong()),
                StandardCharsets.UTF_8
                    .newDecoder() // strict, as Files.newBufferedReader: no U+FFFD
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)))) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#")) {
          continue;
        }
        String where = file + ":" + n;
        requests.add(text.startsWith("{") ? fromJson(text, where) : fromParams(text, where));
      }
    } catch (NoSuchFileException e) {
      throw SolrscaleException.usage("query file " + file + " does not exist");
    } catch (MalformedInputException e) {
      throw SolrscaleException.usage("query file " + file + " is not UTF-8 text");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read query file " + file + ": " + e.getMessage());
    }
    if (requests.isEmpty()) {
      throw SolrscaleException.usage(
          "query file "
              + file
              + " has no requests (one per line: "
              + "q=...&fq=... or a JSON object of parameters)");
    }
    return requests;
  }

  static QueryRequest fromParams(String line, String where) {
    String text = urlSafe(line);
    String handler = "/select";
    String params = text;
    if (text.startsWith("/")) {
      int q = text.indexOf('?');
      handler = q < 0 ? text : text.substring(0, q);
      params = q < 0 ? "" : text.substring(q + 1);
    }
    Set<String> names = new LinkedHashSet<>();
    String template = null;
    List<String> sent = new ArrayList<>();
    for (String pair : params.split("&")) {
      int eq = pair.indexOf('=');
      if (pair.isEmpty() || eq <= 0) {
        throw SolrscaleException.usage(
            where
                + ": '"
                + abbreviate(pair)
                + "' is not name=value; "
                + "a line is Solr parameters (q=...&fq=...) or a JSON object");
      }
      try {
        String name = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
        String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        if (name.equals("_template")) { // ours: names the request's template, never sent
          template = value;
          continue;
        }
        names.add(name);
        sent.add(pair);
      } catch (IllegalArgumentException e) {
        throw SolrscaleException.usage(where + ": bad URL encoding in '" + abbreviate(pair) + "'");
      }
    }
    if (!names.contains("q") && !names.contains("q.alt")) {
      throw SolrscaleException.usage(where + ": no q parameter");
    }
    return new QueryRequest(
        handler,
        String.join("&", sent),
        template != null ? template : handler + " " + String.join(",", names),
        where);
  }

  static QueryRequest fromJson(String text, String where) {
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw SolrscaleException.usage(where + ": malformed JSON: " + e.getOriginalMessage());
    }
    if (!node.isObject()) {
      throw SolrscaleException.usage(where + ": a JSON line must be an object of parameters");
    }
    String handler = node.path("_handler").asText("/select");
    StringBuilder params = new StringBuilder();
    Set<String> names = new LinkedHashSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      if (f.getKey().startsWith("_")) {
        continue;
      }
      names.add(f.getKey());
      for (JsonNode v : f.getValue().isArray() ? f.getValue() : List.of(f.getValue())) {
        if (!v.isValueNode() || v.isNull()) {
          throw SolrscaleException.usage(
              where
                  + ": parameter '"
                  + f.getKey()
                  + "' must be a string, number, boolean or an array of them");
        }
        if (params.length() > 0) {
          params.append('&');
        }
        params
            .append(URLEncoder.encode(f.getKey(), StandardCharsets.UTF_8))
            .append('=')
            .append(URLEncoder.encode(v.asText(), StandardCharsets.UTF_8));
      }
    }
    if (!names.contains("q") && !names.contains("q.alt")) {
      throw SolrscaleException.usage(where + ": no q parameter");
    }
    String template =
        node.has("_template")
            ? node.get("_template").asText()
            : handler + " " + String.join(",", names);
    return new QueryRequest(handler, params.toString(), template, where);
  }

  /**
   * A query string as a person wrote it, made fit for a URL: {@code %XX} and {@code +} keep their
   * meaning, {@code &} and {@code =} still separate parameters, and every other character a URL's
   * query cannot hold as it is (space, {@code "}, {@code #}, {@code %} without two hex digits after
   * it, braces, {@code |}, {@code \}, {@code ^}, backtick, {@code < >}, {@code [ ]}, control and
   * non-ASCII characters) is percent-encoded as UTF-8.
   */
  public static String urlSafe(String query) {
    StringBuilder out = null;
    for (int i = 0; i < query.length(); ) {
      int c = query.codePointAt(i);
      int n = Character.charCount(c);
      boolean keep;
      if (c == '%') {
        keep = i + 2 < query.length() && hex(query.charAt(i + 1)) && hex(query.charAt(i + 2));
      } else {
        keep = c > ' ' && c < 127 && "\"#{}|\\^`<>[]".indexOf(c) < 0;
      }
      if (!keep && out == null) {
        out = new StringBuilder(query.length() + 16).append(query, 0, i);
      }
      if (out != null) {
        if (keep) {
          out.appendCodePoint(c);
        } else {
          for (byte b : Character.toString(c).getBytes(StandardCharsets.UTF_8)) {
            out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)));
            out.append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
          }
        }
      }
      i += n;
    }
    return out == null ? query : out.toString();
  }

  private static boolean hex(char c) {
    return Character.digit(c, 16) >= 0;
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }
}
