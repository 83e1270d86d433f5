package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The readers' findings do not depend on how the input arrives (read sizes, block edges). */
class ReadersFuzzTest {
  interface Open {
    CorpusReader open(InputStream in) throws IOException;
  }

  private static List<String> items(CorpusReader r) throws IOException {
    List<String> out = new ArrayList<>();
    try (r) {
      Item it;
      while ((it = r.next()) != null) {
        out.add(
            it.ordinal()
                + ":"
                + it.line()
                + " "
                + (it.ok() ? it.document().asText() : "ERR " + it.error()));
      }
    }
    return out;
  }

  private static byte[] soup(SplittableRandom r, Object[] tokens, int max) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int n = 1 + r.nextInt(max); n > 0; n--) {
      Object t = tokens[r.nextInt(tokens.length)];
      b.writeBytes(
          t instanceof byte[] bytes ? bytes : ((String) t).getBytes(StandardCharsets.UTF_8));
    }
    return b.toByteArray();
  }

  /** Checks each of {@code inputs} random inputs both ways; the items read whole, per input. */
  private static List<List<String>> same(Object[] tokens, Open open, int inputs, List<byte[]> made)
      throws IOException {
    SplittableRandom r = new SplittableRandom(3);
    List<List<String>> all = new ArrayList<>();
    for (int i = 0; i < inputs; i++) {
      byte[] b = soup(r, tokens, 30);
      List<String> expected = items(open.open(new ByteArrayInputStream(b)));
      assertThat(items(open.open(TranscoderTest.trickling(b, i))))
          .as(new String(b, StandardCharsets.UTF_8))
          .isEqualTo(expected);
      all.add(expected);
      made.add(b);
    }
    return all;
  }

  private static void same(Object[] tokens, Open open, int inputs) throws IOException {
    same(tokens, open, inputs, new ArrayList<>());
  }

  @Test
  void jsonLines() throws IOException {
    Object[] tokens = {
      "{\"id\":\"1\"}",
      "{\"id\":\"2\",\"t\":[\"a\",\"b\"]}",
      "\n",
      "\r",
      "\r\n",
      " ",
      new byte[] {(byte) 0xC3, 0x28},
      new byte[] {(byte) 0xFF},
      new byte[] {(byte) 0xE2, (byte) 0x82},
      "{",
      "}",
      "\"",
      "[1]",
      "\u00e9",
      "{\"a\":1,\"a\":2}",
      "1e99999999999",
      "{\"x\":1e99999999999}",
      new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
      "\ud83d\ude00",
      "\"\\ud800\"",
      "{\"id\":\"\\u0000\"}"
    };
    List<byte[]> made = new ArrayList<>();
    List<List<String>> found =
        same(tokens, in -> new JsonLinesReader(Corpus.textAsUtf8(in), "f", 40), 5000, made);
    for (int i = 0; i < made.size(); i++) { // every line that is not blank gives one item
      String text = new String(made.get(i), StandardCharsets.UTF_8).replaceFirst("^\uFEFF", "");
      long lines = Arrays.stream(text.split("\r\n|\r|\n")).filter(l -> !l.isBlank()).count();
      assertThat(found.get(i)).as(text).hasSize((int) lines);
    }
  }

  @Test
  void jsonArray() throws IOException {
    Object[] tokens = {
      "[",
      "]",
      "{\"id\":\"1\"}",
      ",",
      "{\"id\":\"2\",\"t\":[\"a\",\"b\"]}",
      "\n",
      " ",
      new byte[] {(byte) 0xC3, 0x28},
      new byte[] {(byte) 0xFF},
      "{",
      "}",
      "\"",
      "{\"a\":1,\"a\":2}",
      "{\"x\":1e99999999999}",
      "\u00e9",
      "{\"_childDocuments_\":[{\"id\":\"c\"}],\"id\":\"p\"}"
    };
    same(tokens, in -> new JsonArrayReader(Corpus.textAsUtf8(in), "f"), 5000);
  }

  @Test
  void csv() throws IOException {
    Object[] tokens = {
      "id,t\n",
      "1,a\n",
      "2,\"b\nc\"\n",
      ",",
      "|",
      "\\",
      "\"",
      "\n",
      "\r\n",
      "x",
      new byte[] {(byte) 0xC3, 0x28},
      new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
      "\u00e9"
    };
    same(tokens, in -> new CsvReader(Corpus.textAsUtf8(in), "f", false), 5000);
  }

  @Test
  void solrXml() throws IOException {
    Object[] tokens = {
      "<add>",
      "</add>",
      "<doc>",
      "</doc>",
      "<field name=\"id\">",
      "<field name=\"t\">",
      "</field>",
      "1",
      "a &amp; b",
      "&#xD800;",
      "&bogus;",
      "<![CDATA[x]]>",
      "<!-- c -->",
      "<?pi ?>",
      "\n",
      " ",
      new byte[] {(byte) 0xC3, 0x28},
      new byte[] {0x01},
      "\u00e9",
      "<doc/>",
      "<field name=\"id\" update=\"set\">",
      "<delete><id>1</id></delete>",
      "<field>",
      "<b>"
    };
    same(tokens, in -> new SolrXmlReader(Corpus.asUtf8(in), "f", false), 2000);
    same(tokens, in -> new SolrXmlReader(Corpus.asUtf8(in), "f", true), 1000);
  }

  @Test
  void whatAConversionWritesReadsBackTheSameAndTheRestIsReported(@TempDir Path dir)
      throws IOException {
    String[] names = {
      "id", "t", "u v", "x|y", "\uFEFFn", " s", "a,b", "q\"", "\u00e9", "\u2028", "\u3000"
    };
    String[] pieces = {
      "a",
      "|",
      "\\",
      "\"",
      ",",
      "\n",
      "\r\n",
      "\r",
      "",
      " ",
      "\u00e9",
      "\t",
      "<doc>",
      "&",
      "]]>",
      "\u0001",
      "\uFEFF",
      "\ud83d\ude00",
      "--",
      "'"
    };
    SplittableRandom r = new SplittableRandom(5);
    List<Document> docs = new ArrayList<>();
    List<String> cols = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      Document d = new Document();
      if (i == 0) { // the first column of a CSV output: where a byte order mark would be
        d.add("\uFEFFn", "x");
      }
      int fields = r.nextInt(3);
      int id = r.nextInt(50) == 0 ? -1 : r.nextInt(fields + 1); // now and then none
      for (int f = 0; f <= fields; f++) {
        if (f == id) {
          d.add("id", "d" + i);
        }
        if (f == fields) {
          break;
        }
        String name = names[1 + r.nextInt(names.length - 1)];
        for (int v = 1 + (r.nextInt(4) == 0 ? r.nextInt(3) : 0); v > 0; v--) {
          StringBuilder value = new StringBuilder();
          for (int k = r.nextInt(4); k > 0; k--) {
            value.append(pieces[r.nextInt(pieces.length)]);
          }
          d.add(name, value.toString());
        }
      }
      if (r.nextInt(20) == 0) { // a family: CSV reports it, the others carry it
        for (int c = 1 + r.nextInt(2); c > 0; c--) {
          d.addChild(
              new Document()
                  .add("id", "d" + i + "-" + c)
                  .add("t", pieces[r.nextInt(pieces.length)]));
        }
      }
      d.fields().keySet().stream().filter(k -> !cols.contains(k)).forEach(cols::add);
      docs.add(d);
    }
    Path in = dir.resolve("in.jsonl");
    try (CorpusWriter w = Corpus.create(in, Format.JSONL, cols)) {
      for (Document d : docs) {
        w.write(d);
      }
    }
    List<Format> formats =
        List.of(Format.XML, Format.JSON, Format.CSV, Format.CSV_PLAIN, Format.JSONL);
    for (int way = 0; way < formats.size() + 2; way++) { // convert to each, split to xml and jsonl
      Format to =
          way < formats.size()
              ? formats.get(way)
              : way == formats.size() ? Format.XML : Format.JSONL;
      Path out = dir.resolve("out-" + way + "." + to.extension());
      Path parts = dir.resolve("parts-" + way);
      CorpusStats stats =
          way < formats.size()
              ? CorpusTools.convert(List.of(in), Format.JSONL, out, to)
              : CorpusTools.split(
                  List.of(in),
                  Format.JSONL,
                  new CorpusTools.SplitRule(null, 700L, null),
                  parts,
                  "p",
                  to,
                  false);
      if (way >= formats.size()) { // the parts, in order, as one file
        assertThat(stats.filesWritten()).hasSizeGreaterThan(1);
        try (OutputStream o = Files.newOutputStream(out)) {
          for (String f : stats.filesWritten()) {
            Files.copy(Path.of(f), o);
          }
        }
      }
      List<Integer> written = new ArrayList<>();
      int next = 0; // each document read back is a later one written, unchanged, in order
      try (CorpusReader rd = Corpus.open(out, to)) {
        Item it;
        while ((it = rd.next()) != null) {
          assertThat(it.ok()).as(to + " " + it.where() + " " + it.error()).isTrue();
          Object text = it.document().asText();
          while (next < docs.size() && !docs.get(next).asText().equals(text)) {
            next++;
          }
          assertThat(next)
              .as(to + ": %s is one of the documents, in order", text)
              .isLessThan(docs.size());
          written.add(next++);
        }
      }
      // and every other one was reported
      assertThat(written.size() + stats.bad()).as(to.toString()).isEqualTo(docs.size());
      assertThat(written.size())
          .as(to + ": most documents are written")
          .isGreaterThan(docs.size() / 2);
    }
  }

  @Test
  void theFastXmlPathAgreesWithTheXmlParser() throws IOException {
    String[] starts = {
      "<doc>",
      "<doc >",
      "<doc boost=\"2\">",
      "<doc boost='2' >",
      "<doc\nboost=\"2\">",
      "<doc junk>",
      "<doc a=b>",
      "<doc a=\"1\" a=\"2\">",
      "<doc a=\"<\">",
      "<doc a=\"&amp;\">",
      "<doc a=\"1\"b=\"2\">",
      "<doc =\"1\">"
    };
    String[] names = {"id", "t", "a b", "\uFFFE", "\u00e9", "&amp;", "x\ty", ""};
    String[] texts = {
      "a",
      "&amp;",
      "&#65;",
      "&#x42;",
      "&#+65;",
      "&#x+31;",
      "&#0;",
      "&#xD800;",
      "&#1114112;",
      "&bogus;",
      "\uFFFF",
      "\uFFFE",
      "\u00e9",
      "\ud83d\ude00",
      "]]>",
      "<![CDATA[x]]>",
      "\t",
      "\n",
      "\r",
      "\u0001",
      "&#65",
      "&#x;",
      "&#;",
      "&#x1F600;"
    };
    SplittableRandom r = new SplittableRandom(13);
    for (int i = 0; i < 5000; i++) {
      StringBuilder fields = new StringBuilder();
      for (int f = r.nextInt(4); f > 0; f--) {
        fields.append("<field name=\"").append(names[r.nextInt(names.length)]).append("\">");
        for (int t = r.nextInt(4); t > 0; t--) {
          fields.append(texts[r.nextInt(texts.length)]);
        }
        fields.append("</field>").append(r.nextBoolean() ? "\n" : "");
      }
      String start = starts[r.nextInt(starts.length)];
      String fast = "<add>" + start + fields + "</doc></add>";
      String slow =
          "<add>" + start + "<!---->" + fields + "</doc></add>"; // a comment: the parser's
      for (boolean utf8 : new boolean[] {false, true}) {
        assertThat(xmlItems(fast, utf8)).as(fast).isEqualTo(xmlItems(slow, utf8));
      }
    }
  }

  private static List<String> xmlItems(String text, boolean utf8) throws IOException {
    List<String> out = new ArrayList<>();
    try (CorpusReader rd =
        new SolrXmlReader(
            new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "f", utf8)) {
      Item it;
      while ((it = rd.next()) != null) {
        out.add(it.ok() ? it.document().asText().toString() : "ERR");
      }
    }
    return out;
  }

  @Test
  void rawSplitCutsJsonLinesWhereTheReaderDoes() throws IOException {
    Object[] tokens = {
      "{\"id\":\"1\"}",
      "ab",
      "\n",
      "\r",
      "\r\n",
      " ",
      "\t",
      "\u00e9",
      new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}
    };
    SplittableRandom r = new SplittableRandom(17);
    for (int i = 0; i < 20000; i++) {
      byte[] b = soup(r, tokens, 30);
      String text = new String(b, StandardCharsets.UTF_8).replaceFirst("^\uFEFF", "");
      List<String> expected =
          Arrays.stream(text.split("\r\n|\r|\n", -1))
              .filter(l -> !l.isEmpty() && !l.chars().allMatch(c -> c == ' ' || c == '\t'))
              .toList();
      for (int size : new int[] {8, 13, 1 << 16}) {
        LineChunks c = new LineChunks(TranscoderTest.trickling(b, i), size);
        List<String> found = new ArrayList<>();
        while (c.next()) {
          found.add(
              new String(c.buf, c.start, c.end - c.start, StandardCharsets.UTF_8)
                  .replaceFirst("(\r\n|\r|\n)$", ""));
        }
        assertThat(found).as("%s, buffer %d", text, size).isEqualTo(expected);
      }
    }
  }
}
