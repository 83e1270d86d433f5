package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** split of XML and JSON Lines copies document bytes; these check it against the parsed view. */
class RawSplitTest {
  @TempDir Path dir;

  private Path gzip(String name, String text) throws IOException {
    Path f = dir.resolve(name);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return f;
  }

  private static String xmlDoc(int i) {
    return "<doc>\n  <field name=\"id\">"
        + i
        + "</field>\n  <field name=\"t\">w&amp;örd "
        + i
        + "</field>\n</doc>";
  }

  @ParameterizedTest(name = "gzip output {0}")
  @ValueSource(booleans = {false, true})
  void xmlPartsHoldEveryDocumentOnceInOrderAndParseStrictly(boolean gzipOut) throws Exception {
    StringBuilder a = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<add>\n");
    for (int i = 0; i < 40; i++) {
      a.append(xmlDoc(i)).append(i == 20 ? "\n</add>\n<add>\n" : "\n"); // two add blocks
    }
    a.append("<doc><field name=\"id\">broken</field>\n"); // no </doc>: reported, not written
    Path plain = dir.resolve("a.xml");
    Files.writeString(plain, a);
    StringBuilder b = new StringBuilder("<add>");
    for (int i = 40; i < 70; i++) {
      b.append(xmlDoc(i));
    }
    Path packed = gzip("b.xml.gz", b.append("</add>").toString());

    CorpusStats s =
        CorpusTools.split(
            List.of(plain, packed),
            null,
            new CorpusTools.SplitRule(null, 7L, null),
            dir.resolve("parts"),
            "p",
            Format.XML,
            gzipOut);

    assertThat(s.read()).isEqualTo(70);
    assertThat(s.written()).isEqualTo(70);
    assertThat(s.bad()).isEqualTo(1);
    assertThat(s.problems()).containsExactly(plain + ":165: " + XmlChunks.NOT_CLOSED_AT_END);
    assertThat(s.filesWritten()).hasSize(10);
    List<String> ids = new ArrayList<>();
    for (String part : s.filesWritten()) {
      Path p = Path.of(part);
      if (!gzipOut) {
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.toFile());
      }
      for (Document d : CorpusToolsTest.read(p)) {
        ids.add(d.first("id"));
        assertThat(d.first("t")).isEqualTo("w&örd " + d.first("id"));
      }
    }
    assertThat(ids)
        .containsExactlyElementsOf(IntStream.range(0, 70).mapToObj(Integer::toString).toList());
  }

  @Test
  void aDocumentWithNestedChildrenStaysWholeInOnePart() throws IOException {
    StringBuilder x = new StringBuilder("<add>\n");
    for (int i = 0; i < 6; i++) {
      x.append(
          i == 3
              ? "<doc><field name=\"id\">3</field><doc><field name=\"id\">3.1</field></doc>"
                  + "<doc><field name=\"id\">3.2</field></doc></doc>\n"
              : xmlDoc(i) + "\n");
    }
    Path f = dir.resolve("n.xml");
    Files.writeString(f, x.append("</add>\n"));
    CorpusStats s =
        CorpusTools.split(
            List.of(f),
            null,
            new CorpusTools.SplitRule(null, null, 1L),
            dir.resolve("nparts"),
            "p",
            Format.XML,
            false);
    assertThat(s.written()).isEqualTo(6);
    assertThat(s.bad()).isZero();
    assertThat(s.filesWritten()).hasSize(6);
    String part = Files.readString(Path.of(s.filesWritten().get(3)));
    assertThat(part)
        .contains("<field name=\"id\">3.1</field>", "<field name=\"id\">3.2</field></doc></doc>");
  }

  @Test
  void jsonLinesPartsKeepLinesAndSkipBlankOnes() throws IOException {
    Path a = dir.resolve("a.jsonl");
    Files.writeString(
        a, "{\"id\":\"1\"}\n\n{\"id\":\"2\"}\r\n{\"id\":\"3\"}"); // no final line feed
    Path b = gzip("b.jsonl.gz", "{\"id\":\"4\"}\n{\"id\":\"5\"}\n");
    CorpusStats s =
        CorpusTools.split(
            List.of(a, b),
            null,
            new CorpusTools.SplitRule(2, null, null),
            dir.resolve("parts"),
            "p",
            Format.JSONL,
            false);
    assertThat(s.read()).isEqualTo(5);
    assertThat(s.filesWritten()).hasSize(2);
    assertThat(Files.readString(Path.of(s.filesWritten().get(0))))
        .isEqualTo("{\"id\":\"1\"}\n{\"id\":\"2\"}\r\n{\"id\":\"3\"}\n");
    assertThat(Files.readString(Path.of(s.filesWritten().get(1))))
        .isEqualTo("{\"id\":\"4\"}\n{\"id\":\"5\"}\n");
  }

  @Test
  void jsonLinesEndedByACarriageReturnAloneStaySo() throws IOException {
    // old Mac line ends: a part's last line used to get a '\n' after its '\r'
    Path a = dir.resolve("cr.jsonl");
    Files.writeString(a, "{\"id\":\"1\"}\r{\"id\":\"2\"}\r{\"id\":\"3\"}\r");
    CorpusStats s =
        CorpusTools.split(
            List.of(a),
            null,
            new CorpusTools.SplitRule(null, 2L, null),
            dir.resolve("cr-parts"),
            "p",
            Format.JSONL,
            false);
    assertThat(s.filesWritten()).hasSize(2);
    assertThat(
            Files.readString(Path.of(s.filesWritten().get(0)))
                + Files.readString(Path.of(s.filesWritten().get(1))))
        .isEqualTo(Files.readString(a));
  }

  @Test
  void jsonLinesThatCannotBeOneObjectAreReportedNotCopied() throws IOException {
    // by their first and last bytes: what is inside is left to convert and index
    Path a = dir.resolve("odd.jsonl");
    Files.writeString(
        a,
        "{\"id\":\"1\"}\n\u000b\n\u3000\n{\"id\":\"4\"\n[{\"id\":\"5\"}]\n"
            + "  {\"id\":\"6\"} \t\r\n{\n");
    CorpusStats s =
        CorpusTools.split(
            List.of(a),
            null,
            new CorpusTools.SplitRule(1, null, null),
            dir.resolve("odd-parts"),
            "p",
            Format.JSONL,
            false);
    assertThat(Files.readString(Path.of(s.filesWritten().get(0))))
        .isEqualTo("{\"id\":\"1\"}\n  {\"id\":\"6\"} \t\r\n");
    assertThat(s.problems())
        .containsExactly(
            a + ":2: " + LineChunks.NOT_AN_OBJECT,
            a + ":3: " + LineChunks.NOT_AN_OBJECT,
            a + ":4: " + LineChunks.NOT_CLOSED,
            a + ":5: " + LineChunks.NOT_AN_OBJECT,
            a + ":7: " + LineChunks.NOT_CLOSED);
  }

  @Test
  void maxMbPartsStayNearTheLimit() throws IOException {
    StringBuilder a = new StringBuilder("<add>\n");
    for (int i = 0; i < 2000; i++) {
      a.append(xmlDoc(i)).append('\n');
    }
    Path f = dir.resolve("big.xml");
    Files.writeString(f, a.append("</add>\n"));
    CorpusStats s =
        CorpusTools.split(
            List.of(f),
            null,
            new CorpusTools.SplitRule(null, null, 20_000L),
            dir.resolve("parts"),
            "p",
            Format.XML,
            false);
    long total = 0;
    for (String part : s.filesWritten()) {
      long size = Files.size(Path.of(part));
      assertThat(size).isLessThan(20_000 + 200);
      total += CorpusToolsTest.read(Path.of(part)).size();
    }
    assertThat(total).isEqualTo(2000);
    assertThat(s.filesWritten().size()).isGreaterThan(4);
  }
}
