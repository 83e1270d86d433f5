package org.solrscale.data;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Solr's XML update format, one field per line. Written by hand rather than through StAX's writer,
 * which leaves a tab or line feed in an attribute as it is: a parser reads those back as spaces
 * (attribute value normalisation), so a field name holding one would change. Here they are
 * character references, as is a carriage return in text, which a parser would otherwise drop.
 */
final class SolrXmlWriter implements CorpusWriter {
  private final Writer w;
  private final StringBuilder doc = new StringBuilder();

  SolrXmlWriter(OutputStream out) throws IOException {
    this.w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    w.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<add>\n");
  }

  /**
   * Why a document cannot be written as XML 1.0, or null: a field name or text value holds a
   * character XML forbids (a control character, say, from a JSON escape or a CSV cell). Values read
   * from XML ({@link Utf8Text}) are valid already.
   */
  static String unwritable(Document d) {
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      int cp = forbidden(f.getKey());
      if (cp >= 0) {
        return String.format(
            "a field name holds U+%04X, which XML 1.0 forbids: convert to jsonl "
                + "or json instead, or remove the character from the input",
            cp);
      }
      for (Object v : f.getValue()) {
        cp = v instanceof String s ? forbidden(s) : -1;
        if (cp >= 0) {
          return String.format(
              "field '%s' holds U+%04X, which XML 1.0 forbids: convert to jsonl "
                  + "or json instead, or remove the character from the input",
              f.getKey(), cp);
        }
      }
    }
    for (Document c : d.children()) {
      String why = unwritable(c);
      if (why != null) {
        return "a child document: " + why;
      }
    }
    return null;
  }

  /** The first code point of {@code s} that XML 1.0 forbids (a lone surrogate included), or -1. */
  static int forbidden(String s) {
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (!allowed(cp)) {
        return cp;
      }
      i += Character.charCount(cp);
    }
    return -1;
  }

  /** Whether XML 1.0 allows the code point (a lone surrogate is not one). */
  static boolean allowed(int cp) {
    return cp >= 0x20 && cp <= 0xD7FF
        || cp == 0x9
        || cp == 0xA
        || cp == 0xD
        || cp >= 0xE000 && cp <= 0xFFFD
        || cp >= 0x10000 && cp <= 0x10FFFF;
  }

  @Override
  public void write(Document d) throws IOException {
    String why = unwritable(d);
    if (why != null) { // the callers check first; never write a file that cannot be read back
      throw new IOException("document " + d.first("id") + ": " + why);
    }
    doc.setLength(0);
    write(d, "");
    w.append(doc); // one write a document: the byte count a size limit reads stays close
  }

  /** A document, its children nested inside it (after its fields), each level indented more. */
  private void write(Document d, String indent) {
    doc.append(indent).append("<doc>\n");
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      for (Object v : f.getValue()) {
        doc.append(indent).append("  <field name=\"");
        escape(f.getKey(), true);
        doc.append("\">");
        escape(String.valueOf(v), false);
        doc.append("</field>\n");
      }
    }
    for (Document c : d.children()) {
      write(c, indent + "  ");
    }
    doc.append(indent).append("</doc>\n");
  }

  /** Text or (with {@code attribute}) a double-quoted attribute value, escaped. */
  private void escape(String s, boolean attribute) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> doc.append("&amp;");
        case '<' -> doc.append("&lt;");
        case '>' -> doc.append("&gt;"); // "]]>" may not stand in text
        case '"' -> doc.append(attribute ? "&quot;" : "\"");
        case '\r' -> doc.append("&#13;");
        case '\t' -> doc.append(attribute ? "&#9;" : "\t");
        case '\n' -> doc.append(attribute ? "&#10;" : "\n");
        default -> doc.append(c);
      }
    }
  }

  @Override
  public void close() throws IOException {
    w.write("</add>\n");
    w.close();
  }
}
