package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicLong;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Solr XML. The bytes are cut into {@code <doc>...</doc>} chunks first ({@link XmlChunks}) and each
 * chunk parsed on its own, so a broken document (bad character, unclosed tag, missing end) is
 * reported with its line and the next {@code <doc>} is read as usual. Plain chunks are parsed
 * straight from the bytes ({@link FastXmlDoc}); the rest by StAX. A document with nested child
 * documents is reported whole (not supported yet), never as its children on their own.
 */
final class SolrXmlReader implements CorpusReader {
  private static final XMLInputFactory XML = XMLInputFactory.newFactory();

  static {
    XML.setProperty(XMLInputFactory.IS_COALESCING, true);
    XML.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    XML.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
  }

  private final XmlChunks chunks;
  private final FastXmlDoc fast;
  private final String source;
  private long ordinal;
  private final String notXml;

  /** Why a document with bytes that are not UTF-8 is bad: the input's, or its transcoding's. */
  private final String invalid;

  /**
   * {@code utf8}: see {@link Corpus#open(java.nio.file.Path, Format,
   * java.util.concurrent.atomic.AtomicLong, boolean)}.
   */
  SolrXmlReader(InputStream in, String source, boolean utf8) throws IOException {
    PushbackInputStream head = new PushbackInputStream(in, 4096);
    this.notXml = notXml(head);
    this.chunks = new XmlChunks(head);
    this.fast = new FastXmlDoc(utf8);
    this.source = source;
    this.invalid = in instanceof Transcoder t ? t.invalid() : Utf8Guard.INVALID;
  }

  /**
   * Why the stream is not XML, if its first character (after white space and a byte order mark) is
   * not '<': CSV or JSON under an .xml name would otherwise give no document and no error.
   */
  private static String notXml(PushbackInputStream in) throws IOException {
    byte[] b = new byte[4096];
    int n = in.readNBytes(b, 0, b.length);
    in.unread(b, 0, n);
    int i = Corpus.firstSignificant(b, n);
    if (i == n || b[i] == '<') {
      return null;
    }
    String first =
        b[i] > 0x20 && b[i] < 0x7F
            ? "'" + (char) b[i] + "'"
            : String.format("byte 0x%02X", b[i] & 0xFF);
    return "not Solr XML (it starts with "
        + first
        + ", not '<'): give --format jsonl, json or csv, "
        + "or a file name that says which";
  }

  /** As above, for a file (raw split, which reads no documents, says it as the reader does). */
  static String notXml(Path file) throws IOException {
    try (PushbackInputStream in =
        new PushbackInputStream(Corpus.input(file, new AtomicLong()), 4096)) {
      return notXml(in);
    }
  }

  @Override
  public Item next() throws IOException {
    Item item = read();
    return item == null || item.ok() || notXml != null
        ? item
        : item.withRaw(
            new String(
                chunks.buf,
                chunks.start,
                chunks.end - chunks.start,
                StandardCharsets.UTF_8)); // the markup, so that it can be mended from the rejects
  }

  private Item read() throws IOException {
    if (notXml != null) {
      if (ordinal > 0) {
        return null;
      }
      ordinal++;
      return Item.bad(notXml, source, 1, 1);
    }
    if (!chunks.next()) {
      return null;
    }
    ordinal++;
    long line = chunks.problemLine();
    if (chunks.error != null) {
      return Item.bad(chunks.error, source, ordinal, line);
    }
    Document d = chunks.children > 0 ? null : fast.parse(chunks.buf, chunks.start, chunks.end);
    if (d != null) {
      return Item.ok(d, source, ordinal, line);
    }
    if (Cleaner.firstMalformed(chunks.buf, chunks.start, chunks.end) >= 0) {
      return Item.bad(invalid, source, ordinal, line); // never altered silently
    }
    // anything the fast path does not know (CDATA, comments, entities it does not decode, bad
    // characters, broken markup) goes through a real XML parser, which also words the error
    String text =
        new String(chunks.buf, chunks.start, chunks.end - chunks.start, StandardCharsets.UTF_8);
    return parse(text, line);
  }

  private Item parse(String chunk, long startLine) {
    try {
      XMLStreamReader x = XML.createXMLStreamReader(new StringReader(chunk));
      Deque<Document> open = new ArrayDeque<>(); // the document and the children being read
      Document root = null;
      String field = null;
      StringBuilder value = new StringBuilder();
      while (x.hasNext()) {
        int e = x.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          String name = x.getLocalName();
          if ("field".equals(name) && field == null) {
            field = x.getAttributeValue(null, "name");
            if (field == null) {
              return bad("<field> without a name attribute", x, startLine);
            }
            for (int a = 0; a < x.getAttributeCount(); a++) {
              String attr = x.getAttributeLocalName(a);
              if (!"name".equals(attr) && !"boost".equals(attr)) { // Solr ignores boosts too
                return bad(
                    "<field name=\""
                        + field
                        + "\"> has "
                        + attr
                        + "=\""
                        + x.getAttributeValue(a)
                        + "\": atomic updates are not supported (solrscale sends whole documents, which "
                        + "would replace the stored ones)",
                    x,
                    startLine);
              }
            }
            value.setLength(0);
          } else if ("doc".equals(name) && field == null) {
            Document d = new Document();
            if (open.isEmpty()) {
              root = d;
            } else {
              open.peek().addChild(d);
            }
            open.push(d);
          } else if ("doc".equals(name)) {
            return bad(
                "a <doc> inside a <field> (a labelled child document) is not supported; put "
                    + "the child <doc> straight inside its parent's <doc>",
                x,
                startLine);
          } else {
            return bad("unexpected <" + name + "> in a document", x, startLine);
          }
        } else if (e == XMLStreamConstants.CHARACTERS && field != null) {
          value.append(x.getText());
        } else if ((e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA)
            && field == null
            && !xmlSpace(x.getText())) { // Solr ignores it: it would be lost without a word
          String t = x.getText().strip();
          return bad(
              "text outside any <field> in a document: '"
                  + (t.length() > 40 ? t.substring(0, 40) + "...'" : t + "'")
                  + " (Solr would drop it): put it in a "
                  + "<field name=\"...\">",
              x,
              startLine);
        } else if (e == XMLStreamConstants.END_ELEMENT && "field".equals(x.getLocalName())) {
          open.peek().add(field, value.toString());
          field = null;
        } else if (e == XMLStreamConstants.END_ELEMENT && "doc".equals(x.getLocalName())) {
          open.pop();
        }
      }
      return Item.ok(root, source, ordinal, startLine);
    } catch (XMLStreamException e) {
      long at =
          e.getLocation() == null ? startLine : startLine + e.getLocation().getLineNumber() - 1;
      String msg = e.getMessage() == null ? "malformed XML" : e.getMessage();
      int idx = msg.indexOf("Message: ");
      msg = idx >= 0 ? msg.substring(idx + 9) : msg;
      return Item.bad("malformed XML: " + msg.replaceAll("\\s+", " ").trim(), source, ordinal, at);
    }
  }

  /** Whether the text is XML white space only (space, tab, line feed, carriage return). */
  private static boolean xmlSpace(String text) {
    return text.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\n' || c == '\r');
  }

  private Item bad(String error, XMLStreamReader x, long startLine) {
    return Item.bad(error, source, ordinal, startLine + x.getLocation().getLineNumber() - 1);
  }

  @Override
  public void close() throws IOException {
    chunks.close();
  }
}
