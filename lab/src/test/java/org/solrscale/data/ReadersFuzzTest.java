package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

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
        out.add(it.ordinal() + ":" + it.line() + " " + (it.ok() ? it.document().asText() : "ERR " + it.error()));
      }
    }
    return out;
  }

  private static byte[] soup(SplittableRandom r, Object[] tokens, int max) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int n = 1 + r.nextInt(max); n > 0; n--) {
      Object t = tokens[r.nextInt(tokens.length)];
      b.writeBytes(t instanceof byte[] bytes ? bytes : ((String) t).getBytes(StandardCharsets.UTF_8));
    }
    return b.toByteArray();
  }

  /** Checks each of {@code inputs} random inputs both ways; the items read whole, per input. */
  private static List<List<String>> same(Object[] tokens, Open open, int inputs,
      List<byte[]> made) throws IOException {
    SplittableRandom r = new SplittableRandom(3);
    List<List<String>> all = new ArrayList<>();
    for (int i = 0; i < inputs; i++) {
      byte[] b = soup(r, tokens, 30);
      List<String> expected = items(open.open(new ByteArrayInputStream(b)));
      assertThat(items(open.open(TranscoderTest.trickling(b, i))))
          .as(new String(b, StandardCharsets.UTF_8)).isEqualTo(expected);
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
    Object[] tokens = {"{\"id\":\"1\"}", "{\"id\":\"2\",\"t\":[\"a\",\"b\"]}", "\n", "\r", "\r\n", " ",
      new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xE2, (byte) 0x82},
      "{", "}", "\"", "[1]", "\u00e9", "{\"a\":1,\"a\":2}", "1e99999999999", "{\"x\":1e99999999999}",
      new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "\ud83d\ude00", "\"\\ud800\"", "{\"id\":\"\\u0000\"}"};
    List<byte[]> made = new ArrayList<>();
    List<List<String>> found = same(tokens, in -> new JsonLinesReader(Corpus.textAsUtf8(in), "f", 40),
        5000, made);
    for (int i = 0; i < made.size(); i++) { // every line that is not blank gives one item
      String text = new String(made.get(i), StandardCharsets.UTF_8).replaceFirst("^\uFEFF", "");
      long lines = java.util.Arrays.stream(text.split("\r\n|\r|\n")).filter(l -> !l.isBlank()).count();
      assertThat(found.get(i)).as(text).hasSize((int) lines);
    }
  }

  @Test
  void jsonArray() throws IOException {
    Object[] tokens = {"[", "]", "{\"id\":\"1\"}", ",", "{\"id\":\"2\",\"t\":[\"a\",\"b\"]}", "\n", " ",
      new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xFF}, "{", "}", "\"", "{\"a\":1,\"a\":2}",
      "{\"x\":1e99999999999}", "\u00e9", "{\"_childDocuments_\":[{\"id\":\"c\"}],\"id\":\"p\"}"};
    same(tokens, in -> new JsonArrayReader(Corpus.textAsUtf8(in), "f"), 5000);
  }

  @Test
  void csv() throws IOException {
    Object[] tokens = {"id,t\n", "1,a\n", "2,\"b\nc\"\n", ",", "|", "\\", "\"", "\n", "\r\n", "x",
      new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "\u00e9"};
    same(tokens, in -> new CsvReader(Corpus.textAsUtf8(in), "f", false), 5000);
  }

  @Test
  void solrXml() throws IOException {
    Object[] tokens = {"<add>", "</add>", "<doc>", "</doc>", "<field name=\"id\">", "<field name=\"t\">",
      "</field>", "1", "a &amp; b", "&#xD800;", "&bogus;", "<![CDATA[x]]>", "<!-- c -->", "<?pi ?>",
      "\n", " ", new byte[] {(byte) 0xC3, 0x28}, new byte[] {0x01}, "\u00e9", "<doc/>",
      "<field name=\"id\" update=\"set\">", "<delete><id>1</id></delete>", "<field>", "<b>"};
    same(tokens, in -> new SolrXmlReader(Corpus.asUtf8(in), "f", false), 5000);
    same(tokens, in -> new SolrXmlReader(Corpus.asUtf8(in), "f", true), 2000);
  }
}
