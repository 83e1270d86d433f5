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

  @Override
  public void write(Document d) throws IOException {
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
