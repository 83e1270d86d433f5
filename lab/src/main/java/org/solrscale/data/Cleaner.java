package org.solrscale.data;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.solrscale.spec.SolrscaleException;

/**
 * Makes a text corpus safe for XML 1.0 and UTF-8 in one streaming pass: invalid UTF-8 byte
 * sequences become U+FFFD, characters XML 1.0 forbids (most control characters, lone surrogates,
 * U+FFFE/U+FFFF) are removed. Counts each and remembers where the first few were.
 */
public final class Cleaner {
  static final int KEPT_LOCATIONS = 5;

  /** What clean fixed. */
  public record Report(
      @JsonProperty("bytes_in") long bytesIn,
      @JsonProperty("invalid_utf8") long invalidUtf8,
      @JsonProperty("invalid_xml_chars") long invalidXmlChars,
      @JsonProperty("first_invalid_utf8") List<String> firstInvalidUtf8,
      @JsonProperty("first_invalid_xml_chars") List<String> firstInvalidXmlChars,
      @JsonProperty("seconds") double seconds) {}

  private Cleaner() {}

  public static Report clean(Path input, Path output) {
    long t0 = System.nanoTime();
    try (InputStream in = Corpus.input(input, new java.util.concurrent.atomic.AtomicLong()); OutputStream os = create(output);
        Writer out = new OutputStreamWriter(os, StandardCharsets.UTF_8)) {
      Report r = clean(in, out, input.toString());
      return new Report(Files.size(input), r.invalidUtf8(), r.invalidXmlChars(),
          r.firstInvalidUtf8(), r.firstInvalidXmlChars(), (System.nanoTime() - t0) / 1e9);
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot clean " + input + " into " + output + ": " + e.getMessage());
    }
  }

  static Report clean(InputStream in, Writer out, String source) throws IOException {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer bytes = ByteBuffer.allocate(1 << 16);
    CharBuffer chars = CharBuffer.allocate(1 << 16);
    char[] kept = new char[1 << 16];
    long[] line = {1};
    long badUtf8 = 0;
    long badXml = 0;
    List<String> firstUtf8 = new ArrayList<>();
    List<String> firstXml = new ArrayList<>();
    boolean eof = false;
    char pendingHigh = 0; // a high surrogate waiting for its partner across buffers
    while (true) {
      if (!eof) {
        int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
        if (n < 0) {
          eof = true;
        } else {
          bytes.position(bytes.position() + n);
        }
      }
      bytes.flip();
      CoderResult cr = decoder.decode(bytes, chars, eof);
      if (cr.isMalformed() || cr.isUnmappable()) {
        bytes.position(bytes.position() + cr.length());
        // room is certain: a malformed byte yields no char, so fewer chars than bytes were decoded
        chars.put('\uFFFD');
        badUtf8++;
        if (firstUtf8.size() < KEPT_LOCATIONS) {
          firstUtf8.add(source + ":" + (line[0] + countNewlines(chars)));
        }
      }
      bytes.compact();
      // write out what was decoded, dropping what XML forbids
      chars.flip();
      int k = 0;
      while (chars.hasRemaining()) {
        char c = chars.get();
        if (pendingHigh != 0) {
          if (Character.isLowSurrogate(c)) {
            kept[k++] = pendingHigh;
            kept[k++] = c;
            pendingHigh = 0;
            continue;
          }
          pendingHigh = 0;
          badXml = noteBadXml(badXml, firstXml, source, line[0]);
        }
        if (Character.isHighSurrogate(c)) {
          pendingHigh = c;
        } else if (allowed(c)) {
          kept[k++] = c;
          if (c == '\n') {
            line[0]++;
          }
        } else {
          badXml = noteBadXml(badXml, firstXml, source, line[0]);
        }
        if (k >= kept.length - 2) {
          out.write(kept, 0, k);
          k = 0;
        }
      }
      out.write(kept, 0, k);
      chars.clear();
      if (eof && !cr.isMalformed() && !cr.isUnmappable() && bytes.position() == 0) {
        break;
      }
    }
    if (pendingHigh != 0) {
      badXml = noteBadXml(badXml, firstXml, source, line[0]);
    }
    out.flush();
    return new Report(0, badUtf8, badXml, firstUtf8, firstXml, 0);
  }

  private static long countNewlines(CharBuffer chars) {
    long n = 0;
    for (int i = 0; i < chars.position(); i++) {
      if (chars.get(i) == '\n') {
        n++;
      }
    }
    return n;
  }

  private static long noteBadXml(long count, List<String> first, String source, long line) {
    if (first.size() < KEPT_LOCATIONS) {
      first.add(source + ":" + line);
    }
    return count + 1;
  }

  /** XML 1.0's Char production, for one UTF-16 unit that is not a surrogate. */
  static boolean allowed(char c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD);
  }

  private static OutputStream create(Path file) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
    return file.getFileName().toString().endsWith(".gz") ? new GZIPOutputStream(out, 1 << 16) : out;
  }
}
