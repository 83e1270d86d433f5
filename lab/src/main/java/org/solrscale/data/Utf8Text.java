package org.solrscale.data;

import java.nio.charset.StandardCharsets;

/**
 * A text value kept as the UTF-8 bytes it was read as, decoded only when someone asks for its
 * characters. The indexer hands these bytes to Solr's javabin encoder as they are, which saves
 * decoding every value into a String and encoding it back, character by character (about a sixth of
 * the client's CPU on XML). It equals any CharSequence with the same characters.
 */
public final class Utf8Text implements CharSequence {
  private final byte[] bytes;
  private final int offset;
  private final int byteLength;
  private String text;

  /** {@code bytes[offset, offset + byteLength)}, valid UTF-8, which must not change afterwards. */
  Utf8Text(byte[] bytes, int offset, int byteLength) {
    this.bytes = bytes;
    this.offset = offset;
    this.byteLength = byteLength;
  }

  public byte[] bytes() {
    return bytes;
  }

  public int offset() {
    return offset;
  }

  public int byteLength() {
    return byteLength;
  }

  @Override
  public String toString() {
    if (text == null) {
      text = new String(bytes, offset, byteLength, StandardCharsets.UTF_8);
    }
    return text;
  }

  @Override
  public int length() {
    return toString().length();
  }

  @Override
  public char charAt(int index) {
    return toString().charAt(index);
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return toString().subSequence(start, end);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CharSequence c && toString().contentEquals(c);
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
