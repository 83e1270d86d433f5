package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The UTF-8 bytes of a stream in another encoding. Where the input holds bytes its encoding does
 * not allow, the output holds {@link #MARK}, a byte that is never valid UTF-8: the XML reader,
 * which checks each document's bytes, then reports that document (with its line) and reads on,
 * instead of the whole file failing at the first such byte (or a decoder putting U+FFFD there).
 */
final class Transcoder extends InputStream {
  /** Stands for each sequence the encoding does not allow. */
  static final byte MARK = (byte) 0xFF;

  private final InputStream in;
  private final Charset charset;
  private final CharsetDecoder decoder;
  private final boolean utf16;

  /** UTF-16 or UTF-32: errors come in whole code units; other encodings keep ASCII as it is. */
  private final boolean wide;

  private final boolean declared;
  private final CharsetEncoder encoder =
      StandardCharsets.UTF_8
          .newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final ByteBuffer raw = ByteBuffer.allocate(1 << 16); // write mode between fills
  private final CharBuffer chars = CharBuffer.allocate(1 << 16); // write mode between fills

  /** Room for every char of a fill as three bytes, and a mark per input byte. */
  private final ByteBuffer out = ByteBuffer.allocate((4 << 16) + 8).flip(); // read mode

  private boolean eof;
  private boolean done;

  /** {@code declared}: whether the file names its encoding (XML), which the reports then say. */
  Transcoder(InputStream in, Charset charset, boolean declared) {
    this.in = in;
    this.declared = declared;
    this.charset = charset;
    this.utf16 = charset.name().startsWith("UTF-16");
    this.wide = utf16 || charset.name().startsWith("UTF-32");
    this.decoder =
        charset
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  /** Why a document holding a {@link #MARK} is bad. */
  String invalid() {
    return declared
        ? "bytes that the file's declared encoding ("
            + charset.name()
            + ") does not "
            + "allow: fix them, or declare the encoding the file is in"
        : "bytes that the file's encoding ("
            + charset.name()
            + ") does not allow: fix them, or "
            + "convert the file to UTF-8";
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (!out.hasRemaining()) {
      if (!fill()) {
        return -1;
      }
    }
    int n = Math.min(len, out.remaining());
    out.get(b, off, n);
    return n;
  }

  /** Decodes the next block into {@link #out}; false at the end of the input. */
  private boolean fill() throws IOException {
    if (done) {
      return false;
    }
    out.clear();
    if (!eof) {
      int n = in.read(raw.array(), raw.position(), raw.remaining());
      if (n < 0) {
        eof = true;
      } else {
        raw.position(raw.position() + n);
      }
    }
    raw.flip();
    while (true) {
      CoderResult r = decoder.decode(raw, chars, eof);
      if (r.isError()) { // what was decoded before it, then the mark in its place
        encode(false);
        out.put(MARK);
        raw.position(raw.position() + skipped(r.length()));
      } else if (r.isOverflow()) {
        encode(false);
      } else {
        break;
      }
    }
    raw.compact();
    if (eof) {
      decoder.flush(chars);
      encode(true);
      done = true;
    } else {
      encode(false);
    }
    out.flip();
    return true;
  }

  /**
   * How many bytes of an error of {@code length} to pass over: never a byte that may start a
   * character of its own, which is read again, not lost (it may be the '<' of a tag or a line
   * feed). UTF-16's decoder counts a high surrogate and the unit after it that is no low one as one
   * error; the decoders of EUC-JP, GB18030, Big5-HKSCS and others count a bad lead byte and the
   * ASCII byte after it as one.
   */
  private int skipped(int length) {
    if (wide) {
      return utf16 && length == 4 ? 2 : length;
    }
    int n = 1;
    while (n < length && raw.get(raw.position() + n) < 0) { // a byte of 0x80 or more
      n++;
    }
    return n;
  }

  /**
   * Moves the decoded chars to {@link #out} as UTF-8 (a high surrogate alone waits for its pair).
   */
  private void encode(boolean end) {
    chars.flip();
    while (true) {
      CoderResult r = encoder.encode(chars, out, end);
      if (!r.isError()) {
        break;
      }
      out.put(MARK); // a surrogate without its pair: the encoding's input did not allow it
      chars.position(chars.position() + r.length());
    }
    if (end) {
      encoder.flush(out);
    }
    chars.compact();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
