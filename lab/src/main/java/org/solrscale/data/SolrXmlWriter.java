package org.solrscale.data;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/** Solr's XML update format, one field per line. */
final class SolrXmlWriter implements CorpusWriter {
  private final OutputStream raw;
  private final XMLStreamWriter x;

  SolrXmlWriter(OutputStream out) throws IOException {
    this.raw = out;
    try {
      this.x = XMLOutputFactory.newFactory().createXMLStreamWriter(out, "UTF-8");
      x.writeStartDocument("UTF-8", "1.0");
      x.writeCharacters("\n");
      x.writeStartElement("add");
      x.writeCharacters("\n");
    } catch (XMLStreamException e) {
      throw new IOException(e.getMessage(), e);
    }
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
        return String.format("a field name holds U+%04X, which XML 1.0 forbids: convert to jsonl "
            + "or json instead, or remove the character from the input", cp);
      }
      for (Object v : f.getValue()) {
        cp = v instanceof String s ? forbidden(s) : -1;
        if (cp >= 0) {
          return String.format("field '%s' holds U+%04X, which XML 1.0 forbids: convert to jsonl "
              + "or json instead, or remove the character from the input", f.getKey(), cp);
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
    return cp >= 0x20 && cp <= 0xD7FF || cp == 0x9 || cp == 0xA || cp == 0xD
        || cp >= 0xE000 && cp <= 0xFFFD || cp >= 0x10000 && cp <= 0x10FFFF;
  }

  @Override
  public void write(Document d) throws IOException {
    String why = unwritable(d);
    if (why != null) { // the callers check first; never write a file that cannot be read back
      throw new IOException("document " + d.first("id") + ": " + why);
    }
    try {
      write(d, "");
    } catch (XMLStreamException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** A document, its children nested inside it (after its fields), each level indented more. */
  private void write(Document d, String indent) throws XMLStreamException {
    x.writeCharacters(indent);
    x.writeStartElement("doc");
    x.writeCharacters("\n");
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      for (Object v : f.getValue()) {
        x.writeCharacters(indent + "  ");
        x.writeStartElement("field");
        x.writeAttribute("name", f.getKey());
        text(String.valueOf(v));
        x.writeEndElement();
        x.writeCharacters("\n");
      }
    }
    for (Document c : d.children()) {
      write(c, indent + "  ");
    }
    x.writeCharacters(indent);
    x.writeEndElement();
    x.writeCharacters("\n");
  }

  /** Character data; a carriage return as {@code &#13;}, which a parser would otherwise drop. */
  private void text(String v) throws XMLStreamException {
    int from = 0;
    for (int cr = v.indexOf('\r'); cr >= 0; cr = v.indexOf('\r', from)) {
      x.writeCharacters(v.substring(from, cr));
      x.writeEntityRef("#13");
      from = cr + 1;
    }
    x.writeCharacters(from == 0 ? v : v.substring(from));
  }

  @Override
  public void close() throws IOException {
    try {
      x.writeEndElement();
      x.writeCharacters("\n");
      x.writeEndDocument();
      x.close();
    } catch (XMLStreamException e) {
      throw new IOException(e.getMessage(), e);
    }
    raw.close();
  }
}
