package org.solrscale.data;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A JSON array of objects, streamed one object at a time. Broken JSON syntax cannot be
 * resynchronised reliably inside an array: it is reported once and the rest of the file skipped. A
 * well-formed object with a duplicate key is reported alone, and the next one read.
 */
final class JsonArrayReader implements CorpusReader {
  private static final ObjectMapper JSON = JsonDocuments.mapper();
  private final Utf8Guard guard;
  private final JsonParser parser;
  private final String source;
  private boolean started;

  /** The array's parsing context: the parser is between documents when it is the current one. */
  private JsonStreamContext array;

  private boolean done;
  private long ordinal;

  JsonArrayReader(InputStream in, String source) throws IOException {
    this.guard = new Utf8Guard(in, true);
    this.parser = JSON.getFactory().createParser(guard);
    this.source = source;
  }

  @Override
  public Item next() throws IOException {
    if (done) {
      return null;
    }
    long line = parser.currentLocation().getLineNr();
    try {
      if (!started) {
        started = true;
        JsonToken first = parser.nextToken();
        if (first == null) {
          done = true;
          return null;
        }
        if (first != JsonToken.START_ARRAY) {
          done = true;
          return Item.bad(
              "expected a JSON array of documents (or use .jsonl for one per line)",
              source,
              1,
              parser.currentTokenLocation().getLineNr());
        }
        array = parser.getParsingContext();
      }
      JsonToken t = parser.nextToken();
      if (t == JsonToken.END_ARRAY || t == null) {
        done = true;
        if (t == JsonToken.END_ARRAY
            && parser.nextToken() != null) { // never dropped without a word
          return Item.bad(
              "more after the end of the JSON array, which is not read: one array per "
                  + "file (or use JSON Lines)",
              source,
              ordinal + 1,
              parser.currentTokenLocation().getLineNr());
        }
        return null;
      }
      line = parser.currentTokenLocation().getLineNr();
      ordinal++;
      JsonNode node = JSON.readTree(parser);
      if (malformedSoFar()) {
        return Item.bad(guard.invalid(), source, ordinal, line);
      }
      try {
        return Item.ok(JsonDocuments.fromObject(node), source, ordinal, line);
      } catch (IllegalArgumentException e) {
        return Item.bad(e.getMessage(), source, ordinal, line);
      }
    } catch (MismatchedInputException e) {
      // well-formed JSON the tree refused (a duplicate key)
      return skipObject(
          JsonDocuments.why(e), e.getLocation() == null ? line : e.getLocation().getLineNr());
    } catch (NumberFormatException e) { // a number no Java type holds (an exponent overflow)
      return skipObject(JsonDocuments.why(e), line);
    } catch (JsonProcessingException e) {
      done = true;
      long at = e.getLocation() == null ? line : e.getLocation().getLineNr();
      return Item.bad(
          JsonDocuments.why(e) + " (the rest of the file is skipped)", source, ordinal + 1, at);
    }
  }

  /**
   * The object being read is reported for {@code why}: the parser is sound, so it reads on after
   * that object (unless broken syntax follows in it, which ends the file).
   */
  private Item skipObject(String why, long at) throws IOException {
    try {
      while (parser.getParsingContext() != array) {
        if (parser.nextToken() == null) {
          done = true;
          break;
        }
      }
    } catch (JsonProcessingException broken) {
      done = true;
      return Item.bad(
          why + "; then " + JsonDocuments.why(broken) + " (the rest of the file is skipped)",
          source,
          ordinal,
          at);
    }
    malformedSoFar(); // this object's invalid UTF-8, if any, is not the next one's
    return Item.bad(why, source, ordinal, at);
  }

  /** Whether invalid UTF-8 was replaced in what the parser has consumed and no object claimed. */
  private boolean malformedSoFar() {
    return guard.firstMalformedUpTo(parser.currentLocation().getByteOffset() - 1) >= 0;
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
