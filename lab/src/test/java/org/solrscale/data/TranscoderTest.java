package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TranscoderTest {
  /** Gives at most a random few bytes per read, as a pipe or a gzip stream may. */
  static InputStream trickling(byte[] b, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return new FilterInputStream(new ByteArrayInputStream(b)) {
      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        return super.read(buf, off, Math.min(len, 1 + r.nextInt(7)));
      }
    };
  }

  private static byte[] transcode(InputStream in, Charset cs) throws IOException {
    try (Transcoder t = new Transcoder(in, cs, false)) {
      return t.readAllBytes();
    }
  }

  @Test
  void whatTheEncodingHoldsComesOutAsUtf8WhateverTheReadSizes() throws IOException {
    SplittableRandom r = new SplittableRandom(5);
    String[] pieces = {
      "a", "<doc>", "\u00e9", "\u00fc", "\u65e5\u672c", "\ud83d\ude00", "\n", "\r\n", " "
    };
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 300_000) { // several of its 64 KB blocks
      sb.append(pieces[r.nextInt(pieces.length)]);
    }
    String text = sb.toString();
    for (String name : new String[] {"UTF-16LE", "UTF-16BE", "UTF-16", "GB18030", "UTF-32"}) {
      Charset cs = Charset.forName(name);
      byte[] in = text.getBytes(cs);
      assertThat(transcode(new ByteArrayInputStream(in), cs))
          .as(name)
          .isEqualTo(text.getBytes(StandardCharsets.UTF_8));
      assertThat(transcode(trickling(in, 1), cs))
          .as(name + ", trickling")
          .isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    }
    String latin = text.replaceAll("[^a-z<>/\\n\\r \u00e9\u00fc]", "");
    for (String name : new String[] {"ISO-8859-1", "windows-1252"}) {
      Charset cs = Charset.forName(name);
      assertThat(transcode(trickling(latin.getBytes(cs), 2), cs))
          .as(name)
          .isEqualTo(latin.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void bytesTheEncodingDoesNotAllowBecomeOneMarkEachAndNothingElseIsLost() throws IOException {
    byte[] in = {'a', (byte) 0x81, 'b', (byte) 0x8D, (byte) 0x81, 'c'}; // undefined in windows-1252
    assertThat(transcode(trickling(in, 3), Charset.forName("windows-1252")))
        .containsExactly('a', 0xFF, 'b', 0xFF, 0xFF, 'c');
    // UTF-16BE: a lone high surrogate mid-text, a lone low one, and half a unit at the end
    byte[] u = {0, 'x', (byte) 0xD8, 0x00, 0, 'y', (byte) 0xDC, 0x00, 0, 'z', 0};
    for (long seed = 1; seed <= 5; seed++) {
      assertThat(transcode(trickling(u, seed), StandardCharsets.UTF_16BE))
          .containsExactly('x', 0xFF, 'y', 0xFF, 'z', 0xFF);
    }
  }

  @Test
  void aBadByteInAMultiByteEncodingNeverTakesTheAsciiByteAfterIt() throws IOException {
    // the JDK's decoders for these count a bad lead byte and the byte after it as one error;
    // that byte may be the '<' of a <doc> or a line feed, which must be read
    String[] names = {"EUC-JP", "GB18030", "Big5-HKSCS", "Shift_JIS", "EUC-KR", "GBK", "Big5"};
    for (String name : names) {
      Charset cs = Charset.forName(name);
      for (int bad : new int[] {0x80, 0xFF, 0xA0}) {
        byte[] in = {'a', (byte) bad, '<', 'b', (byte) bad, '\n', 'c', (byte) bad};
        byte[] got = transcode(trickling(in, bad), cs);
        String kept = new String(got, StandardCharsets.ISO_8859_1).replace("\u00ff", "");
        assertThat(kept).as(name + " 0x" + Integer.toHexString(bad)).isEqualTo("a<b\nc");
        assertThat(got).as(name).contains(0xFF);
      }
    }
  }
}
