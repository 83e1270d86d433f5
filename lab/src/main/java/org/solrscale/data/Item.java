package org.solrscale.data;

/**
 * What a reader yields: a document, or the reason the input at that place is not one. {@code
 * ordinal} counts documents and failures from 1 within the file; {@code line} is where it starts.
 */
public record Item(Document document, String source, long ordinal, long line, String error) {
  public static Item ok(Document d, String source, long ordinal, long line) {
    return new Item(d, source, ordinal, line, null);
  }

  public static Item bad(String error, String source, long ordinal, long line) {
    return new Item(null, source, ordinal, line, error);
  }

  public boolean ok() {
    return document != null;
  }

  /** file:line, for messages. */
  public String where() {
    return source + ":" + line;
  }
}
