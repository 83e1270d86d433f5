package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CleanerTest {

  @Test
  void repairsUtf8RemovesForbiddenCharsAndTheResultParsesStrictly(@TempDir Path dir)
      throws Exception {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    raw.writeBytes(
        "<add>\n<doc><field name=\"id\">1</field><field name=\"t\">ok ünï ✓ 😀</field></doc>\n"
            .getBytes(StandardCharsets.UTF_8));
    raw.writeBytes(
        "<doc><field name=\"id\">2</field><field name=\"t\">bell\u0007 nul\u0000 esc\u001b</field></doc>\n"
            .getBytes(StandardCharsets.UTF_8));
    raw.writeBytes(
        "<doc><field name=\"id\">3</field><field name=\"t\">latin1 "
            .getBytes(StandardCharsets.UTF_8));
    raw.write(
        new byte[] {
          (byte) 0xE9, (byte) 0xFF, ' ', (byte) 0xC3
        }); // é in Latin-1, 0xFF, a cut sequence
    raw.writeBytes("</field></doc>\n</add>\n".getBytes(StandardCharsets.UTF_8));
    Path in = dir.resolve("dirty.xml");
    Files.write(in, raw.toByteArray());
    Path out = dir.resolve("clean.xml.gz");

    Cleaner.Report r = Cleaner.clean(in, out);
    assertThat(r.invalidXmlChars()).isEqualTo(3);
    assertThat(r.firstInvalidXmlChars()).containsExactly(in + ":3"); // each line named once
    assertThat(r.invalidUtf8()).isEqualTo(3);
    assertThat(r.firstInvalidUtf8()).containsExactly(in + ":4");

    // a strict XML parser accepts the result, and every document is still there
    Path plain = dir.resolve("clean.xml");
    try (var gz = new GZIPInputStream(Files.newInputStream(out))) {
      Files.write(plain, gz.readAllBytes());
    }
    DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(plain.toFile());
    List<Item> items = CorpusToolsTest.readItems(plain);
    assertThat(items).allMatch(Item::ok).hasSize(3);
    assertThat(items.get(0).document().first("t")).isEqualTo("ok ünï ✓ 😀");
    assertThat(items.get(1).document().first("t")).isEqualTo("bell nul esc");
    assertThat(items.get(2).document().first("t")).isEqualTo("latin1 \uFFFD\uFFFD \uFFFD");
  }

  @Test
  void inSolrXmlReferencesToForbiddenCharactersGoTooEvenAcrossReads(@TempDir Path dir)
      throws Exception {
    // "&#1;" is as fatal to an XML parser as the byte itself; clean kept it, convert then failed
    StringBuilder sb = new StringBuilder("<add>\n");
    String pad = "<doc><field name=\"id\">pad</field></doc>\n";
    while (sb.length() < (1 << 20) - 30) { // the first bad reference straddles the 1 MB buffer
      sb.append(pad);
    }
    // in a CDATA section or a comment a reference is text, valid as it is: left alone
    sb.append(
        "<doc><field name=\"c\"><![CDATA[x&#1;]y]]]></field><!-- &#2; --><field name=\"id\">1"
            + "</field><field name=\"t\">a&#1;b&#x1F;c&#65;d&amp;e&#xFFFE;f&#0;g&#12345678901;h</field>"
            + "</doc>\n</add>\n");
    for (int shift = 0; shift < 40; shift++) {
      Path in = dir.resolve("refs-" + shift + ".xml");
      Files.writeString(in, "x".repeat(shift).replace("x", " ") + sb);
      Path out = dir.resolve("refs-" + shift + ".clean.xml");
      Cleaner.Report r = Cleaner.clean(in, out);
      assertThat(r.invalidXmlChars()).as("shift " + shift).isEqualTo(5);
      DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.toFile());
      List<Item> items = CorpusToolsTest.readItems(out);
      assertThat(items.get(items.size() - 1).document().first("t")).isEqualTo("abcAd&efgh");
      assertThat(items.get(items.size() - 1).document().first("c")).isEqualTo("x&#1;]y]");
    }
    Path json = dir.resolve("refs.jsonl"); // JSON's text holds "&#1;" as it is
    Files.writeString(json, "{\"id\":\"1\",\"t\":\"a&#1;b\"}\n");
    Cleaner.clean(json, dir.resolve("refs.clean.jsonl"));
    assertThat(Files.mismatch(json, dir.resolve("refs.clean.jsonl"))).isEqualTo(-1);
  }

  @Test
  void aCleanFileIsCopiedUnchangedAcrossBufferBoundaries(@TempDir Path dir) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 40_000; i++) {
      sb.append("line ").append(i).append(" ünïcödé 😀 ✓\n"); // multi-byte chars straddle buffers
    }
    Path in = dir.resolve("big.jsonl");
    Files.writeString(in, sb);
    Path out = dir.resolve("out.jsonl");
    Cleaner.Report r = Cleaner.clean(in, out);
    assertThat(r.invalidUtf8()).isZero();
    assertThat(r.invalidXmlChars()).isZero();
    assertThat(Files.mismatch(in, out)).isEqualTo(-1);
  }

  @Test
  void randomBytesCleanLikeJavasDecoderThenTheXmlFilter(@TempDir Path dir) throws Exception {
    SplittableRandom r = new SplittableRandom(3);
    byte[][] pieces = {
      "ab".getBytes(StandardCharsets.UTF_8),
      "ü".getBytes(StandardCharsets.UTF_8),
      "✓".getBytes(StandardCharsets.UTF_8),
      "😀".getBytes(StandardCharsets.UTF_8),
      {(byte) 0xEF, (byte) 0xBF, (byte) 0xBE},
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
      {0x01},
      {(byte) 0xC0, (byte) 0x80},
      {(byte) 0xE2, (byte) 0x82},
      {(byte) 0xF4, (byte) 0x90},
      {(byte) 0xFF},
      {(byte) 0x80},
      {'\n'},
      {(byte) 0xF0, (byte) 0x9F}
    };
    for (int round = 0; round < 300; round++) {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      for (int k = r.nextInt(40); k > 0; k--) {
        raw.writeBytes(pieces[r.nextInt(pieces.length)]);
      }
      Path in = dir.resolve("in.txt");
      Files.write(in, raw.toByteArray());
      Path out = dir.resolve("out.txt");
      Cleaner.clean(in, out);
      String decoded =
          new String(raw.toByteArray(), StandardCharsets.UTF_8); // U+FFFD per maximal subpart
      StringBuilder expected = new StringBuilder();
      decoded
          .codePoints()
          .filter(
              cp ->
                  cp == 0x9
                      || cp == 0xA
                      || cp == 0xD
                      || cp >= 0x20 && cp <= 0xD7FF
                      || cp >= 0xE000 && cp <= 0xFFFD
                      || cp >= 0x10000)
          .forEach(expected::appendCodePoint);
      assertThat(Files.readString(out)).as("round %d", round).isEqualTo(expected.toString());
    }
  }
}
