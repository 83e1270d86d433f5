package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkScannerTest {

  /** What the scanner found: the text of each range, its first line, and its error if any. */
  static List<String> scan(ChunkScanner c) throws IOException {
    List<String> out = new ArrayList<>();
    while (c.next()) {
      out.add(
          c.problemLine()
              + ":"
              + (c.error == null ? "" : "ERR ")
              + new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8));
    }
    return out;
  }

  private static final String[][] SECTIONS = {{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}};

  /**
   * The text with every comment, CDATA section and processing instruction blanked out (line feeds
   * kept).
   */
  static String mask(String text) {
    StringBuilder sb = new StringBuilder(text);
    int i = 0;
    while (true) {
      int s = -1;
      String[] section = null;
      for (String[] t : SECTIONS) {
        int at = text.indexOf(t[0], i);
        if (at >= 0 && (s < 0 || at < s)) {
          s = at;
          section = t;
        }
      }
      if (s < 0) {
        return sb.toString();
      }
      int e = text.indexOf(section[1], s + section[0].length());
      e = e < 0 ? text.length() : e + section[1].length();
      for (int k = s; k < e; k++) {
        sb.setCharAt(k, text.charAt(k) == '\n' ? '\n' : '_');
      }
      i = e;
    }
  }

  private static final Pattern MARKUP = Pattern.compile("<doc[\\s>/]|</doc\\s*>|</add>");

  /**
   * A reference scan over the masked text, slow and obviously right: each document start counts
   * depth until it closes (a document with its children), or it ends where its first nested one
   * starts, or (with none) at the end of the input; an {@code </add>} after a nested start stops
   * the count.
   */
  static List<String> reference(String original) {
    String text = mask(original);
    List<String> out = new ArrayList<>();
    int pos = 0;
    while (true) {
      int s = nextStart(text, pos);
      if (s < 0) {
        return out;
      }
      String line = (text.substring(0, s).chars().filter(ch -> ch == '\n').count() + 1) + ":";
      int gt = text.indexOf('>', s);
      if (gt >= 0 && text.charAt(gt - 1) == '/') {
        out.add(line + original.substring(s, gt + 1));
        pos = gt + 1;
        continue;
      }
      int depth = 1;
      int inner = -1;
      int e = -1;
      Matcher m = MARKUP.matcher(text);
      int k = gt + 1;
      while (gt >= 0 && m.find(k)) {
        String t = m.group();
        if (t.startsWith("<doc")) {
          inner = inner < 0 ? m.start() : inner;
          int g = text.indexOf('>', m.start());
          if (g < 0) {
            break;
          }
          depth += text.charAt(g - 1) == '/' ? 0 : 1;
          k = g + 1;
        } else if (t.startsWith("</doc")) {
          k = m.end();
          if (--depth == 0) {
            e = k;
            break;
          }
        } else if (inner >= 0) {
          break;
        } else {
          k = m.end();
        }
      }
      if (e >= 0) {
        out.add(line + original.substring(s, e));
        pos = e;
      } else if (inner >= 0) {
        out.add(line + "ERR " + original.substring(s, inner));
        pos = inner;
      } else {
        out.add(line + "ERR " + original.substring(s));
        return out;
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
      sb.append(kind == 9 ? "<?pi <!-- </doc> <doc> </add> ?>" : "");
      if (kind == 5) {
        sb.append("</doc>\n<!-- <doc>\n<field name=\"id\">commented</field></doc> -->\n<!---->");
        continue;
      }
      if (kind == 1) {
        continue; // missing </doc>
      }
      if (kind == 6) { // children, one of them empty, and an end tag with white space
        sb.append("<doc><field name=\"id\">")
            .append(i)
            .append("-1</field></doc>\n<doc><doc/>")
            .append("<field name=\"id\">")
            .append(i)
            .append("-2</field><doc ></doc\n></doc>");
      }
      if (kind == 7) { // an empty document on its own
        sb.append("</doc>\n<doc/>\n<doc\n/>");
        continue;
      }
      sb.append(kind == 2 ? "</doc></add>\n<add>\n" : kind == 8 ? "</doc >\n" : "</doc>\n");
    }
    return sb.append("<doc><field name=\"id\">last</field>").toString(); // unclosed at the end
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 13, 64, 1 << 20})
  void xmlChunksMatchTheReferenceWhateverTheBufferSize(int bufferSize) throws IOException {
    for (long seed = 1; seed <= 6; seed++) {
      String text = randomXml(seed);
      XmlChunks c =
          new XmlChunks(
              new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), bufferSize);
      assertThat(scan(c)).isEqualTo(reference(text));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 1 << 20})
  void whatStandsBetweenDocumentsIsSkippedOrReported(int bufferSize) throws IOException {
    String text =
        String.join(
            "\n",
            "<?xml version=\"1.0\"?>",
            "<!DOCTYPE add SYSTEM \"a>b\" [ <!ENTITY a \"]>\"> <!-- ' ]> --> <?pi ]> ?> <!ENTITY e '<doc>x</doc>'> ]>",
            "<add overwrite='false' commitWithin=\"10\">",
            "<?pi <doc><field name=\"id\">pi</field></doc> ?>",
            "<doc><field name=\"id\">1</field></doc>",
            "<![CDATA[   ]]><add overwrite=\"false\">",
            "<doc><field name=\"id\">2</field></doc\t>",
            "<![CDATA[ text <doc></doc> ]]>",
            "<doc/>",
            "</add>");
    XmlChunks c =
        new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), bufferSize);
    List<String> errors = new ArrayList<>();
    List<String> found = new ArrayList<>();
    while (c.next()) {
      found.add(
          c.lineAt(c.start)
              + ":"
              + new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8));
      errors.add(c.error);
    }
    assertThat(found)
        .containsExactly(
            "2:",
            "3:",
            "5:<doc><field name=\"id\">1</field></doc>",
            "7:<doc><field name=\"id\">2</field></doc\t>",
            "8:",
            "9:<doc/>");
    assertThat(errors)
        .containsExactly(
            String.format(
                XmlChunks.SWALLOWED,
                "a DOCTYPE holds <doc> (in " + "a literal, or after a quote left open)"),
            XmlChunks.NO_OVERWRITE,
            null,
            null,
            String.format(XmlChunks.STRAY, "text <doc>"),
            null);
  }

  @Test
  void aDeleteNotClosedEndsAtTheNextDocument() throws IOException {
    String text =
        "<add><delete><id>1</id>\n<doc><field name=\"id\">2</field></doc>"
            + "<delete><query><![CDATA[<doc>]]></query></delete><delete/><doc></doc></add>";
    for (int size : new int[] {8, 1 << 20}) {
      XmlChunks c =
          new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), size);
      List<String> errors = new ArrayList<>();
      List<String> found = new ArrayList<>();
      while (c.next()) {
        found.add(
            c.problemLine()
                + ":"
                + new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8));
        errors.add(c.error);
      }
      assertThat(found)
          .containsExactly(
              "1:", "2:<doc><field name=\"id\">2</field></doc>", "2:", "2:", "2:<doc></doc>");
      assertThat(errors)
          .containsExactly(XmlChunks.DELETE, null, XmlChunks.DELETE, XmlChunks.DELETE, null);
    }
  }

  @Test
  void documentsLeftOpenByALookAheadThatWentTooFarSaySo() throws IOException {
    String text =
        "<add><doc>a<doc>b<doc>c</doc>"
            + "<i>x</i>\n".repeat(XmlChunks.MAX_NESTED_SCAN / 9 + 10)
            + "</add>";
    XmlChunks c = new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    List<String> errors = new ArrayList<>();
    List<String> found = new ArrayList<>();
    while (c.next()) {
      found.add(new String(c.buf, c.start, Math.min(c.end - c.start, 20), StandardCharsets.UTF_8));
      errors.add(c.error);
    }
    assertThat(found).containsExactly("<doc>a", "<doc>b", "<doc>c</doc>", "");
    assertThat(errors)
        .containsExactly(
            XmlChunks.TOO_FAR, XmlChunks.TOO_FAR, null, String.format(XmlChunks.STRAY, "<i>"));
  }

  @Test
  void aDocumentLargerThanTheLimitIsReportedAndSkippedWithoutBeingKept() throws IOException {
    String big =
        "<doc><field name=\"id\">big</field><field name=\"t\">"
            + "word <b>x</b> ".repeat(2000)
            + "<!-- </doc> --><?pi </doc>?></field></doc>\n";
    String text =
        "<add>\n<doc><field name=\"id\">1</field></doc>\n"
            + big
            + "<doc><field name=\"id\">2</field></doc>\n<doc><field name=\"id\">open</field>"
            + "<DOC>x</DOC>".repeat(2000)
            + "</add>";
    for (int size : new int[] {8, 64, 1 << 20}) {
      XmlChunks c =
          new XmlChunks(
              new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), size, 1000);
      List<String> found = new ArrayList<>();
      List<String> errors = new ArrayList<>();
      while (c.next()) {
        found.add(
            c.problemLine()
                + ":"
                + new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8));
        errors.add(c.error);
        assertThat(c.buf.length).as("buffer").isLessThanOrEqualTo(Math.max(size, 4096));
      }
      assertThat(found)
          .containsExactly(
              "2:<doc><field name=\"id\">1</field></doc>",
              "3:",
              "4:<doc><field name=\"id\">2</field></doc>",
              "5:");
      assertThat(errors).containsExactly(null, XmlChunks.TOO_LARGE, null, XmlChunks.TOO_LARGE);
    }
  }

  @Test
  void aSectionBetweenDocumentsThatMayHaveSwallowedSomeIsReported() throws IOException {
    String open =
        "<add><doc><field name=\"id\">1</field></doc>\n<!-- an unclosed comment\n"
            + "<doc><field name=\"id\">2</field></doc>\n<!-- a closed one -->\n"
            + "<doc><field name=\"id\">3</field></doc><!-- again -- here --><!---->\n</add>";
    String quote =
        "<!DOCTYPE add SYSTEM 'a.dtd>\n<add><doc><field name=\"id\">1</field></doc>\n"
            + "<doc><field name=\"id\">it's</field></doc>\n<doc><field name=\"id\">3</field></doc></add>";
    for (int size : new int[] {8, 1 << 20}) {
      XmlChunks c =
          new XmlChunks(new ByteArrayInputStream(open.getBytes(StandardCharsets.UTF_8)), size);
      assertThat(scan(c))
          .containsExactly(
              "1:<doc><field name=\"id\">1</field></doc>",
              "2:ERR ",
              "5:<doc><field name=\"id\">3</field></doc>");
      c = new XmlChunks(new ByteArrayInputStream(quote.getBytes(StandardCharsets.UTF_8)), size);
      assertThat(scan(c))
          .containsExactly(
              "1:ERR ",
              "3:ERR ", // and the stray "</doc>" after it
              "4:<doc><field name=\"id\">3</field></doc>");
    }
    XmlChunks c = new XmlChunks(new ByteArrayInputStream(open.getBytes(StandardCharsets.UTF_8)));
    c.next();
    c.next();
    assertThat(c.error)
        .isEqualTo(
            String.format(
                XmlChunks.SWALLOWED,
                "a comment holds '--', which "
                    + "XML forbids (often a <!-- left open before another comment)"));
    c = new XmlChunks(new ByteArrayInputStream(quote.getBytes(StandardCharsets.UTF_8)));
    c.next();
    assertThat(c.error)
        .startsWith("a DOCTYPE holds <doc> (in a literal, or after a quote left open)");
  }

  @Test
  void aFamilyAfterAMissingEndTagIsStillReadWhole() throws IOException {
    String family =
        "<doc><field name=\"id\">p</field><doc/><doc><field name=\"id\">c</field></doc></doc>";
    String text = "<add><doc><field name=\"id\">1</field>\n" + family + "\n" + family + "</add>";
    for (int size : new int[] {8, 1 << 20}) {
      XmlChunks c =
          new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), size);
      assertThat(scan(c))
          .containsExactly(
              "1:ERR <doc><field name=\"id\">1</field>\n", "2:" + family, "3:" + family);
    }
  }

  @Test
  void aSectionNotClosedBetweenDocumentsIsReportedFromItsStart() throws IOException {
    String text = "<add><doc><field name=\"id\">1</field></doc>\n<!-- <doc></doc>\n<doc></doc>";
    XmlChunks c = new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 8);
    assertThat(scan(c)).containsExactly("1:<doc><field name=\"id\">1</field></doc>", "2:ERR ");
    assertThat(XmlChunks.SECTION_NOT_CLOSED).contains("not closed");
    // nothing of a section between documents is kept: memory stays bounded to the rest of the file
    for (String open : new String[] {"<!-- ", "<![CDATA[ ", "<?pi ", "<!DOCTYPE add [ "}) {
      byte[] big =
          ("<add>\n<doc></doc>\n" + open + "<doc></doc>\n".repeat(200_000))
              .getBytes(StandardCharsets.UTF_8);
      XmlChunks b = new XmlChunks(new ByteArrayInputStream(big), 64);
      assertThat(scan(b)).as(open).containsExactly("2:<doc></doc>", "3:ERR ");
      assertThat(b.buf.length).as(open).isLessThanOrEqualTo(1024);
    }
  }

  /** The ranges found, as line:text, and their errors. */
  private static List<String> scanWithErrors(XmlChunks c, List<String> errors) throws IOException {
    List<String> found = new ArrayList<>();
    while (c.next()) {
      found.add(
          c.problemLine()
              + ":"
              + new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8));
      errors.add(c.error);
    }
    return found;
  }

  @Test
  void aSectionNotClosedInsideASkippedDeleteOrDocumentIsReportedFromItsStart() throws IOException {
    for (String open : new String[] {"<?pi ", "<!-- ", "<![CDATA[ "}) {
      String delete = "<add><delete><query>\n" + open + "</query></delete>\n<doc></doc></add>";
      String big = "<add><doc>" + "<i>x</i>".repeat(200) + "\n" + open + "</doc>\n<doc></doc>";
      for (int size : new int[] {8, 1 << 20}) {
        List<String> errors = new ArrayList<>();
        XmlChunks c =
            new XmlChunks(new ByteArrayInputStream(delete.getBytes(StandardCharsets.UTF_8)), size);
        assertThat(scanWithErrors(c, errors)).as(open).containsExactly("1:", "2:");
        assertThat(errors).containsExactly(XmlChunks.DELETE, XmlChunks.SECTION_NOT_CLOSED);
        errors.clear();
        c =
            new XmlChunks(
                new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8)), size, 1000);
        assertThat(scanWithErrors(c, errors)).as(open).containsExactly("1:", "2:");
        assertThat(errors).containsExactly(XmlChunks.TOO_LARGE, XmlChunks.SECTION_NOT_CLOSED);
      }
    }
  }

  @Test
  void aSectionNotClosedInsideADocumentEndsItAtTheNextDocument() throws IOException {
    for (String open : new String[] {"<?pi ", "<!-- ", "<![CDATA[ "}) {
      String text =
          "<add><doc><field name=\"id\">1</field>"
              + open
              + "</doc>\n"
              + "<doc><field name=\"id\">2</field></doc>\n<doc>3<doc>3.1</doc>"
              + open
              + "x</doc>\n"
              + "<doc>4<doc/></doc>\n<doc>5"
              + open;
      // 3 is not closed (the section hides its end), so 3.1 is read as its neighbour
      for (int size : new int[] {8, 64, 1 << 20}) {
        List<String> errors = new ArrayList<>();
        XmlChunks c =
            new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), size);
        assertThat(scanWithErrors(c, errors))
            .as(open)
            .containsExactly(
                "1:<doc><field name=\"id\">1</field>" + open + "</doc>\n",
                "2:<doc><field name=\"id\">2</field></doc>",
                "3:<doc>3",
                "3:<doc>3.1</doc>",
                "3:",
                "4:<doc>4<doc/></doc>",
                "5:<doc>5" + open);
        assertThat(errors)
            .containsExactly(
                XmlChunks.SECTION_IN_DOCUMENT,
                null,
                XmlChunks.NOT_CLOSED,
                null,
                XmlChunks.SECTION_OPEN,
                null,
                XmlChunks.SECTION_IN_DOCUMENT);
      }
    }
    // many such documents: each section is searched to the end once per kind, not once each
    String many = "<add>\n" + "<doc>a<?pi </doc>\n".repeat(100_000);
    XmlChunks c =
        new XmlChunks(new ByteArrayInputStream(many.getBytes(StandardCharsets.UTF_8)), 64);
    assertThat(scan(c)).hasSize(100_000).allMatch(s -> s.contains(":ERR <doc>a<?pi </doc>"));
  }

  @Test
  void aSectionOrTagInADocumentIsBoundedAsItsTextIs() throws IOException {
    String[] bigs = {
      "<![CDATA[" + "x".repeat(100_000) + "]]>",
      "<!--" + "x".repeat(100_000) + "-->",
      "<?pi " + "x".repeat(100_000) + "?>"
    };
    for (String section : bigs) {
      String text =
          "<add><doc><field name=\"t\">"
              + section
              + "</field></doc>\n"
              + "<doc a=\""
              + "y".repeat(100_000)
              + "\"></doc>\n<doc>3</doc></add>";
      for (int size : new int[] {8, 64, 1 << 10}) {
        List<String> errors = new ArrayList<>();
        XmlChunks c =
            new XmlChunks(
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), size, 1000);
        List<String> found = new ArrayList<>();
        while (c.next()) {
          found.add(
              c.problemLine()
                  + ":"
                  + new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8));
          errors.add(c.error);
          assertThat(c.buf.length).as("buffer").isLessThanOrEqualTo(4096);
        }
        assertThat(found).containsExactly("1:", "2:", "3:<doc>3</doc>");
        assertThat(errors).containsExactly(XmlChunks.TOO_LARGE, XmlChunks.TOO_LARGE, null);
      }
    }
  }

  @Test
  void aSectionNotClosedAfterWellFormedDocumentsLosesNoneOfThem() throws IOException {
    // A is not closed, so B and C are its neighbours, not its children: each keeps its own fate
    String inner = "<add><doc>A\n<doc>B</doc>\n<doc>C<!-- oops\n<doc>D</doc></add>";
    String outer = "<add><doc>A\n<doc>B</doc>\n<!-- oops\n<doc>D</doc></add>";
    for (int size : new int[] {8, 64, 1 << 20}) {
      List<String> errors = new ArrayList<>();
      XmlChunks c =
          new XmlChunks(new ByteArrayInputStream(inner.getBytes(StandardCharsets.UTF_8)), size);
      assertThat(scanWithErrors(c, errors))
          .containsExactly("1:<doc>A\n", "2:<doc>B</doc>", "3:<doc>C<!-- oops\n", "4:<doc>D</doc>");
      assertThat(errors)
          .containsExactly(XmlChunks.NOT_CLOSED, null, XmlChunks.SECTION_IN_DOCUMENT, null);
      errors.clear();
      c = new XmlChunks(new ByteArrayInputStream(outer.getBytes(StandardCharsets.UTF_8)), size);
      assertThat(scanWithErrors(c, errors))
          .containsExactly("1:<doc>A\n", "2:<doc>B</doc>", "3:", "4:<doc>D</doc>");
      assertThat(errors).containsExactly(XmlChunks.NOT_CLOSED, null, XmlChunks.SECTION_OPEN, null);
    }
  }

  @Test
  void aNestedStartTagPastTheLookAheadLeavesNothingBehindForTheNextDocument() throws IOException {
    // the nested start tag runs past the look-ahead's bound: that must not mark what follows
    String text =
        "<add><doc><doc a=\""
            + "a".repeat(2 * XmlChunks.MAX_NESTED_SCAN + 100)
            + "\"></doc></doc>\n"
            + "<doc><field name=\"id\">1</field><!-- oops </doc>\n<doc><field name=\"id\">2</field></doc>\n"
            + "</add>";
    XmlChunks c = new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    List<String> errors = new ArrayList<>();
    List<String> found = new ArrayList<>();
    while (c.next()) {
      found.add(new String(c.buf, c.start, Math.min(c.end - c.start, 33), StandardCharsets.UTF_8));
      errors.add(c.error);
    }
    assertThat(found)
        .endsWith("<doc><field name=\"id\">1</field><!", "<doc><field name=\"id\">2</field></");
    assertThat(errors.subList(errors.size() - 2, errors.size()))
        .containsExactly(XmlChunks.SECTION_IN_DOCUMENT, null);
  }

  @Test
  void aDeleteTagSplitAcrossReadsIsReadWhateverTheReadSizes() throws IOException {
    String text =
        "<add>\n<delete/>\n<delete ><id>1</id></delete>\n<doc>1</doc>\n"
            + "<delete\n/>\n<doc>2</doc></add>";
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    for (long seed = 1; seed <= 40; seed++) {
      for (int size : new int[] {8, 13, 64}) {
        List<String> errors = new ArrayList<>();
        XmlChunks c = new XmlChunks(TranscoderTest.trickling(b, seed), size);
        assertThat(scanWithErrors(c, errors))
            .as("seed " + seed + ", buffer " + size)
            .containsExactly("2:", "3:", "4:<doc>1</doc>", "5:", "7:<doc>2</doc>");
        assertThat(errors)
            .containsExactly(XmlChunks.DELETE, XmlChunks.DELETE, null, XmlChunks.DELETE, null);
      }
    }
  }

  @Test
  void aTooLargeDocumentEndsAtItsEndTagEvenOneSplitAcrossARefill() throws IOException {
    String text = "<doc>" + "x".repeat(25) + "</doc><delete><id>1</id></delete><doc>y</doc>";
    for (int size :
        new int[] {8, 13, 16, 32}) { // smaller than the document: it is looked at in parts
      for (int pad = 0; pad < 8; pad++) {
        String t = " ".repeat(pad) + text;
        List<String> errors = new ArrayList<>();
        XmlChunks c =
            new XmlChunks(new ByteArrayInputStream(t.getBytes(StandardCharsets.UTF_8)), size, 16);
        assertThat(scanWithErrors(c, errors))
            .as("buffer " + size + ", pad " + pad)
            .containsExactly("1:", "1:", "1:<doc>y</doc>");
        assertThat(errors).containsExactly(XmlChunks.TOO_LARGE, XmlChunks.DELETE, null);
      }
    }
  }

  @Test
  void aWrapperTagOrEndTagOfAbsurdLengthIsNotHeld() throws IOException {
    String text =
        "<add"
            + " ".repeat(1 << 20)
            + "><doc>1</doc"
            + " ".repeat(1 << 20)
            + ">\n"
            + "<doc>2</doc></add>";
    XmlChunks c =
        new XmlChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 64, 1000);
    List<String> errors = new ArrayList<>();
    List<String> found = scanWithErrors(c, errors);
    assertThat(found).endsWith("2:<doc>2</doc>");
    assertThat(errors).first().isEqualTo(XmlChunks.TOO_LARGE); // <doc>1, its end tag that long
    assertThat(c.buf.length).isLessThanOrEqualTo(1 << 18);
  }

  /** The ranges and errors found in {@code b}, read through a buffer of {@code size}. */
  private static List<String> ranges(InputStream in, int size) throws IOException {
    List<String> errors = new ArrayList<>();
    List<String> found = scanWithErrors(new XmlChunks(in, size), errors);
    for (int k = 0; k < found.size(); k++) { // a stray excerpt ends where the buffer does: not kept
      String e = errors.get(k);
      found.set(
          k,
          found.get(k) + " | " + (e != null && e.startsWith("not a Solr document") ? "STRAY" : e));
    }
    return found;
  }

  @Test
  void whatIsFoundDoesNotDependOnTheBufferOrTheReadSizes() throws IOException {
    String[] tokens = {
      "<doc>",
      "</doc>",
      "<doc/>",
      "</doc >",
      "<delete>",
      "</delete>",
      "<delete/>",
      "<!--",
      "-->",
      "<![CDATA[",
      "]]>",
      "<?pi ",
      "?>",
      "<add>",
      "</add>",
      "text",
      "\n",
      " ",
      "<field name=\"a\">",
      "</field>",
      "<!DOCTYPE a [",
      "]>",
      "'",
      "\"",
      "<DOC>",
      "<",
      ">",
      "/",
      "<commit/>",
      "<add overwrite=\"false\">",
      "<delete ",
      "<doc ",
      "   "
    };
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < 40000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int n = 1 + r.nextInt(40); n > 0; n--) {
        sb.append(tokens[r.nextInt(tokens.length)]);
      }
      byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
      List<String> expected = ranges(new ByteArrayInputStream(b), 1 << 16);
      for (int size : new int[] {8, 9, 13, 32}) {
        assertThat(ranges(TranscoderTest.trickling(b, i), size))
            .as("%s, buffer %d", sb, size)
            .isEqualTo(expected);
      }
    }
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
      a[i] = (byte) (r.nextInt(8) == 0 ? "<!/d?".charAt(r.nextInt(5)) : r.nextInt(256));
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
            boolean lt = a[k] == '<' && (a[k + 1] == 'd' || a[k + 1] == '!' || a[k + 1] == '?');
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
          .as("byte %d", b)
          .isEqualTo(unusual);
    }
  }
}
