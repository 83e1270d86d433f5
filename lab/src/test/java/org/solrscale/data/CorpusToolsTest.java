package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.solrscale.testing.Await;

class CorpusToolsTest {
  @TempDir Path dir;

  /** Documents that stress every format: markup characters, separators, unicode, many values. */
  static List<Document> corpus(int n) {
    List<Document> docs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Document d =
          new Document()
              .add("id", "doc-" + i)
              .add("title_t", "title <" + i + "> & \"quoted\" 'single' , comma")
              .add("body_t", "line one\nline two with ünïcödé ✓ and a pipe | and \\ backslash");
      for (int t = 0; t < i % 4; t++) {
        d.add("tags_ss", "tag" + t + (t == 2 ? "|piped" : ""));
      }
      if (i % 3 == 0) {
        d.add("n_i", Integer.toString(i));
      }
      docs.add(d);
    }
    return docs;
  }

  static List<Map<String, List<String>>> text(List<Document> docs) {
    return docs.stream().map(Document::asText).toList();
  }

  Path write(List<Document> docs, String name) throws IOException {
    Path f = dir.resolve(name);
    Format format = Format.of(f);
    List<String> cols = new ArrayList<>();
    docs.forEach(
        d -> d.fields().keySet().stream().filter(k -> !cols.contains(k)).forEach(cols::add));
    try (CorpusWriter w = Corpus.create(f, format, cols)) {
      for (Document d : docs) {
        w.write(d);
      }
    }
    return f;
  }

  static List<Item> readItems(Path f) throws IOException {
    return readItems(f, false);
  }

  /** Every item of a reader, which it closes. */
  static List<Item> readItems(CorpusReader reader) throws IOException {
    List<Item> items = new ArrayList<>();
    try (CorpusReader r = reader) {
      Item it;
      while ((it = r.next()) != null) {
        items.add(it);
      }
    }
    return items;
  }

  /** {@code utf8}: as the indexer reads, plain XML values as {@link Utf8Text}. */
  static List<Item> readItems(Path f, boolean utf8) throws IOException {
    List<Item> items = new ArrayList<>();
    try (CorpusReader r = Corpus.open(f, Format.of(f), new AtomicLong(), utf8)) {
      Item it;
      while ((it = r.next()) != null) {
        items.add(it);
      }
    }
    return items;
  }

  /** The items that are not documents, in order. */
  static Stream<Item> failures(List<Item> items) {
    return items.stream().filter(i -> !i.ok());
  }

  /** The ids of the documents among the items, in order. */
  static List<String> okIds(List<Item> items) {
    return items.stream().filter(Item::ok).map(i -> i.document().first("id")).toList();
  }

  static List<Document> read(Path... files) throws IOException {
    List<Document> docs = new ArrayList<>();
    for (Path f : files) {
      for (Item it : readItems(f)) {
        assertThat(it.ok()).as(it.where() + " " + it.error()).isTrue();
        docs.add(it.document());
      }
    }
    return docs;
  }

  /** The formats a file's name tells (plain CSV, by name only, has its own test). */
  static final List<Format> NAMED = List.of(Format.XML, Format.JSONL, Format.JSON, Format.CSV);

  static Stream<Arguments> pairs() {
    List<Arguments> all = new ArrayList<>();
    for (Format a : NAMED) {
      for (Format b : NAMED) {
        all.add(Arguments.of(a, b));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("pairs")
  void everyPairOfFormatsRoundTrips(Format from, Format to) throws IOException {
    List<Document> docs = corpus(25);
    Path in = write(docs, "in." + from.extension());
    Path out = dir.resolve("out." + to.extension() + ".gz");
    CorpusStats s = CorpusTools.convert(List.of(in), null, out, to);
    assertThat(s.read()).isEqualTo(25);
    assertThat(s.written()).isEqualTo(25);
    assertThat(s.bad()).isZero();
    assertThat(text(read(out))).isEqualTo(text(docs));
    Path back = dir.resolve("back." + from.extension());
    CorpusTools.convert(List.of(out), null, back, from);
    assertThat(text(read(back))).isEqualTo(text(docs));
  }

  @Test
  void whiteSpaceInAFieldNameAndMarkupInTextSurviveXml() throws IOException {
    Document d =
        new Document().add("id", "w").add("a\tb\nc\rd \"&<>'", "x ]]> y\r\n\tz &amp; <doc>");
    for (boolean gz : new boolean[] {false, true}) {
      Path in = write(List.of(d), "ws.jsonl");
      Path xml = dir.resolve("ws.xml" + (gz ? ".gz" : ""));
      CorpusTools.convert(List.of(in), null, xml, Format.XML);
      for (boolean utf8 : new boolean[] {false, true}) {
        assertThat(readItems(xml, utf8))
            .singleElement()
            .satisfies(i -> assertThat(i.document().asText()).isEqualTo(d.asText()));
      }
      Path back = dir.resolve("ws-back.jsonl");
      CorpusTools.convert(List.of(xml), null, back, Format.JSONL);
      assertThat(text(read(back))).containsExactly(d.asText());
    }
  }

  @Test
  void xmlReadAsUtf8GivesTheSameTextAndKeepsPlainValuesAsTheirBytes() throws IOException {
    // enough documents to refill the reader's buffer many times: a value must not point into it
    List<Document> docs = corpus(3000);
    Path xml = write(docs, "c.xml");
    List<Document> utf8 = readItems(xml, true).stream().map(Item::document).toList();
    assertThat(text(utf8)).isEqualTo(text(docs));
    Object body = utf8.get(2999).fields().get("body_t").get(0);
    assertThat(body).isInstanceOf(Utf8Text.class);
    Utf8Text u = (Utf8Text) body;
    assertThat(new String(u.bytes(), u.offset(), u.byteLength(), StandardCharsets.UTF_8))
        .isEqualTo("line one\nline two with ünïcödé ✓ and a pipe | and \\ backslash");
    // a value with entities is decoded, so it is a String
    assertThat(utf8.get(0).fields().get("title_t").get(0)).isInstanceOf(String.class);
    // and the plain reader still gives Strings
    assertThat(read(xml).get(2999).fields().get("body_t").get(0)).isInstanceOf(String.class);
  }

  @Test
  void malformedUtf8NeverPassesThroughAsBytes() throws IOException {
    Path f = dir.resolve("bad-utf8.xml");
    ByteArrayOutputStream x = new ByteArrayOutputStream();
    x.writeBytes(
        "<add><doc><field name=\"id\">1</field><field name=\"t\">a"
            .getBytes(StandardCharsets.UTF_8));
    x.writeBytes(
        new byte[] {
          (byte) 0xC3, (byte) 0x28, (byte) 0xED, (byte) 0xA0, (byte) 0x80
        }); // bad pair, a surrogate
    x.writeBytes(
        "b</field></doc>\n<doc><field name=\"id\">2</field><field name=\"t\">ünï</field></doc></add>"
            .getBytes(StandardCharsets.UTF_8));
    Files.write(f, x.toByteArray());
    List<Item> items = readItems(f, true);
    assertThat(items).hasSize(2);
    assertThat(items.get(0).ok()).isFalse();
    assertThat(items.get(0).error()).isEqualTo(Utf8Guard.INVALID);
    assertThat(items.get(1).document().fields().get("t").get(0))
        .isInstanceOf(Utf8Text.class)
        .hasToString("ünï");
  }

  /** Invalid UTF-8 (where \u0001X is) in one document, in each format; the good ids; its line. */
  static Stream<Arguments> invalidUtf8Corpora() {
    return Stream.of(
        Arguments.of(
            "xml",
            "<add>\n<doc><field name=\"id\">1</field></doc>\n<doc><field name=\"id\">2</field>"
                + "<field name=\"t\">a\u0001X</field></doc>\n<doc><field name=\"id\">3</field></doc>\n</add>\n",
            "1 3",
            3),
        Arguments.of(
            "xml",
            "<add><doc><field name=\"id\">1</field></doc>\n<doc>\n<field name=\"\u0001X\">b</field>"
                + "<field name=\"id\">2</field></doc>\n<doc><field name=\"id\">3</field></doc></add>",
            "1 3",
            2),
        Arguments.of(
            "jsonl",
            "\n{\"id\":\"1\"}\n{\"id\":\"2\",\"t\":\"a\u0001X\"}\n{\"id\":\"3\"}\n",
            "1 3",
            3),
        Arguments.of(
            "jsonl",
            "{\"id\":\"1\"}\r\n{\"id\":\"2\",\"t\":\"\u0001X\"}\r\n{\"id\":\"3\"}\r\n",
            "1 3",
            2),
        Arguments.of("csv", "id,t\n1,a\n2,a\u0001X\n3,c\n", "1 3", 3),
        Arguments.of("csv", "id,t\n1,a\n2,b\n\u0001X,c\n4,d\n", "1 2 4", 4),
        Arguments.of("csv", "id,t\n1,\"a\nb\"\n2,\"c\n\u0001X\"\n3,d\n", "1 3", 4),
        Arguments.of(
            "json",
            "[\n{\"id\":\"1\"},\n{\"id\":\"2\",\"t\":\"a\u0001X\"},\n{\"id\":\"3\"}\n]\n",
            "1 3",
            3));
  }

  @ParameterizedTest
  @MethodSource("invalidUtf8Corpora")
  void invalidUtf8IsReportedWithTheCommandThatRepairsItAndItsNeighboursRead(
      String ext, String text, String goodIds, long badLine) throws IOException {
    Path f = dir.resolve("bad-utf8-each." + ext);
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < b.length; i++) {
      if (b[i] == 1) { // 0xC3 0x28: a lead byte without its continuation
        b[i] = (byte) 0xC3;
        b[i + 1] = 0x28;
      }
    }
    Files.write(f, b);
    for (boolean utf8 : new boolean[] {false, true}) {
      List<Item> items = readItems(f, utf8);
      assertThat(okIds(items)).containsExactly(goodIds.split(" "));
      List<Item> bad = failures(items).toList();
      assertThat(bad).hasSize(1);
      assertThat(bad.get(0).where()).isEqualTo(f + ":" + badLine);
      assertThat(bad.get(0).error()).contains("invalid UTF-8").contains("solrscale data clean");
    }
  }

  @ParameterizedTest
  @EnumSource(value = Format.class, names = "CSV_PLAIN", mode = EnumSource.Mode.EXCLUDE)
  void aTruncatedGzipFileIsAnErrorNeverTakenForTheEnd(Format format) throws IOException {
    Path full = write(corpus(3000), "trunc-full." + format.extension() + ".gz");
    byte[] b = Files.readAllBytes(full);
    Path f = dir.resolve("trunc." + format.extension() + ".gz");
    Files.write(f, Arrays.copyOf(b, b.length / 2));
    assertThatThrownBy(() -> readItems(f)).isInstanceOf(IOException.class);
    // no command leaves a partial output: an older file stays as it was, split's parts go
    Path out = dir.resolve("trunc-out.jsonl");
    Files.writeString(out, "older\n");
    assertThatThrownBy(() -> CorpusTools.convert(List.of(f), null, out, Format.JSONL))
        .hasMessageStartingWith("cannot read " + f);
    assertThat(Files.readString(out)).isEqualTo("older\n");
    Path good = write(corpus(300), "trunc-good." + format.extension()); // parts get written first
    for (Format to :
        List.of(
            format == Format.CSV ? Format.JSONL : format,
            format == Format.XML ? Format.JSONL : Format.XML)) { // raw split (xml, jsonl) and not
      Path parts = dir.resolve("trunc-new-" + to).resolve("parts");
      assertThatThrownBy(
              () ->
                  CorpusTools.split(
                      List.of(good, f),
                      null,
                      new CorpusTools.SplitRule(null, 100L, null),
                      parts,
                      "p",
                      to,
                      false))
          .hasMessageContaining(f + "")
          .hasMessageContaining("the file ends too soon")
          .hasMessageMatching(".*\\(the (\\d+) of \\1 parts written were removed\\)");
      assertThat(parts.getParent()).doesNotExist(); // the run created both: removed with the parts
    }
    Path kept = Files.createDirectories(dir.resolve("trunc-kept"));
    assertThatThrownBy(
            () ->
                CorpusTools.split(
                    List.of(good, f),
                    null,
                    new CorpusTools.SplitRule(null, 100L, null),
                    kept,
                    "p",
                    Format.JSONL,
                    false))
        .hasMessageContaining("parts written were removed");
    assertThat(kept).isEmptyDirectory(); // there before: kept
    if (format == Format.XML) {
      Path cleaned = dir.resolve("trunc-clean.xml");
      assertThatThrownBy(() -> Cleaner.clean(f, cleaned))
          .hasMessageStartingWith("cannot clean " + f);
      assertThat(cleaned).doesNotExist();
      try (var left = Files.list(dir)) {
        assertThat(left.map(p -> p.getFileName().toString()))
            .noneMatch(n -> n.startsWith(".partial-"));
      }
    }
  }

  @Test
  void aMultiFileWriteThatFailsInAnyWayLeavesNoParts() throws IOException {
    Path parts = dir.resolve("any-failure").resolve("parts");
    List<String> written = new ArrayList<>();
    assertThatThrownBy(
            () ->
                Outputs.allOrNone(
                    parts,
                    written,
                    () -> {
                      try {
                        Files.createDirectories(parts);
                        Path part = parts.resolve("p-1.jsonl");
                        Outputs.opening(part, () -> Files.newOutputStream(part)).close();
                        written.add(part.toString());
                      } catch (IOException e) {
                        throw new UncheckedIOException(e);
                      }
                      throw new IllegalStateException("a bug half way");
                    }))
        .isInstanceOf(IllegalStateException.class);
    assertThat(parts.getParent()).doesNotExist();
  }

  @Test
  void anOutputThatCannotBeWrittenSaysWhy() throws IOException {
    Path in = write(corpus(2), "why.jsonl");
    Path blocker = Files.writeString(dir.resolve("blocker"), "a file");
    assertThatThrownBy(
            () -> CorpusTools.convert(List.of(in), null, blocker.resolve("out.xml"), Format.XML))
        .hasMessageContaining("cannot write " + blocker.resolve("out.xml") + ": ")
        .hasMessageNotContaining(".partial-")
        .hasMessageMatching(".*(not a directory|already exists).*");
    assertThatThrownBy(() -> CorpusTools.convert(List.of(in), null, dir, Format.XML))
        .hasMessage(dir + " is a directory: give a file name for the output");
  }

  @Test
  void invalidUtf8InACsvHeaderSkipsTheFileWithOneReport() throws IOException {
    Path f = dir.resolve("bad-header.csv");
    Files.write(f, new byte[] {'i', 'd', ',', (byte) 0xC3, '(', '\n', '1', ',', 'a', '\n'});
    List<Item> items = readItems(f);
    assertThat(items).hasSize(1);
    assertThat(items.get(0).error())
        .contains("header", "invalid UTF-8", "rest of the file is skipped");
  }

  @Test
  void jsonKeepsNumbersAndBooleans() throws IOException {
    Path in = dir.resolve("typed.jsonl");
    Files.writeString(
        in, "{\"id\":\"a\",\"n\":3,\"x\":2.5,\"b\":true,\"many\":[1,2],\"none\":null}\n");
    Path out = dir.resolve("typed.json");
    CorpusTools.convert(List.of(in), null, out, Format.JSON);
    Document d = read(out).get(0);
    assertThat(d.fields())
        .containsEntry("n", List.of(3L))
        .containsEntry("x", List.of(2.5))
        .containsEntry("b", List.of(true))
        .containsEntry("many", List.of(1L, 2L))
        .doesNotContainKey("none");
  }

  @Test
  void jsonNumbersBeyondADoubleKeepEveryDigitInEveryFormat() throws IOException {
    Path in = dir.resolve("precise.jsonl");
    Files.writeString(
        in,
        "{\"id\":\"a\",\"pi\":3.141592653589793238,\"big\":123456789012345678901234567890,"
            + "\"x\":2.5,\"huge\":1e400}\n");
    for (String ext : new String[] {"json", "xml", "csv", "jsonl"}) {
      Path out = dir.resolve("precise-out." + ext);
      CorpusTools.convert(List.of(in), null, out, Format.of(out));
      Map<String, List<String>> t = read(out).get(0).asText();
      assertThat(t.get("pi")).as(ext).containsExactly("3.141592653589793238");
      assertThat(t.get("big")).as(ext).containsExactly("123456789012345678901234567890");
      assertThat(t.get("x")).as(ext).containsExactly("2.5");
      assertThat(new BigDecimal(t.get("huge").get(0))).as(ext).isEqualByComparingTo("1e400");
    }
    assertThat(read(in).get(0).fields().get("x")).containsExactly(2.5);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("splitRules")
  void splitNeverCutsADocument(CorpusTools.SplitRule rule, int expectedParts) throws IOException {
    List<Document> docs = corpus(103);
    Path in = write(docs, "big.xml");
    CorpusStats s =
        CorpusTools.split(List.of(in), null, rule, dir.resolve("parts"), "p", Format.XML, false);
    assertThat(s.filesWritten()).hasSize(expectedParts);
    Path[] parts = s.filesWritten().stream().map(Path::of).toArray(Path[]::new);
    assertThat(text(read(parts))).isEqualTo(text(docs));
    if (rule.maxBytes() != null) {
      for (Path p : parts) {
        // at most the limit plus one document and the writer's buffer
        assertThat(Files.size(p)).isLessThan(rule.maxBytes() + 8192 + 1024);
      }
    }
  }

  @ParameterizedTest(name = "{0} to {1}")
  @CsvSource({"jsonl, jsonl", "jsonl, json", "xml, xml", "xml, csv"})
  void partsAsksForThatManyPartsOfCountsThatDifferByOneAtMost(String from, String to)
      throws IOException {
    // raw (same format) and document paths; ten documents in six parts were five parts of two
    Path in = write(corpus(10), "ten." + from);
    for (int[] c :
        new int[][] {
          {6, 2, 2, 2, 2, 1, 1}, {4, 3, 3, 2, 2}, {3, 4, 3, 3}, {12, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
        }) {
      Path out = dir.resolve("parts-" + from + "-" + to + "-" + c[0]);
      CorpusStats s =
          CorpusTools.split(
              List.of(in),
              null,
              new CorpusTools.SplitRule(c[0], null, null),
              out,
              "p",
              Format.valueOf(to.toUpperCase(Locale.ROOT)),
              false);
      List<Integer> sizes = new ArrayList<>();
      for (String part : s.filesWritten()) {
        sizes.add(read(Path.of(part)).size());
      }
      assertThat(sizes)
          .as("--parts " + c[0])
          .containsExactlyElementsOf(Arrays.stream(c).skip(1).boxed().toList());
    }
  }

  static Stream<Arguments> splitRules() {
    return Stream.of(
        Arguments.of(new CorpusTools.SplitRule(4, null, null), 4),
        Arguments.of(new CorpusTools.SplitRule(null, 10L, null), 11),
        Arguments.of(new CorpusTools.SplitRule(1, null, null), 1),
        Arguments.of(new CorpusTools.SplitRule(null, null, 20_000L), 2));
  }

  @Test
  void aReportQuotesNoCarriageReturnWhichWouldHideItsPlaceOnATerminal() throws IOException {
    Path f = dir.resolve("crlf-junk.xml");
    Files.writeString(f, "<add>\r\njunk\r\n<doc><field name=\"id\">1</field></doc></add>\r\n");
    assertThat(
            CorpusTools.convert(List.of(f), null, dir.resolve("j.jsonl"), Format.JSONL).problems())
        .singleElement()
        .asString()
        .startsWith(f + ":2: ")
        .doesNotContain("\r")
        .contains("junk");
  }

  @Test
  void anInputWithoutAnyDocumentIsNamed() throws IOException {
    Path empty = dir.resolve("empty.jsonl");
    Files.writeString(empty, "\n\n");
    Path one = write(corpus(1), "one.jsonl");
    Path emptyXml = dir.resolve("empty.xml");
    Files.writeString(emptyXml, "<add>\n</add>\n");
    assertThat(
            CorpusTools.convert(
                    List.of(empty, one, emptyXml), null, dir.resolve("o.json"), Format.JSON)
                .emptyInputs())
        .containsExactly(empty.toString(), emptyXml.toString());
    assertThat(
            CorpusTools.split(
                    List.of(one, empty),
                    null,
                    new CorpusTools.SplitRule(1, null, null),
                    dir.resolve("e-parts"),
                    "p",
                    Format.JSONL,
                    false)
                .emptyInputs()) // the raw path
        .containsExactly(empty.toString());
  }

  @Test
  void aFileInAnotherFormatIsOneReportNotNonsenseOrAFlood() throws IOException {
    Path xml = dir.resolve("really-xml.txt");
    Files.writeString(
        xml,
        "<add>\n<doc><field name=\"id\">1</field></doc>\n<doc><field name=\"id\">2"
            + "</field></doc>\n</add>\n");
    for (Format f : List.of(Format.CSV, Format.CSV_PLAIN, Format.JSON)) {
      CorpusStats s = CorpusTools.convert(List.of(xml), f, dir.resolve("out.jsonl"), Format.JSONL);
      assertThat(s.read()).as(f.toString()).isZero(); // CSV read a column named "<add>" before
      assertThat(s.problems())
          .as(f.toString())
          .containsExactly(
              xml
                  + ":1: not "
                  + (f == Format.JSON ? "a JSON array" : "CSV")
                  + ": it starts with '<' as Solr XML does; "
                  + "give --format xml, or a file name that says which");
    }
    // JSON Lines reads every line (a bad first one does not make the rest bad), with a hint
    List<Item> items = readItems(Corpus.open(xml, Format.JSONL));
    assertThat(failures(items))
        .hasSize(4)
        .allSatisfy(
            i ->
                assertThat(i.error())
                    .endsWith(
                        "(a line of Solr XML? an XML file is read as .xml, or with --format xml)"));
    Path jsonl = dir.resolve("lines.txt");
    Files.writeString(jsonl, "{\"id\":\"1\",\"x\":NaN}\n");
    assertThat(failures(readItems(Corpus.open(jsonl, Format.JSONL))).map(Item::error))
        .containsExactly(
            "malformed JSON: NaN is not a JSON number (neither Solr nor JSON has NaN or Infinity): write "
                + "null, or leave the field out");
    Files.writeString(jsonl, "{\"id\":\"2\",\"v\":+1}\n{\"id\":\"5\"} // c\n");
    assertThat(failures(readItems(Corpus.open(jsonl, Format.JSONL))).map(Item::error))
        .hasSize(2)
        .noneMatch(e -> e.contains("enable") || e.contains("Feature"))
        .last()
        .asString()
        .contains("comment? (JSON has none)");
    assertThat(
            CorpusTools.convert(List.of(jsonl), Format.CSV, dir.resolve("o.jsonl"), Format.JSONL)
                .problems())
        .singleElement()
        .asString()
        .contains("it starts with '{' as JSON Lines does; give " + "--format jsonl");
  }

  @Test
  void aCsvQuoteLeftOpenSaysWhichLinesItsRowTook() throws IOException {
    // the rows on lines 3-7 are inside the open quote's value: one bad row, and the lines it took
    Path f = dir.resolve("open-quote.csv");
    Files.writeString(f, "id,t\n1,\"oops\n2,b\n3,c\n4,d\n5,e\n6,\"late\"\n7,g\n8,h\n");
    CorpusStats s =
        CorpusTools.convert(List.of(f), null, dir.resolve("open-quote.jsonl"), Format.JSONL);
    assertThat(s.problems())
        .singleElement()
        .asString()
        .startsWith(f + ":2: malformed CSV row")
        .contains("this row runs from line 2 to line 7");
    assertThat(okIds(readItems(dir.resolve("open-quote.jsonl")))).containsExactly("7", "8");

    Files.writeString(f, "id,t\n1,\"never closed\n2,b\n3,c\n");
    s = CorpusTools.convert(List.of(f), null, dir.resolve("open-quote.jsonl"), Format.JSONL);
    assertThat(s.problems()).singleElement().asString().contains("runs from line 2 to line 4");

    Files.writeString(f, "id,t\n1,a\n2,\"b\n3,c\n4,\"d\"\n5,e\n"); // then one that never closes
    s = CorpusTools.convert(List.of(f), null, dir.resolve("open-quote.jsonl"), Format.JSONL);
    assertThat(s.problems())
        .hasSize(2)
        .last()
        .asString() // the last line, not one past it
        .isEqualTo(
            f
                + ":6: malformed CSV, the rest of the file is skipped: Missing closing quote for value");

    Files.writeString(f, "id,t\n1,\"a\nb\"\n2,\"x\"y\n3,c\n"); // a bad one-line row: no span
    s = CorpusTools.convert(List.of(f), null, dir.resolve("open-quote.jsonl"), Format.JSONL);
    assertThat(s.problems())
        .singleElement()
        .asString()
        .startsWith(f + ":4: malformed CSV row")
        .doesNotContain("runs from");
  }

  @Test
  void splitRuleNeedsExactlyOneLimit() {
    assertThatThrownBy(() -> new CorpusTools.SplitRule(null, null, null))
        .hasMessageContaining("exactly one");
    assertThatThrownBy(() -> new CorpusTools.SplitRule(0, null, null))
        .hasMessageContaining("at least 1");
  }

  @Test
  void sampleFirstAndSeededRandomKeepInputOrder() throws IOException {
    List<Document> docs = corpus(200);
    Path in = write(docs, "s.jsonl");
    CorpusTools.sample(List.of(in), null, 10, null, dir.resolve("first.jsonl"), Format.JSONL);
    assertThat(text(read(dir.resolve("first.jsonl")))).isEqualTo(text(docs.subList(0, 10)));

    CorpusTools.sample(List.of(in), null, 10, 7L, dir.resolve("r1.jsonl"), Format.JSONL);
    CorpusTools.sample(List.of(in), null, 10, 7L, dir.resolve("r2.jsonl"), Format.JSONL);
    CorpusTools.sample(List.of(in), null, 10, 8L, dir.resolve("r3.jsonl"), Format.JSONL);
    List<Document> r1 = read(dir.resolve("r1.jsonl"));
    assertThat(r1).hasSize(10);
    assertThat(text(read(dir.resolve("r2.jsonl")))).isEqualTo(text(r1));
    assertThat(text(read(dir.resolve("r3.jsonl")))).isNotEqualTo(text(r1));
    List<Integer> positions =
        r1.stream().map(d -> Integer.parseInt(d.first("id").substring(4))).toList();
    assertThat(positions).isSorted().doesNotHaveDuplicates();
    assertThat(positions.get(positions.size() - 1)).isGreaterThan(10); // not just the head
  }

  @Test
  void brokenXmlDocumentsAreReportedByLineAndTheirNeighboursRead() throws IOException {
    Path f = dir.resolve("bad.xml");
    Files.writeString(
        f,
        String.join(
            "\n",
            "<add>",
            "<doc><field name=\"id\">1</field></doc>",
            "<doc><field name=\"id\">2</field><field name=\"t\">unclosed</doc>",
            "<doc><field name=\"id\">3</field>",
            "<doc><field name=\"id\">4</field><field name=\"t\">bad \u0001 char</field></doc>",
            "<doc><field name=\"id\">5</field></doc>",
            "<doc><field>no name</field></doc>",
            "<doc><field name=\"id\">6</field></doc>",
            "</add>"));
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("1", "5", "6");
    assertThat(failures(items).map(Item::line)).containsExactly(3L, 4L, 5L, 7L);
    assertThat(failures(items).map(Item::error)).allSatisfy(e -> assertThat(e).isNotBlank());
  }

  @Test
  void aDocumentWithNestedChildrenIsReadWholeAndNoChildIsReadOnItsOwn() throws IOException {
    Path f = dir.resolve("nested.xml");
    Files.writeString(
        f,
        String.join(
            "\n",
            "<add>",
            "<doc><field name=\"id\">p1</field>",
            "  <doc><field name=\"id\">c1</field></doc>",
            "  <doc><field name=\"id\">c2</field><doc><field name=\"id\">g1</field></doc></doc>",
            "  <field name=\"t\">after the children</field>",
            "</doc>",
            "<doc><field name=\"id\">2</field></doc>",
            "<doc><field name=\"id\">3</field>", // missing </doc>: not a parent of 4 and 5
            "<doc><field name=\"id\">4</field></doc>",
            "<doc><field name=\"id\">p2</field><doc/><doc><field name=\"id\">p2c</field></doc ></doc >",
            "<doc><field name=\"id\">5</field></doc>",
            "</add>",
            "<add>",
            "<doc><field name=\"id\">6</field><doc/></doc>", // an empty child
            "<doc><field name=\"id\">7</field></doc>",
            "</doc>", // stray: must not make 7 and 8 the children of anything
            "<doc><field name=\"id\">8</field></doc>",
            "<doc><field name=\"id\">9</field><field name=\"c\"><doc><field name=\"id\">9a</field></doc></field></doc>",
            "</add>"));
    for (boolean utf8 : new boolean[] {false, true}) {
      List<Item> items = readItems(f, utf8);
      assertThat(okIds(items)).containsExactly("p1", "2", "4", "p2", "5", "6", "7", "8");
      assertThat(items.get(4).document().children())
          .extracting(c -> c.first("id"))
          .containsExactly(null, "p2c"); // a family after a missing </doc> is still read whole
      Document p1 = items.get(0).document();
      assertThat(p1.asText()).containsEntry("t", List.of("after the children"));
      assertThat(p1.children()).extracting(c -> c.first("id")).containsExactly("c1", "c2");
      assertThat(p1.children().get(1).children())
          .extracting(c -> c.first("id"))
          .containsExactly("g1");
      assertThat(p1.size()).isEqualTo(4);
      assertThat(items.get(6).document().first("id")).isEqualTo("6");
      assertThat(items.get(6).document().children())
          .singleElement()
          .satisfies(c -> assertThat(c.fields()).isEmpty());
      assertThat(failures(items).map(i -> i.line() + " " + i.error()))
          .containsExactly(
              "8 " + XmlChunks.NOT_CLOSED,
              "16 " + String.format(XmlChunks.STRAY, "</doc>"),
              "18 a <doc> inside a <field> (a labelled child document) is not supported; put the child "
                  + "<doc> straight inside its parent's <doc>");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"xml", "jsonl", "json"})
  void childDocumentsRoundTripThroughEveryFormatThatHoldsThem(String ext) throws IOException {
    Document p =
        new Document()
            .add("id", "p")
            .add("t", "parent")
            .addChild(
                new Document()
                    .add("id", "c1")
                    .add("n", "1")
                    .addChild(new Document().add("id", "g1")))
            .addChild(new Document().add("id", "c2"));
    List<Document> docs = List.of(new Document().add("id", "a"), p, new Document().add("id", "b"));
    Path f = write(docs, "children." + ext);
    assertThat(text(read(f))).isEqualTo(text(docs));
    Path back = dir.resolve("children-back.xml");
    CorpusTools.convert(List.of(f), null, back, Format.XML);
    assertThat(text(read(back))).isEqualTo(text(docs));
    Path csv = dir.resolve("children.csv");
    CorpusStats s = CorpusTools.convert(List.of(f), null, csv, Format.CSV);
    assertThat(s.problems())
        .singleElement()
        .asString()
        .contains("the document has child documents, which CSV cannot hold");
    assertThat(okIds(readItems(csv))).containsExactly("a", "b");
  }

  @Test
  void whatCsvOrXmlWouldChangeIsReportedNotWritten() throws IOException {
    Path f = dir.resolve("empties.jsonl");
    Files.writeString(
        f,
        "{\"id\":\"1\",\"t\":\"\"}\n{\"id\":\"2\",\"\":\"x\"}\n"
            + "{\"id\":\"3\",\"t\":[\"a\",\"\"]}\n{\"id\":\"4\",\"t\":\"b\"}\n"
            + "{\"id\":\"5\",\"t\":\"c\",\" t\":\"d\"}\n{\"id\":\"6\",\"t\":[\"\",\"\"]}\n"
            + "{}\n{\"\\uFEFFid\":\"8\"}\n{\"u\":[]}\n");
    CorpusStats csv = CorpusTools.convert(List.of(f), null, dir.resolve("empties.csv"), Format.CSV);
    assertThat(csv.problems())
        .containsExactly(
            f
                + ":1: field 't' has an empty value, which CSV cannot tell from no value (it would read "
                + "back without it): convert to xml, jsonl or json instead",
            f
                + ":2: a field has an empty name, which Solr cannot index (and CSV or XML cannot carry "
                + "back): give it a name in the input",
            f
                + ":5: field name ' t' begins or ends with white space, which a CSV header loses (it "
                + "would read back as 't'): rename it, or convert to xml, jsonl or json instead",
            f
                + ":7: the document has no fields, and an empty CSV row reads back as no document: give "
                + "it an id, or convert to xml, jsonl or json instead",
            f
                + ":8: field name 'id' begins with U+FEFF (a byte order mark), which a CSV header loses:"
                + " rename it, or convert to xml, jsonl or json instead",
            f
                + ":9: the document has no fields, and an empty CSV row reads back as no document: give "
                + "it an id, or convert to xml, jsonl or json instead");
    // several values, empty ones among them, are joined with '|' and come back as they were
    assertThat(text(read(dir.resolve("empties.csv"))))
        .containsExactly(
            Map.of("id", List.of("3"), "t", List.of("a", "")),
            Map.of("id", List.of("4"), "t", List.of("b")),
            Map.of("id", List.of("6"), "t", List.of("", "")));
    CorpusStats xml = CorpusTools.convert(List.of(f), null, dir.resolve("empties.xml"), Format.XML);
    assertThat(xml.problems())
        .singleElement()
        .asString()
        .startsWith(f + ":2: a field has an empty name");
    assertThat(text(read(dir.resolve("empties.xml"))))
        .hasSize(8)
        .contains(
            Map.of("id", List.of("1"), "t", List.of("")),
            Map.of("id", List.of("5"), "t", List.of("c"), " t", List.of("d")));
  }

  @Test
  void plainCsvKeepsBarsAndBackslashesAndHoldsOneValuePerCell() throws IOException {
    Path f = dir.resolve("for-plain.jsonl");
    Files.writeString(
        f,
        "{\"id\":\"1\",\"t\":\"a|b\\\\c\"}\n{\"id\":\"2\",\"t\":[\"x\",\"y\"]}\n"
            + "{\"id\":\"3\",\"t\":\"\"}\n{\"id\":\"4\",\"u\":\"|\"}\n");
    Path plain = dir.resolve("plain.csv");
    assertThat(Format.output(Format.ofOutput(plain), Format.CSV_PLAIN)).isEqualTo(Format.CSV_PLAIN);
    assertThat(Format.output(Format.ofOutput(plain), Format.JSONL)).isEqualTo(Format.CSV);
    CorpusStats s = CorpusTools.convert(List.of(f), null, plain, Format.parse("csv-plain"));
    assertThat(s.problems())
        .containsExactly(
            f
                + ":2: field 't' has 2 values, and plain CSV holds one per cell: write csv (values joined "
                + "by '|'), xml, jsonl or json instead",
            f
                + ":3: field 't' has an empty value, which CSV cannot tell from no value (it would read "
                + "back without it): convert to xml, jsonl or json instead");
    assertThat(Files.readString(plain))
        .isEqualTo("id,t,u\n1,\"a|b\\c\",\n4,,|\n"); // no column from 2
    List<Document> back = new ArrayList<>();
    try (CorpusReader r = Corpus.open(plain, Format.CSV_PLAIN)) {
      for (Item i = r.next(); i != null; i = r.next()) {
        back.add(i.document());
      }
    }
    assertThat(text(back))
        .containsExactly(
            Map.of("id", List.of("1"), "t", List.of("a|b\\c")),
            Map.of("id", List.of("4"), "u", List.of("|")));
    // the same file as csv: '|' joins values
    assertThat(text(read(plain)).get(0)).containsEntry("t", List.of("a", "b\\c"));
    // plain in, plain out: a document read plain is written plain
    Path again = dir.resolve("again.csv");
    CorpusTools.convert(List.of(plain), Format.CSV_PLAIN, again, Format.CSV_PLAIN);
    assertThat(Files.readString(again)).isEqualTo(Files.readString(plain));
  }

  @Test
  void jsonChildrenMustBeObjects() throws IOException {
    Path f = dir.resolve("bad-children.jsonl");
    Files.writeString(
        f,
        "{\"id\":\"1\",\"_childDocuments_\":[1]}\n"
            + "{\"id\":\"2\",\"_childDocuments_\":{\"id\":\"2a\"}}\n{\"id\":\"3\",\"o\":{\"id\":\"x\"}}\n");
    List<Item> items = readItems(f);
    assertThat(items.get(0).error()).contains("_childDocuments_ holds a number");
    assertThat(items.get(1).document().children())
        .extracting(c -> c.first("id"))
        .containsExactly("2a");
    assertThat(items.get(2).error()).contains("child documents go under _childDocuments_");
  }

  @Test
  void atomicUpdatesAndDeletesAreReportedNeverAppliedAsSomethingElse() throws IOException {
    Path f = dir.resolve("updates.xml");
    Files.writeString(
        f,
        String.join(
            "\n",
            "<add>",
            "<doc><field name=\"id\">1</field><field name=\"n_i\" update=\"inc\">1</field></doc>",
            "<doc><field name=\"id\">2</field><field name=\"t_s\" null=\"true\"/></doc>",
            "<doc boost=\"2\"><field name=\"id\">3</field><field name=\"t_s\" boost=\"2\">x</field></doc>",
            "</add>",
            "<delete><id>5</id></delete>",
            "<delete>",
            "  <query>*:*</query></delete>",
            "<add><doc><field name=\"id\">4</field></doc><delete/></add>"));
    for (boolean utf8 : new boolean[] {false, true}) {
      List<Item> items = readItems(f, utf8);
      assertThat(okIds(items)).containsExactly("3", "4");
      assertThat(failures(items).map(i -> i.line() + " " + i.error()))
          .containsExactly(
              "2 <field name=\"n_i\"> has update=\"inc\": atomic updates are not supported (solrscale "
                  + "sends whole documents, which would replace the stored ones)",
              "3 <field name=\"t_s\"> has null=\"true\": atomic updates are not supported (solrscale "
                  + "sends whole documents, which would replace the stored ones)",
              "6 " + XmlChunks.DELETE,
              "7 " + XmlChunks.DELETE,
              "9 " + XmlChunks.DELETE);
    }
    Path parts = dir.resolve("update-parts"); // split reports them as well
    CorpusStats s =
        CorpusTools.split(
            List.of(f),
            null,
            new CorpusTools.SplitRule(1, null, null),
            parts,
            "part",
            Format.XML,
            false);
    assertThat(s.bad).isEqualTo(3);
  }

  @Test
  void contentOfAnotherFormatIsReportedNotReadAsNoDocuments() throws IOException {
    Path csvAsXml = dir.resolve("really-csv.xml");
    Files.writeString(csvAsXml, "id,t\n1,a\n");
    assertThat(readItems(csvAsXml))
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.ok()).isFalse();
              assertThat(i.error()).startsWith("not Solr XML (it starts with 'i', not '<')");
            });
    Path noHeader = dir.resolve("no-header.csv");
    Files.writeString(noHeader, "\n1,a\n");
    assertThat(readItems(noHeader))
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.error()).startsWith("no CSV header line, the file is skipped: ");
              assertThat(i.error()).doesNotContain("\n");
            });
    for (String empty : new String[] {"empty.xml", "empty.csv", "empty.jsonl", "empty.json"}) {
      Files.writeString(dir.resolve(empty), "");
      assertThat(readItems(dir.resolve(empty))).as(empty).isEmpty();
    }
    Path blankXml = dir.resolve("blank.xml");
    Files.writeString(blankXml, "\n  <add>\n</add>\n");
    assertThat(readItems(blankXml)).isEmpty();
  }

  @Test
  void aMismatchedEndTagIsReportedAndTheScanGoesOn() {
    Path f = dir.resolve("mismatched.xml");
    Assertions.assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> {
          Files.writeString(
              f,
              "<add><doc><field name=\"id\">1</field></doc>\n<doc><field name=\"id\">2</field></dox>\n"
                  + "<doc><field name=\"id\">3</field></doc></add>");
          List<Item> items = readItems(f);
          assertThat(okIds(items)).containsExactly("1", "3");
          assertThat(failures(items).map(Item::line)).containsExactly(2L);
          assertThat(failures(items).map(Item::raw))
              .containsExactly("<doc><field name=\"id\">2</field></dox>\n");
          Files.writeString(f, "<add><doc><field name=\"id\">1</field></dox></add>");
          assertThat(readItems(f)).singleElement().satisfies(i -> assertThat(i.ok()).isFalse());
        });
  }

  @Test
  void carriageReturnsSurviveXmlAndDuplicateJsonKeysAreReported() throws IOException {
    Path in = dir.resolve("cr.jsonl");
    Files.writeString(
        in, "{\"id\":\"1\",\"t\":\"x\\r\\ny\\rz\"}\n{\"id\":\"2\",\"t\":\"a\",\"t\":\"b\"}\n");
    List<Item> items = readItems(in);
    assertThat(items.get(1).error()).contains("duplicate key 't'");
    Path xml = dir.resolve("cr.xml");
    CorpusTools.convert(List.of(in), null, xml, Format.XML);
    assertThat(read(xml).get(0).first("t")).isEqualTo("x\r\ny\rz");
    Path tiny = dir.resolve("tiny.jsonl.gz");
    Files.write(tiny, new byte[] {0x1f, (byte) 0x8b});
    assertThatThrownBy(
            () -> CorpusTools.convert(List.of(tiny), null, dir.resolve("t.xml"), Format.XML))
        .hasMessageContaining("ends too soon (truncated?)");
  }

  @Test
  void whatFollowsAJsonArrayIsReportedNotDropped() throws IOException {
    Path f = dir.resolve("two.json");
    Files.writeString(f, "[{\"id\":\"1\"}]\n[{\"id\":\"2\"},{\"id\":\"3\"}]\n");
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("1");
    assertThat(failures(items).map(Item::where)).containsExactly(f + ":2");
    Files.writeString(f, "[{\"id\":\"1\"}] trailing");
    assertThat(readItems(f))
        .filteredOn(i -> !i.ok())
        .singleElement()
        .satisfies(i -> assertThat(i.error()).contains("the rest of the file is skipped"));
    Files.writeString(f, "[{\"id\":\"1\"}]\n\n");
    assertThat(readItems(f)).singleElement().satisfies(i -> assertThat(i.ok()).isTrue());
  }

  @Test
  void aBrokenJsonLineIsReportedAndTheNextLineRead() throws IOException {
    Path f = dir.resolve("bad.jsonl");
    Files.writeString(
        f,
        "{\"id\":\"1\"}\n{\"id\": \"2\"\n\n{\"id\":\"3\",\"o\":{\"x\":1}}\n[1]\n{\"id\":\"4\"}\n");
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("1", "4");
    assertThat(failures(items).map(Item::where)).containsExactly(f + ":2", f + ":4", f + ":5");
    assertThat(failures(items).map(Item::raw)) // to be mended from the rejects
        .containsExactly("{\"id\": \"2\"", "{\"id\":\"3\",\"o\":{\"x\":1}}", "[1]");
  }

  @Test
  void commentsAndCdataAreTextNotDocumentsInEveryReaderAndSplit() throws IOException {
    Path f = dir.resolve("sections.xml");
    Files.writeString(
        f,
        "<add>\n<doc><field name=\"id\">1</field><field name=\"t\"><![CDATA[a</doc>b]]></field></doc>\n"
            + "<!-- <doc><field name=\"id\">gone</field></doc> -->\n"
            + "<doc><field name=\"id\">2</field><!-- </doc> --><field name=\"t\">c</field></doc>\n</add>\n");
    List<Item> items = readItems(f);
    assertThat(items).allSatisfy(i -> assertThat(i.error()).isNull());
    assertThat(okIds(items)).containsExactly("1", "2");
    assertThat(items.get(0).document().first("t")).isEqualTo("a</doc>b");
    assertThat(items.get(1).line()).isEqualTo(4);
    for (Format to : List.of(Format.XML, Format.JSONL)) { // raw split, and through documents
      CorpusStats s =
          CorpusTools.split(
              List.of(f),
              null,
              new CorpusTools.SplitRule(2, null, null),
              dir.resolve("sections-" + to),
              "p",
              to,
              false);
      assertThat(s.bad()).isZero();
      Path[] parts = s.filesWritten().stream().map(Path::of).toArray(Path[]::new);
      assertThat(text(read(parts))).isEqualTo(text(items.stream().map(Item::document).toList()));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<ADD><DOC><field name=\"id\">1</field></DOC></ADD>|1|<ADD>",
        "<s:add xmlns:s=\"x\"><s:doc><field name=\"id\">1</field></s:doc></s:add>|1|<s:add xmlns:s=\"x\">",
        "<html><body>hello</body></html>|1|<html>",
        "<add>\n<doc><field name=\"id\">1</field></doc>\n  stray text\n<doc><field name=\"id\">2</field></doc></add>|3|stray text",
        "<add><docs><doc><field name=\"id\">1</field></doc></docs></add>|1|<docs>"
      })
  void contentThatIsNotASolrDocumentIsReportedOnceNeverSkippedSilently(String row)
      throws IOException {
    String[] r = row.split("\\|");
    Path f = dir.resolve("stray.xml");
    Files.writeString(f, r[0]);
    List<Item> items = readItems(f);
    assertThat(failures(items).map(i -> i.line() + " " + i.error()))
        .containsExactly(r[1] + " " + String.format(XmlChunks.STRAY, r[2]));
    CorpusStats s =
        CorpusTools.split(
            List.of(f),
            null,
            new CorpusTools.SplitRule(1, null, null),
            dir.resolve("stray-parts"),
            "p",
            Format.XML,
            false);
    assertThat(s.problems())
        .containsExactly(f + ":" + r[1] + ": " + String.format(XmlChunks.STRAY, r[2]));
  }

  @Test
  void whatMayStandBetweenDocumentsIsNotReported() throws IOException {
    Path f = dir.resolve("wrappers.xml");
    Files.write(
        f,
        ("\uFEFF<?xml version=\"1.0\"?>\n<!DOCTYPE add>\n<!-- a comment -->\n<add commitWithin=\"5\">\n"
                + "<doc><field name=\"id\">1</field></doc>\n</add>\n<add><doc><field name=\"id\">2</field></doc>"
                + "<commit/></add>\n<optimize waitSearcher=\"false\"/>\n")
            .getBytes(StandardCharsets.UTF_8));
    List<Item> items = readItems(f);
    assertThat(items).allSatisfy(i -> assertThat(i.error()).isNull());
    assertThat(okIds(items)).containsExactly("1", "2");
  }

  @Test
  void xmlDeclaredInAnotherEncodingIsReadInItAndSplitAndConvertedToUtf8() throws IOException {
    String text =
        "<?xml version='1.0' encoding='ISO-8859-1'?>\n<add>\n"
            + "<doc><field name=\"id\">1</field><field name=\"t\">caf\u00e9 \u00fcber</field></doc>\n"
            + "<doc><field name=\"id\">2</field><field name=\"t\">na\u00efve</field></doc>\n</add>\n";
    Path latin = dir.resolve("latin1.xml");
    Files.write(latin, text.getBytes(StandardCharsets.ISO_8859_1));
    Path utf16 = dir.resolve("utf16.xml");
    Files.write(
        utf16,
        text.replace("ISO-8859-1", "UTF-16").getBytes(StandardCharsets.UTF_16)); // with its mark
    Path le =
        dir.resolve("utf16le.xml"); // no mark: told by the first '<', as XML's appendix F does
    Files.write(le, text.replace("ISO-8859-1", "UTF-16").getBytes(StandardCharsets.UTF_16LE));
    Path be = dir.resolve("utf16be.xml");
    Files.write(be, text.substring(text.indexOf("<add>")).getBytes(StandardCharsets.UTF_16BE));
    for (Path f : List.of(latin, utf16, le, be)) {
      for (boolean utf8 : new boolean[] {false, true}) {
        List<Item> items = readItems(f, utf8);
        assertThat(items).allSatisfy(i -> assertThat(i.error()).isNull());
        assertThat(items)
            .extracting(i -> i.document().first("t"))
            .containsExactly("caf\u00e9 \u00fcber", "na\u00efve");
      }
      CorpusStats s =
          CorpusTools.split(
              List.of(f),
              null,
              new CorpusTools.SplitRule(2, null, null),
              dir.resolve("enc-" + f.getFileName()),
              "p",
              Format.XML,
              false);
      Path[] parts = s.filesWritten().stream().map(Path::of).toArray(Path[]::new);
      assertThat(read(parts))
          .extracting(d -> d.first("t"))
          .containsExactly("caf\u00e9 \u00fcber", "na\u00efve");
      assertThatThrownBy(() -> Cleaner.clean(f, dir.resolve("enc-clean.xml")))
          .hasMessageContaining(f == latin ? "declares the encoding ISO-8859-1" : "is in UTF-16")
          .hasMessageContaining("convert it first");
    }
    Path cp1252 = dir.resolve("cp1252.xml");
    byte[] b = text.replace("ISO-8859-1", "windows-1252").getBytes(StandardCharsets.ISO_8859_1);
    b[b.length - 20] = (byte) 0x81; // a byte windows-1252 leaves undefined, in document 2
    Files.write(cp1252, b);
    String why =
        "bytes that the file's declared encoding (windows-1252) does not allow: fix them, "
            + "or declare the encoding the file is in";
    for (boolean utf8 : new boolean[] {false, true}) { // reported with its line; the others read
      List<Item> items = readItems(cp1252, utf8);
      assertThat(okIds(items)).containsExactly("1");
      assertThat(failures(items).map(i -> i.line() + " " + i.error())).containsExactly("4 " + why);
    }
    // UTF-16 (told by its first '<') with a lone surrogate in document 1001, past the first block
    ByteArrayOutputStream u = new ByteArrayOutputStream();
    u.writeBytes(
        ("<add>\n"
                + "<doc><field name=\"id\">x</field></doc>\n".repeat(1000)
                + "<doc><field name=\"id\">a")
            .getBytes(StandardCharsets.UTF_16BE));
    u.writeBytes(new byte[] {(byte) 0xD8, 0x00});
    u.writeBytes(
        ("</field></doc>\n<doc><field name=\"id\">\u00e9\ud83d\ude00</field></doc>\n"
                + "<doc><field name=\"id\">y</field></doc>\n</add>")
            .getBytes(StandardCharsets.UTF_16BE));
    Path lone = dir.resolve("lone-surrogate.xml");
    Files.write(lone, u.toByteArray());
    List<Item> items = readItems(lone);
    assertThat(okIds(items)).hasSize(1002).endsWith("x", "\u00e9\ud83d\ude00", "y");
    assertThat(failures(items).map(i -> i.line() + " " + i.error()))
        .containsExactly(
            "1002 bytes that the file's declared encoding (UTF-16BE) does not allow: fix them, or "
                + "declare the encoding the file is in");
    Path unknown = dir.resolve("unknown.xml");
    Files.writeString(unknown, text.replace("ISO-8859-1", "klingon"));
    assertThatThrownBy(() -> readItems(unknown))
        .hasMessageContaining("declares the encoding 'klingon'");
    Path marked = dir.resolve("marked-latin1.xml");
    Files.write(marked, ("\uFEFF" + text).getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(
            () -> CorpusTools.convert(List.of(marked), null, dir.resolve("m.jsonl"), Format.JSONL))
        .hasMessage(
            "cannot read "
                + marked
                + ": it starts with UTF-8's byte order mark but declares "
                + "the encoding 'ISO-8859-1': one of them is wrong; remove the mark or fix the declaration");
  }

  @Test
  void jsonAndCsvProblemsAreWordedWithoutJacksonsInternals() throws IOException {
    Path array = dir.resolve("dup-array.json");
    Files.writeString(
        array,
        "[{\"id\":\"1\",\"a\":{\"x\":[1,{\"y\":2}]},\"a\":2,\"b\":[3]},\n{\"id\":\"2\"},\n"
            + "{\"id\":\"3\",\"c\":1,\"c\":{\"z\":[]}},{\"id\":\"4\"}]");
    List<Item> items = readItems(array);
    assertThat(okIds(items)).containsExactly("2", "4"); // the array reads on after a duplicate key
    assertThat(failures(items).map(i -> i.line() + " " + i.error()))
        .containsExactly(
            "1 duplicate key 'a': a JSON object names it twice, and one value would be lost (give a "
                + "list for several values)",
            "3 duplicate key 'c': a JSON object names it twice, and one value would be lost (give a "
                + "list for several values)");
    Path lines = dir.resolve("open.jsonl");
    Files.writeString(lines, "{\"id\":\"1\"\n{\"id\":\"2\"}\n");
    assertThat(failures(readItems(lines)).map(Item::error))
        .singleElement()
        .asString()
        .isEqualTo("malformed JSON: Unexpected end-of-input: expected close marker for Object");
    Path csv = dir.resolve("blank-column.csv");
    Files.writeString(csv, "id,title, \n1,a,x\n");
    assertThat(failures(readItems(csv)).map(Item::error))
        .singleElement()
        .asString()
        .startsWith("the row has more values than the 2 columns the header names");
  }

  @Test
  void invalidUtf8InAJsonArrayOnOneLineIsBlamedOnItsOwnObject() throws IOException {
    Path f = dir.resolve("one-line.json");
    byte[] bad = {(byte) 0xC3, (byte) 0x28};
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes("[{\"id\":\"1\"},{\"id\":\"2\",\"t\":\"".getBytes(StandardCharsets.UTF_8));
    b.writeBytes(bad);
    // 3 has a duplicate key and invalid UTF-8: reported once, for the key, and 4 is not blamed
    b.writeBytes("\"},{\"id\":\"3\",\"k\":\"".getBytes(StandardCharsets.UTF_8));
    b.writeBytes(bad);
    b.writeBytes(
        "\",\"k\":1},{\"id\":\"4\"}, {\"id\":\"5\",\"t\":\"".getBytes(StandardCharsets.UTF_8));
    b.writeBytes(bad);
    b.writeBytes("\"},{\"id\":\"6\"}]".getBytes(StandardCharsets.UTF_8));
    Files.write(f, b.toByteArray());
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("1", "4", "6");
    assertThat(failures(items).map(i -> i.ordinal() + " " + i.error().substring(0, 13)))
        .containsExactly("2 invalid UTF-8", "3 duplicate key", "5 invalid UTF-8");
  }

  @Test
  void aNumberNoJavaTypeHoldsIsReportedWithItsObjectAndTheArrayReadsOn() throws IOException {
    Path f = dir.resolve("exponent.json");
    Files.writeString(f, "[{\"id\":\"1\",\"x\":1e2147483648,\"y\":[{}]},\n{\"id\":\"2\"}]");
    Path g = dir.resolve("exponent.jsonl");
    Files.writeString(g, "{\"id\":\"1\",\"x\":1e2147483648}\n{\"id\":\"2\"}\n");
    for (Path p : List.of(f, g)) {
      List<Item> items = readItems(p);
      assertThat(okIds(items)).as(p.toString()).containsExactly("2");
      assertThat(failures(items).map(i -> i.where() + " " + i.error()))
          .singleElement()
          .asString()
          .isEqualTo(
              p
                  + ":1 the number 1e2147483648 is out of range (exponent overflow): no Java "
                  + "or Solr number type holds it");
    }
  }

  @Test
  void aDuplicateKeyThenBrokenSyntaxInAJsonArrayEndsTheFileWithAReport() throws IOException {
    Path f = dir.resolve("dup-then-broken.json");
    Files.writeString(
        f, "[{\"id\":\"1\"},\n{\"id\":\"2\",\"a\":1,\"a\":2,\"b\":}\n,{\"id\":\"3\"}]");
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("1");
    assertThat(failures(items).map(i -> i.where() + " " + i.error()))
        .singleElement()
        .asString()
        .startsWith(f + ":2 duplicate key 'a'")
        .contains("; then malformed JSON")
        .endsWith("(the rest of the file is skipped)");
  }

  @Test
  void theFastXmlPathRefusesWhatAnXmlParserRefuses() throws IOException {
    Path f = dir.resolve("fast.xml");
    Files.writeString(
        f,
        "<add><doc><field name=\"id\">1</field><field name=\"t\">a\uFFFFb</field></doc>\n"
            + "<doc><field name=\"id\">2</field><field name=\"\uFFFE\">x</field></doc>\n"
            + "<doc><field name=\"id\">3</field><field name=\"t\">&#+65;</field></doc>\n"
            + "<doc><field name=\"id\">4</field><field name=\"t\">&#x+31;</field></doc>\n"
            + "<doc junk><field name=\"id\">5</field></doc>\n"
            + "<doc a=\"1\" a=\"2\"><field name=\"id\">6</field></doc>\n"
            + "<doc a=b><field name=\"id\">7</field></doc>\n"
            + "<doc boost=\"2\"><field name=\"id\">8</field><field name=\"t\">&#65;&#x42;</field></doc>\n"
            + "<doc><field name=\"id\">9</field><![CDATA[lost]]>and this<field name=\"t\">x</field></doc>\n"
            + "<doc><field name=\"id\">10</field> \n\t<field name=\"t\">x</field>\n</doc></add>");
    for (boolean utf8 : new boolean[] {false, true}) {
      List<Item> items = readItems(f, utf8);
      assertThat(okIds(items)).containsExactly("8", "10");
      assertThat(failures(items).map(Item::line)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 9L);
      assertThat(items.get(7).document().first("t").toString()).isEqualTo("AB");
      assertThat(failures(items).map(Item::error).toList().get(7))
          .isEqualTo(
              "text outside any <field> in a document: 'lostand this' (Solr would drop it): put "
                  + "it in a <field name=\"...\">");
    }
  }

  @Test
  void jsonLinesHoldingNoJsonAreReportedAsSplitReportsThem() throws IOException {
    Path f = dir.resolve("odd-lines.jsonl");
    Files.writeString(
        f,
        "\uFEFF{\"id\":\"1\"}\n\u000b\n \t\n\u001e\n\u3000\n\uFEFF{\"id\":\"2\"}\n{\"id\":\"3\"}\n");
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("1", "3");
    assertThat(failures(items).map(Item::line)).containsExactly(2L, 4L, 5L, 6L);
    assertThat(failures(items).map(Item::error).toList().get(3)).isEqualTo(JsonLinesReader.MARK);
    // raw split does not parse lines, but one that does not start with '{' is no document, and a
    // mark it would move to the start of a part, where a reader skips it, it reports too
    for (Format to : List.of(Format.JSONL, Format.XML)) {
      Path parts = dir.resolve("odd-parts-" + to);
      CorpusStats s =
          CorpusTools.split(
              List.of(f), null, new CorpusTools.SplitRule(null, 1L, null), parts, "p", to, false);
      assertThat(s.written()).as(to.toString()).isEqualTo(2);
      assertThat(s.problems())
          .as(to.toString())
          .hasSize(4)
          .last()
          .asString()
          .isEqualTo(f + ":6: " + JsonLinesReader.MARK);
      List<Item> back = new ArrayList<>();
      for (String part : s.filesWritten()) {
        back.addAll(readItems(Path.of(part)));
      }
      assertThat(okIds(back)).as(to.toString()).containsExactly("1", "3");
    }
  }

  @Test
  void rawSplitOfJsonLinesNamesTheLineTheReaderNamesWhateverTheLineEnds() throws IOException {
    for (String end : List.of("\r", "\r\n", "\n")) {
      Path f = dir.resolve("ends-" + end.length() + end.charAt(0) + ".jsonl");
      Files.writeString(
          f,
          String.join(
                  end,
                  "{\"id\":\"1\"}",
                  "{\"id\":\"2\"}",
                  "",
                  "{\"id\":\"3\"}",
                  "\uFEFF{\"id\":\"4\"}",
                  "{\"id\":\"5\"}")
              + end);
      List<Item> items = readItems(f);
      assertThat(failures(items).map(Item::line)).as(end).containsExactly(5L);
      CorpusStats s =
          CorpusTools.split(
              List.of(f),
              null,
              new CorpusTools.SplitRule(null, 2L, null),
              dir.resolve("ends-parts-" + f.getFileName()),
              "p",
              Format.JSONL,
              false);
      assertThat(s.problems()).as(end).containsExactly(f + ":5: " + JsonLinesReader.MARK);
    }
  }

  @Test
  void lineEndsAreCountedAcrossReads() {
    byte[] a = "a\rb\r\nc\r".getBytes(StandardCharsets.US_ASCII);
    assertThat(ChunkScanner.lineEnds(a, a.length, false)).isEqualTo(3);
    assertThat(ChunkScanner.lineEnds(a, 2, false)).isEqualTo(1); // "a\r": the \r ends a line
    byte[] b = "\nd\n".getBytes(StandardCharsets.US_ASCII); // its \n completes the \r that ended a
    assertThat(ChunkScanner.lineEnds(b, b.length, true)).isEqualTo(1);
    assertThat(ChunkScanner.lineEnds(b, b.length, false)).isEqualTo(2);
  }

  @ParameterizedTest(name = "line end {index}")
  @ValueSource(strings = {"\n", "\r\n", "\r"})
  void xmlAndCleanNameTheSameLinesWhateverTheLineEnds(String end) throws IOException {
    // old Mac files (\r alone) were all line 1 to the XML reader, split and clean
    Path f = dir.resolve("ends-" + end.length() + (int) end.charAt(0) + ".xml");
    String bad = "<doc><field name=\"id\">2\u0001</field></doc>";
    Files.writeString(
        f,
        String.join(
                end,
                "<add>",
                "<doc><field name=\"id\">1</field></doc>",
                "",
                "<doc><field name=\"id\">x</field>",
                "<doc><field name=\"id\">y</field></doc>",
                bad,
                "</add>")
            + end);
    List<Item> items = readItems(f);
    assertThat(failures(items).map(Item::line)).as("reader").containsExactly(4L, 6L);
    CorpusStats s =
        CorpusTools.split(
            List.of(f),
            null,
            new CorpusTools.SplitRule(1, null, null),
            dir.resolve("ends-parts-" + f.getFileName()),
            "p",
            Format.XML,
            false);
    assertThat(s.problems()).as("split").singleElement().asString().startsWith(f + ":4: ");
    Cleaner.Report r = Cleaner.clean(f, dir.resolve("clean-" + f.getFileName()));
    assertThat(r.firstInvalidXmlChars()).as("clean").containsExactly(f + ":6");
  }

  @Test
  void splitOfAFileThatIsNoXmlSaysSoAsConvertDoes() throws IOException {
    Path f = dir.resolve("not.xml");
    Files.writeString(f, "x<doc><field name=\"id\">1</field></doc>");
    CorpusStats convert =
        CorpusTools.convert(List.of(f), null, dir.resolve("not-out.jsonl"), Format.JSONL);
    CorpusStats split =
        CorpusTools.split(
            List.of(f),
            null,
            new CorpusTools.SplitRule(2, null, null),
            dir.resolve("not-parts"),
            "p",
            Format.XML,
            false);
    assertThat(split.written()).isZero();
    assertThat(split.problems())
        .isEqualTo(convert.problems())
        .singleElement()
        .asString()
        .startsWith(f + ":1: not Solr XML (it starts with 'x'");
  }

  @Test
  void aCsvColumnNamedByUnicodeWhiteSpaceReadsBack() throws IOException {
    Path f = dir.resolve("u2028.jsonl");
    Files.writeString(f, "{\"id\":\"1\",\"\u2028\":\"x\"}\n{\"id\":\"2\"}\n");
    Path csv = dir.resolve("u2028.csv");
    assertThat(CorpusTools.convert(List.of(f), null, csv, Format.CSV).problems()).isEmpty();
    assertThat(text(read(csv)))
        .containsExactly(
            Map.of("id", List.of("1"), "\u2028", List.of("x")), Map.of("id", List.of("2")));
  }

  @Test
  void anEncodedSurrogateCutByABufferEdgeIsOneReplacementAsWhole() throws IOException {
    byte[] surrogate = {(byte) 0xED, (byte) 0xA0, (byte) 0x80};
    for (int at : new int[] {(1 << 20) - 2, (1 << 20) - 1, (1 << 20) - 3}) {
      byte[] b = new byte[(1 << 20) + 10];
      Arrays.fill(b, (byte) 'a');
      System.arraycopy(surrogate, 0, b, at, 3);
      Path in = Files.write(dir.resolve("sur.txt"), b);
      Cleaner.Report r = Cleaner.clean(in, dir.resolve("sur-clean.txt"));
      assertThat(r.invalidUtf8()).as("at %d", at).isEqualTo(1);
      assertThat(Files.readString(dir.resolve("sur-clean.txt")))
          .as("at %d", at)
          .isEqualTo("a".repeat(at) + "\uFFFD" + "a".repeat(b.length - at - 3));
    }
    for (int at : new int[] {(1 << 16) - 2, (1 << 16) - 1}) { // the readers' guard: 64 KB blocks
      ByteArrayOutputStream o = new ByteArrayOutputStream();
      o.writeBytes("{\"id\":\"1\",\"t\":\"".getBytes(StandardCharsets.UTF_8));
      o.writeBytes("a".repeat(at - o.size()).getBytes(StandardCharsets.UTF_8));
      o.writeBytes(surrogate);
      o.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
      Path in = Files.write(dir.resolve("sur.jsonl"), o.toByteArray());
      assertThat(failures(readItems(in)).map(Item::raw))
          .singleElement()
          .asString()
          .containsOnlyOnce("\uFFFD");
    }
  }

  @Test
  void aProcessingInstructionInsideADocumentIsNotItsText() throws IOException {
    Path f = dir.resolve("pi.xml");
    Files.writeString(
        f,
        "<add><doc><field name=\"id\">1</field>\n"
            + "<?pi <doc><field name=\"id\">ghost</field></doc> <!-- ?>\n"
            + "<field name=\"t\">a<?x </doc> ?>b</field></doc>\n<doc><field name=\"id\">2</field></doc></add>");
    for (boolean utf8 : new boolean[] {false, true}) {
      List<Item> items = readItems(f, utf8);
      assertThat(failures(items)).isEmpty();
      assertThat(text(items.stream().map(Item::document).toList()))
          .containsExactly(
              Map.of("id", List.of("1"), "t", List.of("ab")), Map.of("id", List.of("2")));
    }
  }

  @Test
  void aJsonLineLongerThanTheLimitIsReportedWithoutBeingHeld() throws IOException {
    StringBuilder sb = new StringBuilder("{\"id\":\"1\"}\n[");
    for (int i = 0; i < 50; i++) {
      sb.append("{\"id\":\"a").append(i).append("\"},");
    }
    sb.append("{\"id\":\"\u00e9\"}]\r\n{\"id\":\"3\"}\r{\"id\":\"4\"}\n\n");
    for (int i = 5; i < 6000; i++) { // lines and their ends across the reader's 64 K buffer
      sb.append("{\"id\":\"")
          .append(i)
          .append(i % 3 == 0 ? "\"}\r\n" : i % 3 == 1 ? "\"}\r" : "\"}\n");
    }
    byte[] bytes = sb.append("[{\"id\":\"short\"}]").toString().getBytes(StandardCharsets.UTF_8);
    bytes[40] =
        (byte) 0xFF; // invalid UTF-8 in the long line: reported as too long, not blamed on 3
    List<Item> items = new ArrayList<>();
    try (JsonLinesReader r = new JsonLinesReader(new ByteArrayInputStream(bytes), "f", 100)) {
      for (Item i = r.next(); i != null; i = r.next()) {
        items.add(i);
      }
    }
    assertThat(okIds(items)).hasSize(5998).startsWith("1", "3", "4", "5").endsWith("5999");
    assertThat(failures(items).map(i -> i.line() + " " + i.error()))
        .containsExactly(
            "2 " + JsonLinesReader.TOO_LONG,
            "6001 expected a JSON object, found array: a file that is one JSON array of documents is "
                + "read as .json, or with --format json");
  }

  @Test
  void jsonAndCsvInUtf16OrUtf32AreReadInIt() throws IOException {
    Map<Format, String> texts =
        Map.of(
            Format.JSON, "[{\"id\":\"1\",\"t\":\"caf\u00e9 \ud83d\ude00\"},\n{\"id\":\"2\"}]",
            Format.JSONL, "{\"id\":\"1\",\"t\":\"caf\u00e9 \ud83d\ude00\"}\n{\"id\":\"2\"}\n",
            Format.CSV, "id,t\n1,caf\u00e9 \ud83d\ude00\n2,\n");
    for (Map.Entry<Format, String> e : texts.entrySet()) {
      for (String cs : new String[] {"UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE"}) {
        Path f = dir.resolve("wide-" + cs + "." + e.getKey().extension());
        byte[] b = e.getValue().getBytes(Charset.forName(cs)); // UTF-16: marked
        Files.write(f, b);
        List<Item> items = readItems(f);
        assertThat(failures(items)).as(f.toString()).isEmpty();
        assertThat(text(items.stream().map(Item::document).toList()))
            .as(f.toString())
            .containsExactly(
                Map.of("id", List.of("1"), "t", List.of("caf\u00e9 \ud83d\ude00")),
                Map.of("id", List.of("2")));
        assertThatThrownBy(() -> Cleaner.clean(f, dir.resolve("wide-clean")))
            .hasMessageContaining(
                " (its first bytes tell), and clean works on UTF-8: convert it first");
        if (e.getKey() == Format.JSONL) { // not split raw (it copies bytes): parts in UTF-8
          CorpusStats st =
              CorpusTools.split(
                  List.of(f),
                  null,
                  new CorpusTools.SplitRule(2, null, null),
                  dir.resolve("wide-parts-" + cs),
                  "p",
                  Format.JSONL,
                  false);
          assertThat(text(read(st.filesWritten().stream().map(Path::of).toArray(Path[]::new))))
              .isEqualTo(text(items.stream().map(Item::document).toList()));
        }
      }
    }
    // a lone surrogate in UTF-16LE JSON Lines: that line is reported, in the file's terms
    byte[] a = "{\"id\":\"1\",\"t\":\"x".getBytes(StandardCharsets.UTF_16LE);
    byte[] z = "\"}\n{\"id\":\"2\"}\n".getBytes(StandardCharsets.UTF_16LE);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(a);
    out.writeBytes(new byte[] {0x00, (byte) 0xDC});
    out.writeBytes(z);
    Path f = dir.resolve("lone.jsonl");
    Files.write(f, out.toByteArray());
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("2");
    assertThat(failures(items).map(i -> i.line() + " " + i.error()))
        .containsExactly(
            "1 bytes that "
                + "the file's encoding (UTF-16LE) does not allow: fix them, or convert the file to UTF-8");
  }

  @Test
  void aSecondValueOnAJsonLineIsReportedNeverDropped() throws IOException {
    Path f = dir.resolve("two-on-a-line.jsonl");
    Files.writeString(
        f, "{\"id\":\"1\"}{\"id\":\"2\"}\n{\"id\":\"3\"} x\n{\"id\":\"4\"}  \n{\"id\":\"5\"} 6\n");
    List<Item> items = readItems(f);
    assertThat(okIds(items)).containsExactly("4");
    assertThat(failures(items).map(Item::where)).containsExactly(f + ":1", f + ":2", f + ":4");
    assertThat(items.get(0).error()).contains("more than one JSON value on the line, at column 11");
    assertThat(items.get(1).error()).startsWith("malformed JSON: Unrecognized token 'x'");
  }

  @Test
  void aLoneSurrogateIsReportedAndAControlCharacterIsNeverWrittenAsXml() throws IOException {
    Path in = dir.resolve("chars.jsonl");
    Files.writeString(
        in,
        "{\"id\":\"1\",\"t\":\"a\\uD800b\"}\n{\"id\":\"2\",\"t\":\"bell\\u0007\"}\n"
            + "{\"id\":\"3\",\"t\":\"pair \\uD83D\\uDE00 tab\\t\"}\n");
    List<Item> items = readItems(in);
    assertThat(items.get(0).error()).contains("field 't' holds a lone surrogate (\\uD800)");
    assertThat(okIds(items)).containsExactly("2", "3");
    Path xml = dir.resolve("chars.xml");
    CorpusStats stats = CorpusTools.convert(List.of(in), null, xml, Format.XML);
    assertThat(stats.written()).isEqualTo(1);
    assertThat(stats.problems())
        .containsExactly(
            in + ":1: " + items.get(0).error(),
            in
                + ":2: field 't' holds U+0007, which XML 1.0 forbids: convert to jsonl or json instead, "
                + "or remove the character from the input");
    assertThat(read(xml))
        .singleElement()
        .satisfies(d -> assertThat(d.first("t")).isEqualTo("pair \uD83D\uDE00 tab\t"));
    Path jsonl = dir.resolve("chars-out.jsonl");
    assertThat(CorpusTools.convert(List.of(in), null, jsonl, Format.JSONL).written()).isEqualTo(2);
  }

  @Test
  void aStringLongerThanJacksonsDefaultLimitIsRead() throws IOException {
    Path f = dir.resolve("long.jsonl");
    String big = "x".repeat(21 << 20);
    Files.writeString(f, "{\"id\":\"1\",\"t\":\"" + big + "\"}\n");
    assertThat(readItems(f))
        .singleElement()
        .satisfies(i -> assertThat(i.document().first("t")).hasSize(big.length()));
  }

  @Test
  void aCsvHeaderWithANameTwiceOrABlankNameSkipsTheFileWithOneReport() throws IOException {
    Path f = dir.resolve("header.csv");
    Files.writeString(f, "id,t,n,t\n1,a,2,b\n");
    assertThat(readItems(f))
        .singleElement()
        .satisfies(
            i ->
                assertThat(i.where() + " " + i.error())
                    .isEqualTo(
                        f
                            + ":1 the CSV header names 't' twice (columns 2 and 4): give each column its own "
                            + "name; the file is skipped"));
    Files.writeString(f, "id,,t\n1,x,a\n");
    assertThat(readItems(f))
        .singleElement()
        .satisfies(i -> assertThat(i.error()).startsWith("column 2 of the CSV header has no name"));
  }

  @Test
  void blankCsvLinesAreNoDocuments() throws IOException {
    Path f = dir.resolve("blank.csv");
    Files.writeString(f, "id,a\n1,x\n\n2,y\n\n");
    List<Item> items = readItems(f);
    assertThat(items).allSatisfy(i -> assertThat(i.error()).isNull());
    assertThat(okIds(items)).containsExactly("1", "2");
    assertThat(items.get(1).line()).isEqualTo(4);
    Files.writeString(f, "id,path\n1,C:\\temp\\new\n2,a\\|b|c\\\\d\n"); // a backslash is itself
    items = readItems(f);
    assertThat(items.get(0).document().first("path")).isEqualTo("C:\\temp\\new");
    assertThat(items.get(1).document().fields().get("path")).containsExactly("a|b", "c\\d");
  }

  @Test
  void anOutputThatIsALinkOrNotAFileIsWrittenThroughNeverReplaced() throws IOException {
    Path in = write(corpus(3), "through.jsonl");
    Path real = Files.writeString(dir.resolve("real-target.jsonl"), "older\n");
    Path link = Files.createSymbolicLink(dir.resolve("link-target.jsonl"), real);
    CorpusTools.convert(List.of(in), null, link, Format.JSONL);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(read(real)).hasSize(3);
    Path fifo = dir.resolve("fifo.jsonl");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(waitFor(mk)).isZero();
    CompletableFuture<byte[]> got =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return Files.readAllBytes(fifo);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    CorpusTools.convert(List.of(in), null, fifo, Format.JSONL);
    assertThat(new String(got.join(), StandardCharsets.UTF_8).lines()).hasSize(3);
    assertThat(Files.isRegularFile(fifo)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"split", "convert"})
  void aCommandStoppedHalfWayLeavesNoPartialOutput(String command) throws Exception {
    Path in = dir.resolve("stopped-" + command + ".jsonl");
    try (Writer w = Files.newBufferedWriter(in)) { // large enough to take seconds
      for (int i = 0; i < 600_000; i++) {
        w.write("{\"id\":\"" + i + "\",\"t\":\"some words to convert\",\"n\":" + i + "}\n");
      }
    }
    Path out = dir.resolve("stopped-" + command + "-out");
    List<String> args =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "org.solrscale.cli.Main",
                "data",
                command,
                in.toString(),
                "--to",
                "xml",
                "-o",
                command.equals("split") ? out.toString() : out + ".xml"));
    if (command.equals("split")) {
      args.addAll(List.of("--max-docs", "2000"));
    }
    Process p =
        new ProcessBuilder(args)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(command + ".log").toFile())
            .start();
    try {
      BooleanSupplier writing =
          command.equals("split")
              ? () -> Files.exists(out.resolve("part-00003.xml"))
              : () -> listNames(dir).stream().anyMatch(n -> n.startsWith(".partial-"));
      Await.until(
          command + " writes its output (or ends)",
          Duration.ofSeconds(60),
          () -> writing.getAsBoolean() || !p.isAlive());
      assertThat(writing.getAsBoolean()).as("the command is writing").isTrue();
      assertThat(p.isAlive())
          .as("the command is still running (else make the input larger)")
          .isTrue();
      p.destroy(); // SIGTERM, as Ctrl-C would
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    assertThat(out).doesNotExist(); // split's new directory, and every part in it
    assertThat(listNames(dir)).noneMatch(n -> n.startsWith(".partial-") || n.endsWith("-out.xml"));
  }

  @Test
  void runningOutOfMemoryIsOneLineThatSaysWhatToDo() throws Exception {
    Path in = dir.resolve("huge-doc.xml");
    try (Writer w = Files.newBufferedWriter(in)) { // one document larger than the heap
      w.write("<add><doc><field name=\"id\">1</field><field name=\"t\">");
      for (int i = 0; i < 1_000_000; i++) {
        w.write("words and more words ");
      }
      w.write("</field></doc></add>\n");
    }
    Path out = dir.resolve("huge-doc.jsonl");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx24m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "org.solrscale.cli.Main",
                "data",
                "convert",
                in.toString(),
                "-o",
                out.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("oom.log").toFile())
            .start();
    try {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    assertThat(p.exitValue()).isEqualTo(3); // the environment: the JVM's heap
    assertThat(Files.readAllLines(dir.resolve("oom.log")))
        .singleElement()
        .asString()
        .startsWith("solrscale: out of memory (this JVM may use ")
        .endsWith(
            "MB): give it more with SOLRSCALE_JAVA_OPTS=-Xmx<size>, e.g. -Xmx8g, or give the "
                + "command less to hold at once");
    assertThat(listNames(dir))
        .noneMatch(n -> n.startsWith(".partial-") || n.equals("huge-doc.jsonl"));
  }

  private static List<String> listNames(Path d) {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(f -> f.getFileName().toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int waitFor(Process p) {
    try {
      return p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  @Test
  void aCsvRowWithTooManyCellsIsReported() throws IOException {
    Path f = dir.resolve("bad.csv");
    Files.writeString(f, "id,t\n1,a\n2,b,extra\n3,c\n");
    List<Item> items = readItems(f);
    assertThat(okIds(items)).contains("1", "3");
    assertThat(failures(items)).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"xml", "jsonl", "json", "csv"})
  void aByteOrderMarkIsNotPartOfTheFirstDocument(String ext) throws IOException {
    Path plain = write(corpus(3), "bom-plain." + ext);
    Path f = dir.resolve("bom." + ext);
    byte[] b = Files.readAllBytes(plain);
    byte[] withMark = new byte[b.length + 3];
    withMark[0] = (byte) 0xEF;
    withMark[1] = (byte) 0xBB;
    withMark[2] = (byte) 0xBF;
    System.arraycopy(b, 0, withMark, 3, b.length);
    Files.write(f, withMark);
    assertThat(text(read(f))).isEqualTo(text(read(plain)));
    if (!ext.equals("csv")) { // two such files split into one part: no mark inside it
      Format format = Format.of(f);
      CorpusStats s =
          CorpusTools.split(
              List.of(f, f),
              null,
              new CorpusTools.SplitRule(1, null, null),
              dir.resolve("bom-parts"),
              "p",
              format,
              false);
      Path part = Path.of(s.filesWritten().get(0));
      assertThat(Files.readString(part)).doesNotContain("\uFEFF");
      assertThat(read(part)).hasSize(6);
    }
  }

  @Test
  void anOutputThatIsAnInputByAnyNameIsRefusedBeforeItIsEmptied() throws IOException {
    Path f = write(corpus(2), "self.jsonl");
    Path link = dir.resolve("self-link.jsonl");
    Files.createSymbolicLink(link, f);
    long size = Files.size(f);
    assertThatThrownBy(() -> Inputs.checkOutput(link, List.of(f)))
        .hasMessageContaining("is also an input");
    assertThatThrownBy(() -> Inputs.checkOutput(dir.resolve(".").resolve("self.jsonl"), List.of(f)))
        .hasMessageContaining("is also an input");
    Inputs.checkOutput(dir.resolve("other.jsonl"), List.of(f));
    Path part = write(corpus(2), "part-00001.jsonl");
    assertThatThrownBy(() -> Inputs.checkOutputDir(dir, "part", List.of(part)))
        .hasMessageContaining("choose another --out or --prefix");
    assertThatThrownBy(() -> Inputs.checkOutputDir(dir, "part", List.of(f)))
        .hasMessage(
            dir
                + " already holds parts of an earlier split (part-00001.jsonl): remove them, "
                + "or choose another --out or --prefix");
    Inputs.checkOutputDir(dir, "piece", List.of(part));
    for (String bad : List.of("../up", "a/b", "", ".hidden")) {
      assertThatThrownBy(() -> Inputs.checkOutputDir(dir, bad, List.of(f)))
          .hasMessageContaining("is not a plain file name prefix");
    }
    assertThat(Files.size(f)).isEqualTo(size);
    assertThatThrownBy(() -> Inputs.expand(List.of(dir.toString())))
        .hasMessageContaining("is a directory");
  }

  @Test
  void inputsExpandGlobsAndRejectMissingFiles() throws IOException {
    write(corpus(1), "g1.jsonl");
    write(corpus(1), "g2.jsonl");
    assertThat(Inputs.expand(List.of(dir + "/g*.jsonl"))).hasSize(2);
    // a glob in a folder's name too, as for every node's logs: logs/*/solr.log*
    for (String f :
        List.of("logs/solr1/solr.log", "logs/solr1/solr.log.1", "logs/solr2/solr.log")) {
      Files.createDirectories(dir.resolve(f).getParent());
      Files.writeString(dir.resolve(f), "x\n");
    }
    Files.createDirectories(dir.resolve("logs/zk1"));
    Files.writeString(dir.resolve("logs/zk1/zookeeper.log"), "x\n");
    assertThat(Inputs.expand(List.of(dir + "/logs/*/solr.log*")))
        .containsExactly(
            dir.resolve("logs/solr1/solr.log"),
            dir.resolve("logs/solr1/solr.log.1"),
            dir.resolve("logs/solr2/solr.log"));
    assertThat(Inputs.expand(List.of(dir + "/l?gs/solr?/solr.log"))).hasSize(2);
    assertThatThrownBy(() -> Inputs.expand(List.of(dir + "/logs/*/nothing*")))
        .hasMessageContaining("no file matches");
    assertThatThrownBy(() -> Inputs.expand(List.of(dir + "/none*.xml")))
        .hasMessageContaining("no file matches");
    assertThatThrownBy(() -> Inputs.expand(List.of(dir + "/missing.xml")))
        .hasMessageContaining("does not exist");
    assertThatThrownBy(() -> Format.of(Path.of("x.txt")))
        .hasMessageContaining("cannot tell the format");
  }
}
