package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkScannerTest {

  /** What the scanner found: the text of each range, its first line, and its error if any. */
  static List<String> scan(ChunkScanner c) throws IOException {
    List<String> out = new ArrayList<>();
    while (c.next()) {
      out.add(c.lineAt(c.start) + ":" + (c.error == null ? "" : "ERR ")
          + new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** The text with every comment and CDATA section blanked out (line feeds kept). */
  static String mask(String text) {
    StringBuilder sb = new StringBuilder(text);
    int i = 0;
    while (true) {
      int c = text.indexOf("<!--", i);
      int d = text.indexOf("<![CDATA[", i);
      if (c < 0 && d < 0) {
        return sb.toString();
      }
      boolean comment = c >= 0 && (d < 0 || c < d);
      int s = comment ? c : d;
      int e = text.indexOf(comment ? "-->" : "]]>", s + (comment ? 4 : 9));
      e = e < 0 ? text.length() : e + 3;
      for (int k = s; k < e; k++) {
        sb.setCharAt(k, text.charAt(k) == '\n' ? '\n' : '_');
      }
      i = e;
    }
  }

  /** A reference scan by String.indexOf over the masked text, slow and obviously right. */
  static List<String> reference(String original) {
    String text = mask(original);
    List<String> out = new ArrayList<>();
    int pos = 0;
    while (true) {
      int s = nextStart(text, pos);
      if (s < 0) {
        return out;
      }
      int e = text.indexOf("</doc>", s + 4);
      int nested = nextStart(text, s + 4);
      String line = (text.substring(0, s).chars().filter(ch -> ch == '\n').count() + 1) + ":";
      if (e < 0 && nested < 0) {
        out.add(line + "ERR " + original.substring(s));
        return out;
      }
      if (nested >= 0 && (e < 0 || nested < e)) {
        out.add(line + "ERR " + original.substring(s, nested));
        pos = nested;
      } else {
        out.add(line + original.substring(s, e + 6));
        pos = e + 6;
      }
    }
  }

  private static int nextStart(String text, int from) {
    int i = from;
    while ((i = text.indexOf("<doc", i)) >= 0) {
      if (i + 4 < text.length() && "> /\n\t\r".indexOf(text.charAt(i + 4)) >= 0) {
        return i;
      }
      i++;
    }
    return -1;
  }

  static String randomXml(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<add>\n");
    for (int i = 0; i < 300; i++) {
      int kind = r.nextInt(20);
      sb.append(kind == 0 ? "<doc boost=\"2\">" : "<doc>");
      sb.append("<field name=\"id\">").append(i).append("</field>");
      sb.append("<field name=\"t\">").append("wörd <docs> ".repeat(r.nextInt(30)));
      sb.append(kind == 3 ? "<![CDATA[ </doc><doc> ]]]>" : "").append("</field>\n");
      sb.append(kind == 4 ? "<!-- </doc> <!-- <doc> -- -->" : "");
      if (kind == 5) {
        sb.append("</doc>\n<!-- <doc>\n<field name=\"id\">commented</field></doc> --->\n<!---->");
        continue;
      }
      if (kind == 1) {
        continue; // missing </doc>
      }
      sb.append(kind == 2 ? "</doc></add>\n<add>\n" : "</doc>\n");
    }
    return sb.append("<doc><field name=\"id\">last</field>").toString(); // unclosed at the end
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 13, 64, 1 << 20})
  void xmlChunksMatchTheReferenceWhateverTheBufferSize(int bufferSize) throws IOException {
    for (long seed = 1; seed <= 3; seed++) {
      String text = randomXml(seed);
      XmlChunks c = new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
          bufferSize);
      assertThat(scan(c)).isEqualTo(reference(text));
    }
  }

  @Test
  void aSectionNotClosedBetweenDocumentsIsReportedFromItsStart() throws IOException {
    String text = "<add><doc><field name=\"id\">1</field></doc>\n<!-- <doc></doc>\n<doc></doc>";
    XmlChunks c = new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 8);
    assertThat(scan(c)).containsExactly("1:<doc><field name=\"id\">1</field></doc>",
        "2:ERR <!-- <doc></doc>\n<doc></doc>");
    assertThat(XmlChunks.SECTION_NOT_CLOSED).contains("not closed");
  }

  @Test
  void linesAreTheNonBlankOnesWithTheirLineFeeds() throws IOException {
    String text = "{\"id\":1}\n\n  \n{\"id\":2}\r\n{\"id\":3}";
    LineChunks c = new LineChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    assertThat(scan(c)).containsExactly("1:{\"id\":1}\n", "4:{\"id\":2}\r\n", "5:{\"id\":3}");
  }

  @Test
  void swarSearchesAgreeWithByteLoops() {
    SplittableRandom r = new SplittableRandom(5);
    byte[] a = new byte[1000];
    for (int i = 0; i < a.length; i++) {
      a[i] = (byte) (r.nextInt(8) == 0 ? "<!/d".charAt(r.nextInt(4)) : r.nextInt(256));
    }
    for (int from = 0; from < 40; from++) {
      for (int to = from; to < a.length; to += 37) {
        int expected = -1;
        long count = 0;
        for (int k = to - 1; k >= from; k--) {
          if (a[k] == '<') {
            expected = k;
            count++;
          }
        }
        assertThat(Bytes.indexOf(a, from, to, (byte) '<')).isEqualTo(expected);
        assertThat(Bytes.count(a, from, to, (byte) '<')).isEqualTo(count);
        for (boolean endTags : new boolean[] {false, true}) {
          int markup = -1;
          for (int k = from; k + 1 < to && markup < 0; k++) {
            boolean lt = a[k] == '<' && (a[k + 1] == 'd' || a[k + 1] == '!');
            markup = lt || endTags && a[k] == '/' && a[k + 1] == 'd' ? k : -1;
          }
          assertThat(Bytes.indexOfMarkup(a, from, to, endTags)).isEqualTo(markup);
        }
      }
    }
    for (int b = 0; b < 256; b++) {
      long w = (b & 0xFFL) << 24;
      boolean unusual = b < 0x20 || b >= 0x80;
      assertThat(Bytes.unusualBytes(w | (0x4141414141414141L & ~(0xFFL << 24))) != 0)
          .as("byte %d", b).isEqualTo(unusual);
    }
  }
}
