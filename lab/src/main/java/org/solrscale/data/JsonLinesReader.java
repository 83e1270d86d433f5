package org.solrscale.data;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** JSON Lines: one object per line; a broken line is reported and the next line read. */
final class JsonLinesReader implements CorpusReader {
  private static final ObjectMapper JSON = JsonDocuments.mapper();
  private final Utf8Guard guard;
  private final BufferedReader in;
  private final String source;
  private long line;
  private long ordinal;

  JsonLinesReader(InputStream in, String source) {
    this.guard = new Utf8Guard(in);
    this.in = new BufferedReader(new InputStreamReader(guard, StandardCharsets.UTF_8), 1 << 16);
    this.source = source;
  }

  @Override
  public Item next() throws IOException {
    String text;
    while ((text = in.readLine()) != null) {
      line++;
      if (text.isBlank()) {
        continue;
      }
      ordinal++;
      if (guard.firstMalformedUpTo(line) >= 0) {
        return Item.bad(Utf8Guard.INVALID, source, ordinal, line).withRaw(text);
      }
      try {
        return Item.ok(JsonDocuments.fromObject(readLine(text)), source, ordinal, line);
      } catch (JsonProcessingException e) {
        return Item.bad(JsonDocuments.why(e), source, ordinal, line).withRaw(text);
      } catch (IllegalArgumentException e) {
        return Item.bad(e.getMessage(), source, ordinal, line).withRaw(text);
      }
    }
    return null;
  }

  /** The one JSON value of a line; anything after it is an error, never dropped. */
  private static JsonNode readLine(String text) throws IOException {
    try (JsonParser p = JSON.createParser(text)) {
      JsonNode node = JSON.readTree(p);
      if (node == null) {
        throw new IllegalArgumentException("no JSON value on the line");
      }
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("more than one JSON value on the line, at column "
            + p.currentTokenLocation().getColumnNr() + ": JSON Lines holds one document per line");
      }
      return node;
    }
  }

  static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
