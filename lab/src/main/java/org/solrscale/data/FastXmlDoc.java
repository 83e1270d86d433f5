package org.solrscale.data;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Parses the common shape of a Solr XML document, {@code <doc><field
 * name="f">text</field>...</doc>}, straight from its UTF-8 bytes, about ten times cheaper than a
 * general XML parser. It gives up (returns null) on anything else: CDATA, comments, other
 * attributes, unknown entities, control characters, carriage returns (which XML would normalise),
 * or broken markup; the caller then parses the chunk with a real XML parser, which decides and
 * words any error. One per reader: it remembers the field names it has seen, so each document's
 * names are the same String objects.
 */
final class FastXmlDoc {
  private static final int MAX_NAMES = 256;
  private final boolean utf8;
  private byte[][] nameBytes = new byte[8][];
  private String[] names = new String[8];
  private int nameCount;

  /**
   * {@code utf8}: values without entities are {@link Utf8Text} (over a copy of the document's
   * bytes).
   */
  FastXmlDoc(boolean utf8) {
    this.utf8 = utf8;
  }

  /**
   * The document in {@code b[from, to)} (which starts with {@code <doc} and ends with {@code
   * </doc>}), or null.
   */
  Document parse(byte[] b, int from, int to) {
    if (utf8) { // the values point into these bytes, and the caller's buffer is reused
      b = Arrays.copyOfRange(b, from, to);
      to -= from;
      from = 0;
    }
    int i = skipStartTag(b, from + 4, to);
    if (i < 0) {
      return null;
    }
    Document d = new Document();
    while (true) {
      i = skipSpace(b, i, to);
      if (i >= to || b[i] != '<') {
        return null;
      }
      if (Bytes.startsWith(b, i, to, "</doc>")) {
        return i + 6 == to ? d : null;
      }
      if (!Bytes.startsWith(b, i, to, "<field") || i + 6 >= to || !space(b[i + 6])) {
        return null;
      }
      i = skipSpace(b, i + 6, to);
      if (!Bytes.startsWith(b, i, to, "name")) {
        return null;
      }
      i = skipSpace(b, i + 4, to);
      if (i >= to || b[i] != '=') {
        return null;
      }
      i = skipSpace(b, i + 1, to);
      if (i >= to || b[i] != '"' && b[i] != '\'') {
        return null;
      }
      int nameEnd = Bytes.indexOf(b, i + 1, to, b[i]);
      if (nameEnd < 0) {
        return null;
      }
      String name = name(b, i + 1, nameEnd);
      i = skipSpace(b, nameEnd + 1, to);
      if (name == null || i >= to || b[i] != '>') {
        return null;
      }
      int valueEnd = Bytes.indexOf(b, i + 1, to, (byte) '<');
      if (valueEnd < 0) {
        return null;
      }
      CharSequence value = text(b, i + 1, valueEnd, utf8);
      if (value == null || !Bytes.startsWith(b, valueEnd, to, "</field")) {
        return null;
      }
      i = skipSpace(b, valueEnd + 7, to);
      if (i >= to || b[i] != '>') {
        return null;
      }
      d.add(name, value);
      i++;
    }
  }

  /**
   * An attribute value without markup, entities or control characters (which XML would change), as
   * the String seen before for the same bytes.
   */
  private String name(byte[] b, int from, int to) {
    for (int n = 0; n < nameCount; n++) {
      if (Arrays.equals(nameBytes[n], 0, nameBytes[n].length, b, from, to)) {
        return names[n];
      }
    }
    for (int k = from; k < to; k++) {
      if (b[k] >= 0 && b[k] < 0x20
          || b[k] == '<'
          || b[k] == '&'
          || Cleaner.nonCharacter(b, k, to)) {
        return null;
      }
    }
    if (Cleaner.firstMalformed(b, from, to) >= 0) {
      return null; // the caller reports it
    }
    String name = new String(b, from, to - from, StandardCharsets.UTF_8);
    if (nameCount < MAX_NAMES) { // a corpus with endless distinct names still runs, uncached
      if (nameCount == names.length) {
        names = Arrays.copyOf(names, nameCount * 2);
        nameBytes = Arrays.copyOf(nameBytes, nameCount * 2);
      }
      nameBytes[nameCount] = Arrays.copyOfRange(b, from, to);
      names[nameCount++] = name;
    }
    return name;
  }

  /**
   * Past the {@code >} of {@code <doc>} or {@code <doc name="value">} (one attribute, such as a
   * boost, which is ignored); -1 for anything else, which the XML parser then judges.
   */
  private static int skipStartTag(byte[] b, int i, int to) {
    int k = skipSpace(b, i, to);
    if (k < to && b[k] == '>') {
      return k + 1;
    }
    if (k == i) { // an attribute needs white space before it
      return -1;
    }
    int name = k;
    while (k < to && (b[k] >= 'a' && b[k] <= 'z' || b[k] >= 'A' && b[k] <= 'Z' || b[k] == '_')) {
      k++;
    }
    k = skipSpace(b, k, to);
    if (k == name || k + 1 >= to || b[k] != '=') {
      return -1;
    }
    k = skipSpace(b, k + 1, to);
    if (k >= to || b[k] != '"' && b[k] != '\'') {
      return -1;
    }
    int end = Bytes.indexOf(b, k + 1, to, b[k]);
    if (end < 0) {
      return -1;
    }
    for (int v = k + 1; v < end; v++) {
      if (b[v] == '<' || b[v] == '&') {
        return -1;
      }
    }
    k = skipSpace(b, end + 1, to);
    return k < to && b[k] == '>' ? k + 1 : -1;
  }

  private static int skipSpace(byte[] b, int i, int to) {
    while (i < to && space(b[i])) {
      i++;
    }
    return i;
  }

  private static boolean space(byte c) {
    return c == ' ' || c == '\n' || c == '\t';
  }

  /**
   * Character data as text, with the five predefined entities and character references decoded
   * ({@code utf8}: as {@link Utf8Text} when there are none); null when it holds something the fast
   * path leaves to the slow path (which includes malformed UTF-8, reported there).
   */
  static CharSequence text(byte[] b, int from, int to, boolean utf8) {
    boolean entities = false;
    for (int k = from; k < to; k++) {
      byte c = b[k];
      if (c >= 0 && c < 0x20 && c != '\n' && c != '\t'
          || c == '>' && k > from + 1 && b[k - 1] == ']' && b[k - 2] == ']') {
        return null; // a control character (or '\r', which XML normalises), or "]]>"
      }
      entities |= c == '&';
      if (c
          < 0) { // a multi-byte character: malformed UTF-8 goes to the slow path, never to Solr as
        // it is
        int len = Cleaner.sequence(b, k, to);
        if (len <= 0 || len == 3 && Cleaner.nonCharacter(b, k, to)) {
          return null;
        }
        k += len - 1;
      }
    }
    return entities
        ? decode(b, from, to)
        : utf8
            ? new Utf8Text(b, from, to - from)
            : new String(b, from, to - from, StandardCharsets.UTF_8);
  }

  private static String decode(byte[] b, int from, int to) {
    StringBuilder sb = new StringBuilder(to - from);
    int run = from;
    int k = from;
    while (k < to) {
      if (b[k] != '&') {
        k++;
        continue;
      }
      sb.append(new String(b, run, k - run, StandardCharsets.UTF_8));
      int semi = Bytes.indexOf(b, k + 1, Math.min(to, k + 12), (byte) ';');
      if (semi < 0) {
        return null;
      }
      String ref = new String(b, k + 1, semi - k - 1, StandardCharsets.US_ASCII);
      int cp =
          switch (ref) {
            case "amp" -> '&';
            case "lt" -> '<';
            case "gt" -> '>';
            case "quot" -> '"';
            case "apos" -> '\'';
            default -> charRef(ref);
          };
      if (cp < 0) {
        return null;
      }
      sb.appendCodePoint(cp);
      k = semi + 1;
      run = k;
    }
    return sb.append(new String(b, run, to - run, StandardCharsets.UTF_8)).toString();
  }

  /** {@code #123} or {@code #x1F} as a code point XML 1.0 allows; -1 otherwise. */
  private static int charRef(String ref) {
    boolean hex = ref.startsWith("#x");
    if (!ref.startsWith("#")
        || ref.length() < (hex ? 3 : 2)
        || !ref.substring(hex ? 2 : 1)
            .chars()
            .allMatch(
                c ->
                    Character.digit(c, hex ? 16 : 10) >= 0
                        && c < 0x80)) { // digits only: parseInt would take "+65"
      return -1;
    }
    try {
      int cp =
          ref.charAt(1) == 'x'
              ? Integer.parseInt(ref.substring(2), 16)
              : Integer.parseInt(ref.substring(1));
      return SolrXmlWriter.allowed(cp) ? cp : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
