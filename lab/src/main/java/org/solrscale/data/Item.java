package org.solrscale.data;

/**
 * What a reader yields: a document, or the reason the input at that place is not one. {@code
 * ordinal} counts documents and failures from 1 within the file; {@code line} is where it starts.
 * {@code raw}: for a failure, the input text it was, where the reader has it (a JSON line, an XML
 * document's markup), else null.
 */
public record Item(
    Document document, String source, long ordinal, long line, String error, String raw) {
  public static Item ok(Document d, String source, long ordinal, long line) {
    return new Item(d, source, ordinal, line, null, null);
  }

  public static Item bad(String error, String source, long ordinal, long line) {
    return new Item(null, source, ordinal, line, error, null);
  }

  /** The same failure with the input text it was. */
  public Item withRaw(String text) {
    return new Item(
        document, source, ordinal, line, error, text == null || text.isEmpty() ? null : text);
  }

  public boolean ok() {
    return document != null;
  }

  /** file:line, for messages. */
  public String where() {
    return source + ":" + line;
  }
}
