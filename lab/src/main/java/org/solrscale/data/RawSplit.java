package org.solrscale.data;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.solrscale.spec.SolrscaleException;

/**
 * Split without parsing, for Solr XML and JSON Lines kept in their format: each document's bytes
 * are copied unchanged (so split is as fast as finding the boundaries). Between plain files the
 * copying is done by the kernel ({@link FileChannel#transferTo}), a run of adjacent documents at a
 * time. Ranges that are not well-delimited documents (a {@code <doc>} without its end) are reported
 * like any bad input and not written; what is inside a document is not checked here ({@code
 * convert} or {@code index} do that).
 */
final class RawSplit {
  private static final byte[] NL = {'\n'};
  private static final byte[] ADD = "<add>\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END_ADD = "</add>\n".getBytes(StandardCharsets.US_ASCII);

  private final Format format;
  private final CorpusTools.SplitRule rule;
  private final Path dir;
  private final String prefix;
  private final boolean gzip;
  private final CorpusStats stats = new CorpusStats();

  /** The documents in the inputs, counted first for --parts. */
  private long total;

  private Part part;

  RawSplit(Format format, CorpusTools.SplitRule rule, Path dir, String prefix, boolean gzip) {
    this.format = format;
    this.rule = rule;
    this.dir = dir;
    this.prefix = prefix;
    this.gzip = gzip;
  }

  /** The parts written so far. */
  List<String> written() {
    return stats.filesWritten;
  }

  static boolean applies(Format from, Format to) {
    return from == to && (from == Format.XML || from == Format.JSONL);
  }

  CorpusStats run(List<Path> inputs) {
    long t0 = System.nanoTime();
    total = rule.parts() == null ? 0 : count(inputs);
    try {
      for (Path in : inputs) {
        stats.bytesIn += Files.size(in);
        long before = stats.read + stats.bad;
        try {
          copy(in);
        } catch (IOException e) {
          throw SolrscaleException.usage(
              "cannot split " + in + " into " + dir + ": " + Corpus.why(e));
        }
        if (stats.read + stats.bad == before) {
          stats.emptyInputs.add(in.toString());
        }
      }
      if (part != null) {
        part.close();
      }
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot split into " + dir + ": " + Corpus.why(e));
    }
    stats.seconds = (System.nanoTime() - t0) / 1e9;
    return stats;
  }

  private ChunkScanner scanner(Path in) throws IOException {
    InputStream s = Corpus.input(in, new AtomicLong());
    return format == Format.XML ? new XmlChunks(s) : new LineChunks(s);
  }

  /** The well-delimited documents in the inputs, for --parts. */
  private long count(List<Path> inputs) {
    long n = 0;
    for (Path in : inputs) {
      try {
        if (notXml(in) != null) {
          continue;
        }
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot read " + in + ": " + Corpus.why(e));
      }
      try (ChunkScanner c = scanner(in)) {
        while (c.next()) {
          n += c.error == null ? 1 : 0;
        }
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot read " + in + ": " + Corpus.why(e));
      }
    }
    return n;
  }

  /** Why an XML input is not Solr XML at all, as its reader says (or null): it is skipped. */
  private String notXml(Path in) throws IOException {
    return format == Format.XML ? SolrXmlReader.notXml(in) : null;
  }

  private void copy(Path in) throws IOException {
    String notXml = notXml(in);
    if (notXml != null) { // as convert: one report, no documents
      stats.bad(Item.bad(notXml, in.toString(), 1, 1));
      return;
    }
    boolean plain = !gzip && !gzipped(in);
    List<Item> bad = new ArrayList<>(); // lines unknown yet: offsets in their line field
    long unplaced = 0;
    try (ChunkScanner c = scanner(in);
        FileChannel source = plain ? FileChannel.open(in) : null) {
      c.withoutLines();
      long ordinal = 0;
      boolean adjacent = false; // the previous document of this file went to the current part
      while (c.next()) {
        ordinal++;
        if (c.error != null) {
          if (bad.size() < CorpusStats.KEPT_PROBLEMS) {
            bad.add(Item.bad(c.error, in.toString(), ordinal, c.problemOffset()));
          } else {
            unplaced++;
          }
          adjacent = false;
          continue;
        }
        stats.read++;
        if (part != null && part.full()) {
          part.close();
          part = null;
        }
        if (part == null) {
          part =
              new Part(
                  dir.resolve(
                      String.format(
                          "%s-%05d.%s%s",
                          prefix,
                          stats.filesWritten.size() + 1,
                          format.extension(),
                          gzip ? ".gz" : "")));
          adjacent = false;
        }
        part.add(c, source, adjacent && c.contiguous);
        adjacent = true;
        stats.written++;
      }
      if (part != null) {
        part.flushRun(); // while this file's channel is open
      }
    }
    long[] lines = ChunkScanner.linesAt(in, bad.stream().mapToLong(Item::line).toArray());
    for (int k = 0; k < bad.size(); k++) {
      Item b = bad.get(k);
      stats.bad(Item.bad(b.error(), b.source(), b.ordinal(), lines[k]));
    }
    for (long k = 0; k < unplaced; k++) {
      stats.bad(Item.bad("not a document", in.toString(), 0, 0));
    }
  }

  private static boolean gzipped(Path in) throws IOException {
    try (InputStream s = Files.newInputStream(in)) {
      return s.read() == 0x1f && s.read() == 0x8b;
    }
  }

  /** One part file being written. */
  private final class Part {
    private final FileChannel channel;
    private final OutputStream out;
    private long docs;

    /** All bytes written, wrappers included. */
    private long written;

    /** A run of adjacent documents not copied yet: stream offsets, and whether it ends a line. */
    private long runStart = -1;

    private long runEnd;
    private boolean runEndsLine;
    private FileChannel runSource;

    Part(Path file) throws IOException {
      Files.createDirectories(dir);
      FileChannel opened =
          Outputs.opening(
              file,
              () -> {
                FileChannel c =
                    FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                stats.filesWritten.add(file.toString());
                return c;
              });
      channel = gzip ? null : opened; // runs are copied straight into a plain part only
      out =
          gzip
              ? new BufferedOutputStream(
                  new GZIPOutputStream(Channels.newOutputStream(opened), 1 << 16), 1 << 16)
              : new BufferedOutputStream(Channels.newOutputStream(opened), 1 << 16);
      if (format == Format.XML) {
        write(ADD);
      }
    }

    boolean full() {
      long size = written + (runStart >= 0 ? runEnd - runStart : 0);
      return docs >= rule.capacity(total, stats.filesWritten.size() - 1)
          || rule.maxBytes() != null && docs > 0 && size >= rule.maxBytes();
    }

    void add(ChunkScanner c, FileChannel source, boolean joinsRun) throws IOException {
      long from = c.offset(c.start);
      long to = c.offset(c.end);
      docs++;
      // a JSON Lines document ends in its own line end ('\r' alone too), kept as it is
      boolean endsLine = c.buf[c.end - 1] == '\n' || c.buf[c.end - 1] == '\r';
      if (source == null || channel == null) {
        flushRun();
        out.write(c.buf, c.start, c.end - c.start);
        written += c.end - c.start;
        if (!endsLine) {
          write(NL);
        }
        return;
      }
      // JSON Lines documents may only be joined after a line feed
      boolean canJoin = format == Format.XML || runEndsLine;
      if (joinsRun && runStart >= 0 && canJoin) {
        runEnd = to;
        runEndsLine = endsLine;
        return;
      }
      flushRun();
      runStart = from;
      runEnd = to;
      runEndsLine = endsLine;
      runSource = source;
    }

    void flushRun() throws IOException {
      if (runStart < 0) {
        return;
      }
      out.flush();
      long at = runStart;
      written += runEnd - runStart;
      while (at < runEnd) {
        at += runSource.transferTo(at, runEnd - at, channel);
      }
      if (!runEndsLine) {
        write(NL);
      }
      runStart = -1;
    }

    private void write(byte[] b) throws IOException {
      out.write(b);
      written += b.length;
    }

    void close() throws IOException {
      flushRun();
      if (format == Format.XML) {
        write(END_ADD);
      }
      stats.bytesOut += written;
      out.close();
    }
  }
}
