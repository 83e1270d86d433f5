package org.solrscale.data;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * JSON Lines: one object per line; a broken line is reported and the next line read. A line is held
 * whole only up to a limit: a longer one (a whole file on one line, say) is reported and skipped,
 * so memory stays bounded.
 */
final class JsonLinesReader implements CorpusReader {
  private static final ObjectMapper JSON = JsonDocuments.mapper();

  /** The longest line read, in characters: as long as the longest string Jackson is let read. */
  static final int MAX_LINE = 256 << 20;

  static final String TOO_LONG =
      "the line is longer than "
          + (MAX_LINE >> 20)
          + " M characters, so "
          + "it was skipped: JSON Lines holds one document per line (a file that is one JSON array of "
          + "documents is read as .json, or with --format json)";

  private final Utf8Guard guard;
  private final Reader in;
  private final String source;
  private final int maxLine;
  private long line;
  private final char[] chars = new char[1 << 16];
  private int charsPos;
  private int charsLimit;

  /** Whether the last line ended with '\r', so a '\n' right after it ends nothing more. */
  private boolean afterCr;

  private StringBuilder lineText = new StringBuilder();
  private long ordinal;

  JsonLinesReader(InputStream in, String source) {
    this(in, source, MAX_LINE);
  }

  /** With a smaller {@code maxLine}, for tests. */
  JsonLinesReader(InputStream in, String source, int maxLine) {
    this.guard = new Utf8Guard(in);
    this.in = new InputStreamReader(guard, StandardCharsets.UTF_8);
    this.source = source;
    this.maxLine = maxLine;
  }

  /**
   * The next line without its end ({@code \n}, {@code \r} or {@code \r\n}, as Jackson and {@link
   * java.io.BufferedReader} count them), null at the end of the input, or {@link #TOO_LONG} (the
   * same instance) for a line longer than {@link #maxLine}, whose characters are not kept.
   */
  private String nextLine() throws IOException {
    if (lineText.capacity() > 1 << 22) { // a long line's room is not kept for the short ones
      lineText = new StringBuilder();
    }
    lineText.setLength(0);
    boolean any = false;
    boolean tooLong = false;
    while (true) {
      if (charsPos == charsLimit) {
        charsLimit = Math.max(in.read(chars, 0, chars.length), 0);
        charsPos = 0;
        if (charsLimit == 0) {
          return !any ? null : tooLong ? TOO_LONG : lineText.toString();
        }
      }
      if (afterCr) {
        afterCr = false;
        if (chars[charsPos] == '\n') {
          charsPos++;
          continue;
        }
      }
      any = true;
      int k = charsPos;
      while (k < charsLimit && chars[k] != '\n' && chars[k] != '\r') {
        k++;
      }
      if (!tooLong && lineText.length() + (k - charsPos) > maxLine) {
        tooLong = true;
        lineText = new StringBuilder(); // what it held goes
      }
      if (!tooLong) {
        lineText.append(chars, charsPos, k - charsPos);
      }
      if (k < charsLimit) {
        afterCr = chars[k] == '\r';
        charsPos = k + 1;
        return tooLong ? TOO_LONG : lineText.toString();
      }
      charsPos = k;
    }
  }

  @Override
  public Item next() throws IOException {
    String text;
    while ((text = nextLine()) != null) {
      line++;
      if (blank(text)) {
        continue;
      }
      ordinal++;
      if (text == TOO_LONG) { // identity: the marker, not a line that reads the same
        guard.firstMalformedUpTo(line); // invalid UTF-8 in it is not the next line's
        return Item.bad(TOO_LONG, source, ordinal, line);
      }
      if (guard.firstMalformedUpTo(line) >= 0) {
        return Item.bad(guard.invalid(), source, ordinal, line).withRaw(text);
      }
      if (text.charAt(0) == '\uFEFF') { // the guard skipped the one at the start of the file
        return Item.bad(MARK, source, ordinal, line).withRaw(text);
      }
      try {
        return Item.ok(JsonDocuments.fromObject(readLine(text)), source, ordinal, line);
      } catch (JsonProcessingException e) {
        return Item.bad(
                JsonDocuments.why(e)
                    + (text.stripLeading().startsWith("<")
                        ? " (a line of Solr XML? an XML file is read as .xml, or with --format xml)"
                        : ""),
                source,
                ordinal,
                line)
            .withRaw(text);
      } catch (NumberFormatException e) {
        return Item.bad(JsonDocuments.why(e), source, ordinal, line).withRaw(text);
      } catch (IllegalArgumentException e) {
        String why =
            e.getMessage().endsWith("found array")
                ? e.getMessage()
                    + ": a file that is "
                    + "one JSON array of documents is read as .json, or with --format json"
                : e.getMessage();
        return Item.bad(why, source, ordinal, line).withRaw(text);
      }
    }
    return null;
  }

  static final String MARK =
      "the line starts with a byte order mark (U+FEFF), which only the start "
          + "of a file may hold (files joined with cat?): remove it";

  /** Whether a line holds JSON's white space only (a line with anything else is reported). */
  static boolean blank(CharSequence text) {
    for (int k = 0; k < text.length(); k++) {
      char c = text.charAt(k);
      if (c != ' ' && c != '\t') { // line ends are not in it
        return false;
      }
    }
    return true;
  }

  /** The one JSON value of a line; anything after it is an error, never dropped. */
  private static JsonNode readLine(String text) throws IOException {
    try (JsonParser p = JSON.createParser(text)) {
      JsonNode node = JSON.readTree(p);
      if (node == null) {
        throw new IllegalArgumentException("no JSON value on the line");
      }
      if (p.nextToken() != null) {
        throw new IllegalArgumentException(
            "more than one JSON value on the line, at column "
                + p.currentTokenLocation().getColumnNr()
                + ": JSON Lines holds one document per line");
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
