package org.solrscale.data;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.solrscale.spec.SolrscaleException;

/**
 * Makes a text corpus safe for XML 1.0 and UTF-8 in one streaming pass: invalid UTF-8 byte
 * sequences become U+FFFD, characters XML 1.0 forbids (most control characters, lone surrogates,
 * U+FFFE/U+FFFF) are removed, and in Solr XML character references to them ({@code &#1;}) too.
 * Counts each and remembers where the first few were.
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

  public static Report clean(Path input, Path output) {
    long t0 = System.nanoTime();
    Report[] report = {null};
    try {
      Outputs.whole(
          output,
          file -> {
            try (InputStream in = Corpus.input(input, new AtomicLong());
                OutputStream out = create(file)) {
              Charset declared = Corpus.declaredEncoding(in);
              Charset wide = Corpus.unicodeOf(in);
              if (declared != null
                  || wide != null) { // not UTF-8: "repairing" it would destroy text
                throw SolrscaleException.usage(
                    input
                        + (wide != null
                            ? " is in " + wide + " (its " + "first bytes tell)"
                            : " declares the encoding " + declared)
                        + ", and clean works on "
                        + "UTF-8: convert it first (solrscale data convert "
                        + input
                        + " -o OUT writes "
                        + "UTF-8), then clean that");
              }
              report[0] = new Cleaner(input.toString(), isXml(input)).run(in, out);
            }
          });
      Report r = report[0];
      return new Report(
          Files.size(input),
          r.invalidUtf8(),
          r.invalidXmlChars(),
          r.firstInvalidUtf8(),
          r.firstInvalidXmlChars(),
          (System.nanoTime() - t0) / 1e9);
    } catch (IOException e) {
      throw SolrscaleException.usage(
          "cannot clean " + input + " into " + output + ": " + Corpus.why(e));
    }
  }

  static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

  private final String source;
  private long line = 1;

  /** The byte before the buffer's start ('\r' of a "\r\n" cut by a read, '<' of a "<!"). */
  private byte byteBefore;

  private long badUtf8;
  private long badXml;
  private final List<String> firstUtf8 = new ArrayList<>();
  private final List<String> firstXml = new ArrayList<>();

  /** Solr XML, where a character reference to a forbidden character is removed too. */
  private final boolean xml;

  private Cleaner(String source, boolean xml) {
    this.source = source;
    this.xml = xml;
  }

  private static boolean isXml(Path input) {
    try {
      return Format.of(input) == Format.XML;
    } catch (SolrscaleException e) { // a name that tells no format: bytes only
      return false;
    }
  }

  private static final long AMPERSANDS = 0x2626262626262626L;
  private static final long BANGS = 0x2121212121212121L;
  private static final byte[] CDATA_START = "<![CDATA[".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CDATA_END = "]]>".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] COMMENT_START = "<!--".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] COMMENT_END = "-->".getBytes(StandardCharsets.US_ASCII);

  /** The sections in which a reference is text: how each starts and ends. */
  private static final byte[][][] SECTIONS = {
    {CDATA_START, CDATA_END}, {COMMENT_START, COMMENT_END}
  };

  /** In XML, the end of the CDATA section or comment being copied ("]]>", "-->"), else null. */
  private byte[] sectionEnd;

  /**
   * At {@code b[i]}, a '!' outside any section or the first byte of the section's end: how many
   * bytes to step (entering or leaving a section as they say), or -1 if the buffer ends before it
   * could be told.
   */
  private int section(byte[] b, int i, int n, boolean eof) {
    if (sectionEnd != null) {
      int m = matches(b, i, n, sectionEnd, 0);
      if (m < 0) {
        return eof ? 1 : -1;
      }
      if (m > 0) {
        sectionEnd = null;
        return 3;
      }
      return 1;
    }
    if ((i > 0 ? b[i - 1] : byteBefore) != '<') {
      return 1;
    }
    for (byte[][] kind : SECTIONS) {
      int m = matches(b, i, n, kind[0], 1); // the '<' is before b[i]
      if (m < 0) {
        return eof ? 1 : -1;
      }
      if (m > 0) {
        sectionEnd = kind[1];
        return kind[0].length - 1;
      }
    }
    return 1;
  }

  /** 1 if {@code b[i...]} holds {@code what[from...]}, 0 if not, -1 if {@code n} comes first. */
  private static int matches(byte[] b, int i, int n, byte[] what, int from) {
    for (int k = from; k < what.length; k++) {
      int at = i + k - from;
      if (at >= n) {
        return -1;
      }
      if (b[at] != what[k]) {
        return 0;
      }
    }
    return 1;
  }

  /**
   * The length of a character reference at {@code b[i]} (an '&') to a character XML 1.0 forbids
   * ({@code &#1;}, {@code &#xFFFE;}), which no XML parser accepts; 0 if it is none; -1 if the
   * buffer ends before it could be told.
   */
  private static int forbiddenReference(byte[] b, int i, int n, boolean eof) {
    if (i + 1 >= n) {
      return eof ? 0 : -1;
    }
    if (b[i + 1] != '#') {
      return 0;
    }
    if (i + 2 >= n) {
      return eof ? 0 : -1;
    }
    boolean hex = b[i + 2] == 'x';
    int digits = hex ? i + 3 : i + 2;
    long cp = 0;
    for (int k = digits; k - digits <= 16; k++) { // longer: not one to judge, the parser does
      if (k >= n) {
        return eof ? 0 : -1;
      }
      if (b[k] == ';') {
        return k > digits && !SolrXmlWriter.allowed((int) cp) ? k + 1 - i : 0;
      }
      int d = b[k] < 0 ? -1 : Character.digit(b[k], hex ? 16 : 10);
      if (d < 0) {
        return 0; // not a character reference: the parser judges it
      }
      cp = Math.min(cp * (hex ? 16 : 10) + d, Integer.MAX_VALUE); // past U+10FFFF is forbidden
    }
    return 0;
  }

  /**
   * Copies runs of clean bytes straight from the input buffer; only the bytes that are not plain
   * printable ASCII (found eight at a time) are looked at one by one.
   */
  private Report run(InputStream in, OutputStream out) throws IOException {
    byte[] b = new byte[1 << 20];
    int n = 0; // valid bytes in b
    boolean eof = false;
    while (!eof || n > 0) {
      int r = eof ? -1 : in.read(b, n, b.length - n);
      if (r < 0) {
        eof = true;
      } else {
        n += r;
      }
      int i = 0;
      int run = 0; // start of the clean bytes not written yet
      while (i < n) {
        if (i + 8 <= n) {
          long w = Bytes.word(b, i);
          // in XML also '&' and '!' (a CDATA section or comment starts), in one of those its end
          long look =
              !xml
                  ? 0
                  : sectionEnd == null
                      ? Bytes.zeroBytes(w ^ AMPERSANDS) | Bytes.zeroBytes(w ^ BANGS)
                      : Bytes.zeroBytes(w ^ (sectionEnd[0] * 0x0101010101010101L));
          if ((Bytes.unusualBytes(w) | look) == 0) {
            i += 8;
            continue;
          }
        }
        int c = b[i] & 0xFF;
        if (xml && (sectionEnd == null ? c == '!' : c == sectionEnd[0])) {
          // references in a CDATA section or comment are its text: they are left as they are
          int len = section(b, i, n, eof);
          if (len < 0) {
            break; // cut by the buffer's end: finish it after the next read
          }
          i += len;
        } else if (xml && c == '&' && sectionEnd == null) {
          int len = forbiddenReference(b, i, n, eof);
          if (len < 0) {
            break; // a reference cut by the buffer's end: finish it after the next read
          }
          if (len > 0) {
            out.write(b, run, i - run);
            badXml = note(badXml, firstXml);
            run = i + len;
          }
          i += Math.max(len, 1);
        } else if (c >= 0x20 && c < 0x80 || c == '\t') {
          i++;
        } else if (c == '\r' || c == '\n') { // "\r\n" is one line end, '\r' alone one too
          if (c == '\r' || (i > 0 ? b[i - 1] : byteBefore) != '\r') {
            line++;
          }
          i++;
        } else if (c < 0x20) {
          out.write(b, run, i - run);
          badXml = note(badXml, firstXml);
          run = ++i;
        } else {
          int len = sequence(b, i, n);
          if (len == 0 && !eof) {
            break; // a sequence cut by the buffer's end: finish it after the next read
          }
          if (len > 0) {
            if (len == 3 && nonCharacter(b, i, n)) {
              out.write(b, run, i - run); // U+FFFE or U+FFFF: valid UTF-8, not allowed in XML
              badXml = note(badXml, firstXml);
              run = i + 3;
            }
            i += len;
          } else {
            out.write(b, run, i - run);
            out.write(REPLACEMENT);
            badUtf8 = note(badUtf8, firstUtf8);
            i += malformedLength(b, i, n);
            run = i;
          }
        }
      }
      out.write(b, run, i - run);
      if (i > 0) {
        byteBefore = b[i - 1];
      }
      System.arraycopy(b, i, b, 0, n - i);
      n -= i;
    }
    out.flush();
    return new Report(0, badUtf8, badXml, firstUtf8, firstXml, 0);
  }

  private long note(long count, List<String> first) {
    String at = source + ":" + line;
    if (first.size() < KEPT_LOCATIONS
        && (first.isEmpty() || !first.get(first.size() - 1).equals(at))) {
      first.add(at); // a line with several bad bytes is named once
    }
    return count + 1;
  }

  /**
   * The length of the well-formed UTF-8 sequence with its lead byte at {@code i} (2 to 4), -1 if it
   * is malformed, 0 if the buffer ends before it could be told.
   */
  static int sequence(byte[] b, int i, int n) {
    int c = b[i] & 0xFF;
    int len =
        c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : -1;
    if (len < 0) {
      return -1;
    }
    if (c == 0xED && i + 2 == n && (b[i + 1] & 0xE0) == 0xA0) {
      return 0; // an encoded surrogate, malformed: its third byte tells if it is one U+FFFD or two
    }
    for (int k = 1; k < len; k++) {
      if (i + k >= n) {
        return 0;
      }
      if (!continuation(c, k, b[i + k] & 0xFF)) {
        return -1;
      }
    }
    return len;
  }

  /** Whether {@code b[i]} starts U+FFFE or U+FFFF: well-formed UTF-8 that XML 1.0 forbids. */
  static boolean nonCharacter(byte[] b, int i, int n) {
    return b[i] == (byte) 0xEF && i + 2 < n && b[i + 1] == (byte) 0xBF && (b[i + 2] & 0xFE) == 0xBE;
  }

  /**
   * The offset of the first malformed UTF-8 sequence in {@code b[from, to)} (complete text), or -1.
   */
  static int firstMalformed(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] < 0) {
        int len = sequence(b, i, to);
        if (len <= 0) {
          return i;
        }
        i += len - 1;
      }
    }
    return -1;
  }

  /**
   * Whether {@code x} may be byte {@code k} of a sequence led by {@code lead} (Unicode table 3-7).
   */
  private static boolean continuation(int lead, int k, int x) {
    if (k == 1) {
      int lo = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
      int hi = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
      return x >= lo && x <= hi;
    }
    return x >= 0x80 && x <= 0xBF;
  }

  /** The maximal subpart of a malformed sequence: it becomes one U+FFFD, as Java's decoder does. */
  static int malformedLength(byte[] b, int i, int n) {
    int c = b[i] & 0xFF;
    if (c == 0xED && i + 2 < n && (b[i + 1] & 0xE0) == 0xA0 && (b[i + 2] & 0xC0) == 0x80) {
      return 3; // an encoded surrogate: Java's decoder replaces it whole, and so do we
    }
    int len =
        c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 1;
    int k = 1;
    while (k < len && i + k < n && continuation(c, k, b[i + k] & 0xFF)) {
      k++;
    }
    return k;
  }

  private static OutputStream create(Path file) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    OutputStream out = new BufferedOutputStream(Outputs.newOutputStream(file), 1 << 16);
    return file.getFileName().toString().endsWith(".gz") ? new GZIPOutputStream(out, 1 << 16) : out;
  }
}
