package org.solrscale.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Solr XML. The text is cut into {@code <doc>...</doc>} chunks first and each chunk parsed on its
 * own, so a broken document (bad character, unclosed tag, missing end) is reported with its line
 * and the next {@code <doc>} is read as usual. Nested child documents are not supported yet.
 */
final class SolrXmlReader implements CorpusReader {
  private static final XMLInputFactory XML = XMLInputFactory.newFactory();

  static {
    XML.setProperty(XMLInputFactory.IS_COALESCING, true);
    XML.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    XML.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
  }

  private final BufferedReader in;
  private final String source;
  private long line = 1;
  private long ordinal;
  /** A doc start read while inside another doc: the next chunk begins there. */
  private boolean pendingStart;
  private long pendingLine;
  /** One character read ahead and given back. */
  private int pushed = -1;

  SolrXmlReader(InputStream in, String source) {
    this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    this.source = source;
  }

  @Override
  public Item next() throws IOException {
    long start;
    if (pendingStart) {
      pendingStart = false;
      start = pendingLine;
    } else if (!skipToDocStart()) {
      return null;
    } else {
      start = line;
    }
    StringBuilder chunk = new StringBuilder(1024).append("<doc");
    int c;
    while ((c = read()) >= 0) {
      chunk.append((char) c);
      if (c == '>' && endsWith(chunk, "</doc>")) {
        ordinal++;
        return parse(chunk.toString(), start);
      }
      if (isDocStartChar(c) && chunk.length() > 5 && endsWith(chunk, "<doc" + (char) c)) {
        // a new document begins before this one ended: report this one, resume at the new one
        ordinal++;
        pendingStart = true;
        pendingLine = line;
        pushed = c;
        return Item.bad("document is not closed before the next <doc> (missing </doc>; nested "
            + "child documents are not supported)", source, ordinal, start);
      }
    }
    ordinal++;
    return Item.bad("document is not closed before the end of the file", source, ordinal, start);
  }

  private int read() throws IOException {
    if (pushed >= 0) {
      int c = pushed;
      pushed = -1;
      return c;
    }
    int c = in.read();
    if (c == '\n') {
      line++;
    }
    return c;
  }

  private static boolean isDocStartChar(int c) {
    return c == '>' || c == '/' || Character.isWhitespace(c);
  }

  /** Reads up to and including "<doc" when followed by whitespace, '>' or '/'; false at the end. */
  private boolean skipToDocStart() throws IOException {
    String pattern = "<doc";
    int matched = 0;
    int c;
    while ((c = read()) >= 0) {
      if (matched == 4 && isDocStartChar(c)) {
        pushed = c; // the chunk goes on with it
        return true;
      }
      matched = matched < 4 && c == pattern.charAt(matched) ? matched + 1 : (c == '<' ? 1 : 0);
    }
    return false;
  }

  private static boolean endsWith(StringBuilder sb, String s) {
    int n = sb.length();
    return n >= s.length() && s.contentEquals(sb.subSequence(n - s.length(), n));
  }

  private Item parse(String chunk, long startLine) {
    try {
      XMLStreamReader x = XML.createXMLStreamReader(new StringReader(chunk));
      Document d = new Document();
      String field = null;
      StringBuilder value = new StringBuilder();
      while (x.hasNext()) {
        int e = x.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          String name = x.getLocalName();
          if ("field".equals(name)) {
            field = x.getAttributeValue(null, "name");
            if (field == null) {
              return Item.bad("<field> without a name attribute", source, ordinal,
                  startLine + x.getLocation().getLineNumber() - 1);
            }
            value.setLength(0);
          } else if (!"doc".equals(name)) {
            return Item.bad("unexpected <" + name + "> in a document", source, ordinal,
                startLine + x.getLocation().getLineNumber() - 1);
          }
        } else if (e == XMLStreamConstants.CHARACTERS && field != null) {
          value.append(x.getText());
        } else if (e == XMLStreamConstants.END_ELEMENT && "field".equals(x.getLocalName())) {
          d.add(field, value.toString());
          field = null;
        }
      }
      return Item.ok(d, source, ordinal, startLine);
    } catch (XMLStreamException e) {
      long at = e.getLocation() == null ? startLine : startLine + e.getLocation().getLineNumber() - 1;
      String msg = e.getMessage() == null ? "malformed XML" : e.getMessage();
      int idx = msg.indexOf("Message: ");
      msg = idx >= 0 ? msg.substring(idx + 9) : msg;
      return Item.bad("malformed XML: " + msg.replaceAll("\\s+", " ").trim(), source, ordinal, at);
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
