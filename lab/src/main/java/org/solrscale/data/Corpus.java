package org.solrscale.data;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.solrscale.spec.SolrscaleException;

/** Opens corpus files: picks the reader or writer for the format, gzip in and out as needed. */
public final class Corpus {
  private Corpus() {}

  /** A reader for a file; gzip is recognised by its magic bytes, not its name. */
  public static CorpusReader open(Path file, Format format) {
    return open(file, format, new AtomicLong());
  }

  /** As above, adding the bytes read from the file (compressed, if it is) to {@code bytesRead}. */
  public static CorpusReader open(Path file, Format format, AtomicLong bytesRead) {
    return open(file, format, bytesRead, false);
  }

  /**
   * As above; {@code utf8}: text values may be {@link Utf8Text} rather than String (Solr XML's
   * plain values), for a consumer that wants the bytes as they were read.
   */
  public static CorpusReader open(Path file, Format format, AtomicLong bytesRead, boolean utf8) {
    try {
      InputStream in = input(file, bytesRead);
      String source = file.toString();
      if (format == Format.XML) {
        return new SolrXmlReader(asUtf8(in), source, utf8);
      }
      InputStream text = textAsUtf8(in);
      // JSON Lines reports each line on its own, and a bad first line does not make the rest bad
      String wrong =
          text.markSupported() && format != Format.JSONL ? wrongStart(text, format) : null;
      if (wrong != null) { // CSV would read nonsense, a JSON array says less
        text.close();
        return oneProblem(wrong, source);
      }
      return switch (format) {
        case JSONL -> new JsonLinesReader(text, source);
        case JSON -> new JsonArrayReader(text, source);
        case CSV -> new CsvReader(text, source, false);
        case CSV_PLAIN -> new CsvReader(text, source, true);
        case XML -> throw new IllegalStateException(); // above
      };
    } catch (NoSuchFileException e) {
      throw SolrscaleException.usage("input file " + file + " does not exist");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read " + file + ": " + why(e));
    }
  }

  /**
   * Why a text file cannot be CSV or a JSON array, told by its first character (after a byte order
   * mark and white space) being another format's: '<' (Solr XML), '[' (a JSON array) or '{' (JSON
   * Lines); null when it may be. Peeks: the stream is left where it was.
   */
  static String wrongStart(InputStream in, Format format) throws IOException {
    in.mark(4096);
    byte[] b = in.readNBytes(4096);
    in.reset();
    int i = firstSignificant(b, b.length);
    if (i == b.length) {
      return null;
    }
    String looks =
        b[i] == '<' ? "Solr XML" : b[i] == '[' ? "a JSON array" : b[i] == '{' ? "JSON Lines" : null;
    String what = format == Format.JSON ? "a JSON array" : "CSV";
    if (looks == null || looks.equals(what) || format == Format.JSON && b[i] == '{') {
      return null; // a JSON object where an array belongs: its reader says it best
    }
    String give = b[i] == '<' ? "xml" : b[i] == '[' ? "json" : "jsonl";
    return "not "
        + what
        + ": it starts with '"
        + (char) b[i]
        + "' as "
        + looks
        + " does; give "
        + "--format "
        + give
        + ", or a file name that says which";
  }

  /**
   * The index of the first byte of {@code b[0, n)} after a UTF-8 byte order mark and white space.
   */
  static int firstSignificant(byte[] b, int n) {
    int i = n >= 3 && b[0] == (byte) 0xEF && b[1] == (byte) 0xBB && b[2] == (byte) 0xBF ? 3 : 0;
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
      i++;
    }
    return i;
  }

  /**
   * Why {@code file} cannot be written because its folder is missing (no command makes it), or
   * null: one wording for the early check and for a write that fails.
   */
  static String missingFolder(Path file) {
    Path folder = file.toAbsolutePath().getParent();
    if (folder == null || Files.isDirectory(folder)) {
      return null;
    }
    Path named = file.getParent() != null ? file.getParent() : folder;
    return "no such folder: " + named + " (create it with mkdir -p " + named + ")";
  }

  /** A reader of one bad item: the file's one problem. */
  private static CorpusReader oneProblem(String why, String source) {
    return new CorpusReader() {
      private boolean told;

      @Override
      public Item next() {
        if (told) {
          return null;
        }
        told = true;
        return Item.bad(why, source, 1, 1);
      }

      @Override
      public void close() {}
    };
  }

  private static final Pattern DECLARATION =
      Pattern.compile(
          "^(?:\u00EF\u00BB\u00BF)?<\\?xml[^>]*?\\sencoding\\s*=\\s*[\"']([^\"']*)[\"']");

  /**
   * The encoding an XML stream declares when it is not UTF-8 (or ASCII, part of it): by a UTF-16
   * byte order mark or {@code <?xml ... encoding="..."?>}. Null for UTF-8. Peeks, the stream is
   * left where it was (it must support mark).
   */
  static Charset declaredEncoding(InputStream in) throws IOException {
    in.mark(512);
    byte[] b = in.readNBytes(512);
    in.reset();
    if (b.length >= 2
        && (b[0] == (byte) 0xFE && b[1] == (byte) 0xFF
            || b[0] == (byte) 0xFF && b[1] == (byte) 0xFE)) {
      return StandardCharsets.UTF_16;
    }
    if (b.length >= 2 && b[0] == '<' && b[1] == 0) { // UTF-16 without a byte order mark (XML's
      return StandardCharsets.UTF_16LE; // appendix F tells it by the first '<')
    }
    if (b.length >= 2 && b[0] == 0 && b[1] == '<') {
      return StandardCharsets.UTF_16BE;
    }
    Matcher m = DECLARATION.matcher(new String(b, StandardCharsets.ISO_8859_1));
    if (!m.find()) {
      return null;
    }
    boolean mark =
        b.length >= 3 && b[0] == (byte) 0xEF && b[1] == (byte) 0xBB && b[2] == (byte) 0xBF;
    Charset cs;
    try {
      cs = Charset.forName(m.group(1).trim());
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "it declares the encoding '" + m.group(1) + "', which Java does not know");
    }
    boolean utf8 = cs.equals(StandardCharsets.UTF_8) || cs.equals(StandardCharsets.US_ASCII);
    if (mark && !utf8) {
      throw new IOException(
          "it starts with UTF-8's byte order mark but declares the encoding '"
              + m.group(1)
              + "': one of them is wrong; remove the mark or fix the declaration");
    }
    return utf8 ? null : cs;
  }

  /**
   * UTF-8 bytes of an XML stream declared in another encoding (ISO-8859-1, UTF-16, ...), so the
   * byte-level readers work on it; bytes the encoding does not allow become a {@link Transcoder},
   * so the document holding them is reported, never altered.
   */
  static InputStream asUtf8(InputStream in) throws IOException {
    Charset cs = declaredEncoding(in);
    return cs == null ? in : new Transcoder(in, cs, true);
  }

  /**
   * UTF-8 bytes of a JSON or CSV stream in UTF-16 or UTF-32, told by a byte order mark or by the
   * zero bytes around its first character (which is ASCII: '{', '[', a name or white space), as RFC
   * 4627 tells JSON's; the stream itself when it is UTF-8. Peeks (the stream must support mark).
   */
  static InputStream textAsUtf8(InputStream in) throws IOException {
    Charset cs = unicodeOf(in);
    return cs == null ? in : new Transcoder(in, cs, false);
  }

  /**
   * UTF-16 or UTF-32, if the first four bytes of a text tell it (see {@link #textAsUtf8}), else
   * null. Peeks: the stream is left where it was (it must support mark).
   */
  static Charset unicodeOf(InputStream in) throws IOException {
    in.mark(4);
    byte[] b = in.readNBytes(4);
    in.reset();
    if (b.length < 2) {
      return null;
    }
    int b0 = b[0] & 0xFF;
    int b1 = b[1] & 0xFF;
    boolean four = b.length == 4;
    if (four && b0 == 0 && b1 == 0 && (b[2] & 0xFF) == 0xFE && (b[3] & 0xFF) == 0xFF
        || four && b0 == 0xFF && b1 == 0xFE && b[2] == 0 && b[3] == 0) {
      return Charset.forName("UTF-32"); // with its mark, which it reads
    }
    if (b0 == 0xFE && b1 == 0xFF || b0 == 0xFF && b1 == 0xFE) {
      return StandardCharsets.UTF_16; // with its mark, which it reads
    }
    if (four && b0 == 0 && b1 == 0 && b[2] == 0 && b[3] != 0) {
      return Charset.forName("UTF-32BE");
    }
    if (four && b0 != 0 && b1 == 0 && b[2] == 0 && b[3] == 0) {
      return Charset.forName("UTF-32LE");
    }
    if (b0 == 0 && b1 != 0) {
      return StandardCharsets.UTF_16BE;
    }
    if (b0 != 0 && b1 == 0) {
      return StandardCharsets.UTF_16LE;
    }
    return null;
  }

  /** Whether a file in {@code format} is UTF-8 (what raw split copies byte for byte). */
  static boolean isUtf8(Path file, Format format) {
    try (InputStream in = input(file, new AtomicLong())) {
      if (format == Format.XML) {
        return declaredEncoding(in) == null;
      }
      return unicodeOf(in) == null;
    } catch (IOException e) {
      return false; // the reader that follows says what is wrong
    }
  }

  /**
   * The bytes of a file, decompressed if it is gzip (told by its magic bytes, not its name); {@code
   * bytesRead} counts what is read from disk.
   */
  public static InputStream input(Path file, AtomicLong bytesRead) throws IOException {
    InputStream in =
        new BufferedInputStream(
            new CountingInputStream(Files.newInputStream(file), bytesRead), 1 << 16);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    if (b1 == 0x1f && b2 == 0x8b) {
      in = new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
    }
    return in;
  }

  public static CorpusReader open(Path file) {
    return open(file, Format.of(file));
  }

  /**
   * A writer for a file (gzip when the name ends .gz). CSV needs its columns up front: {@code
   * csvColumns} (ignored for other formats).
   */
  public static CorpusWriter create(Path file, Format format, List<String> csvColumns) {
    return create(file, format, csvColumns, new AtomicLong());
  }

  /** As above, adding the (uncompressed) bytes written to {@code bytes}. */
  public static CorpusWriter create(
      Path file, Format format, List<String> csvColumns, AtomicLong bytes) {
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      OutputStream out = new BufferedOutputStream(Outputs.newOutputStream(file), 1 << 16);
      if (file.getFileName().toString().endsWith(".gz")) {
        out = new BufferedOutputStream(new GZIPOutputStream(out, 1 << 16), 1 << 16);
      }
      // counts what the writer emits (uncompressed), before any buffer: size limits stay close
      out = new CountingOutputStream(out, bytes);
      return switch (format) {
        case XML -> new SolrXmlWriter(out);
        case JSONL -> new JsonLinesWriter(out);
        case JSON -> new JsonArrayWriter(out);
        case CSV -> new CsvWriter(out, csvColumns, false);
        case CSV_PLAIN -> new CsvWriter(out, csvColumns, true);
      };
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write " + file + ": " + why(e));
    }
  }

  /** An I/O error's message for a one-line error ({@code EOFException} often has none). */
  private static String lowerFirst(String s) { // the OS's "Not a directory" mid-sentence
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  public static String why(IOException e) {
    if (e instanceof EOFException) {
      return "the file ends too soon (truncated?)"
          + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
    if (e instanceof NoSuchFileException f
        && f.getFile() != null
        && missingFolder(Path.of(f.getFile())) != null) {
      return missingFolder(Path.of(f.getFile()));
    }
    if (e instanceof FileSystemException f) { // its message is only the path
      String reason =
          f instanceof AccessDeniedException
              ? "permission denied"
              : f instanceof NoSuchFileException
                  ? "no such file or directory"
                  : f instanceof NotDirectoryException
                      ? "not a directory"
                      : f instanceof FileAlreadyExistsException
                          ? "already exists"
                          : f.getReason() != null
                              ? lowerFirst(f.getReason())
                              : f.getClass().getSimpleName();
      return reason
          + (f.getFile() == null
              ? ""
              : " ("
                  + f.getFile()
                  + (f.getOtherFile() == null ? "" : ", " + f.getOtherFile())
                  + ")");
    }
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
