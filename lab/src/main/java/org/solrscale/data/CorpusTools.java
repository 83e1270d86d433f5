package org.solrscale.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.solrscale.spec.SolrscaleException;

/**
 * convert, sample and split: stream documents from input files into output files, always whole
 * documents, reporting every input that is not a document (with file:line) instead of dropping it
 * silently.
 */
public final class CorpusTools {
  private CorpusTools() {}

  /** Something that consumes documents, one at a time. */
  interface Sink {
    void accept(Document d) throws IOException;
  }

  /** Reads every input file in order, feeding documents to the sink and counting bad items. */
  static void readAll(List<Path> inputs, Format format, CorpusStats stats, Sink sink) {
    readAll(inputs, format, null, stats, sink);
  }

  /**
   * Why {@code to} cannot hold the document as it is (so that it would read back changed), or null.
   */
  static String unwritable(Format to, Document d) {
    if (to == null) { // read only
      return null;
    }
    if (to == Format.XML || to.csv()) {
      String empty = emptyName(d);
      if (empty != null) {
        return empty;
      }
    }
    return to == Format.XML
        ? SolrXmlWriter.unwritable(d)
        : to.csv() ? CsvWriter.unwritable(d, to == Format.CSV_PLAIN) : null;
  }

  private static String emptyName(Document d) {
    if (d.fields().containsKey("")) {
      return "a field has an empty name, which Solr cannot index (and CSV or XML cannot carry "
          + "back): give it a name in the input";
    }
    for (Document c : d.children()) {
      if (emptyName(c) != null) {
        return "a child document: " + emptyName(c);
      }
    }
    return null;
  }

  /**
   * As above, for output in {@code to}: a document that format cannot hold (XML 1.0 forbids some
   * characters JSON and CSV carry) is reported as a bad item at its place, not fed to the sink.
   */
  static void readAll(List<Path> inputs, Format format, Format to, CorpusStats stats, Sink sink) {
    readAll(inputs, format, to, stats, sink, () -> false);
  }

  /** As above, reading no further once {@code enough} says so (after a document). */
  private static void readAll(
      List<Path> inputs,
      Format format,
      Format to,
      CorpusStats stats,
      Sink sink,
      BooleanSupplier enough) {
    for (Path in : inputs) {
      if (enough.getAsBoolean()) {
        return;
      }
      long before = stats.read + stats.bad;
      AtomicLong got = new AtomicLong(); // what was read of it: sample --first stops early
      try (CorpusReader r = Corpus.open(in, format == null ? Format.of(in) : format, got)) {
        Item item;
        while (!enough.getAsBoolean() && (item = r.next()) != null) {
          String unwritable = item.ok() ? unwritable(to, item.document()) : null;
          if (unwritable != null) {
            stats.bad(Item.bad(unwritable, item.source(), item.ordinal(), item.line()));
          } else if (item.ok()) {
            stats.read++;
            sink.accept(item.document());
          } else {
            stats.bad(item);
          }
        }
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot read " + in + ": " + Corpus.why(e));
      } catch (UncheckedIOException e) {
        throw SolrscaleException.usage("cannot read " + in + ": " + Corpus.why(e.getCause()));
      }
      stats.bytesIn += got.get();
      if (stats.read + stats.bad == before) {
        stats.emptyInputs.add(in.toString());
      }
    }
  }

  /** The field names of all documents, in first-seen order: CSV's columns. */
  static List<String> columns(List<Path> inputs, Format format, Format to) {
    Set<String> names = new LinkedHashSet<>();
    // documents CSV cannot hold are reported by the pass that writes, and give no column
    readAll(inputs, format, to, new CorpusStats(), d -> names.addAll(d.fields().keySet()));
    return new ArrayList<>(names);
  }

  /** Converts the inputs into one output file in {@code to}. */
  public static CorpusStats convert(List<Path> inputs, Format from, Path output, Format to) {
    long t0 = System.nanoTime();
    CorpusStats stats = new CorpusStats();
    List<String> cols = to.csv() ? columns(inputs, from, to) : List.of();
    writeOne(
        output,
        to,
        cols,
        stats,
        t0,
        w ->
            readAll(
                inputs,
                from,
                to,
                stats,
                d -> {
                  w.write(d);
                  stats.written++;
                }));
    return stats;
  }

  /**
   * The first {@code n} documents (reading no further), or with a seed a uniform random {@code n}
   * of them (reservoir sampling: one pass, memory for n documents), written in input order.
   */
  public static CorpusStats sample(
      List<Path> inputs, Format from, int n, Long seed, Path output, Format to) {
    long t0 = System.nanoTime();
    CorpusStats stats = new CorpusStats();
    List<Document> picked = new ArrayList<>(Math.min(n, 1 << 16));
    List<Long> order = new ArrayList<>();
    SplittableRandom rnd = seed == null ? null : new SplittableRandom(seed);
    long[] seen = {0};
    readAll(
        inputs,
        from,
        to,
        stats,
        d -> {
          long i = seen[0]++;
          if (picked.size() < n) {
            picked.add(d);
            order.add(i);
          } else if (rnd != null) {
            long j = rnd.nextLong(i + 1);
            if (j < n) {
              picked.set((int) j, d);
              order.set((int) j, i);
            }
          }
        },
        rnd == null ? () -> picked.size() >= n : () -> false);
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < picked.size(); i++) {
      idx.add(i);
    }
    idx.sort((a, b) -> Long.compare(order.get(a), order.get(b)));
    List<String> cols = new ArrayList<>();
    if (to.csv()) {
      Set<String> names = new LinkedHashSet<>();
      picked.forEach(d -> names.addAll(d.fields().keySet()));
      cols.addAll(names);
    }
    writeOne(
        output,
        to,
        cols,
        stats,
        t0,
        w -> {
          for (int i : idx) {
            w.write(picked.get(i));
            stats.written++;
          }
        });
    return stats;
  }

  /** Something that fills one output file. */
  interface Fill {
    void into(CorpusWriter w) throws IOException;
  }

  /** Creates one output file, lets {@code fill} write it, and records it in the stats. */
  static void writeOne(
      Path output, Format to, List<String> cols, CorpusStats stats, long t0, Fill fill) {
    AtomicLong bytes = new AtomicLong();
    try {
      Outputs.whole(
          output,
          file -> {
            try (CorpusWriter w =
                Corpus.create(file, to, cols.isEmpty() ? List.of("id") : cols, bytes)) {
              fill.into(w);
            }
          });
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write " + output + ": " + Corpus.why(e));
    }
    stats.filesWritten.add(output.toString());
    stats.bytesOut = bytes.get();
    stats.seconds = (System.nanoTime() - t0) / 1e9;
  }

  /** How to cut: into a number of parts, or parts of at most so many documents or bytes. */
  public record SplitRule(Integer parts, Long maxDocs, Long maxBytes) {
    public SplitRule {
      int given = (parts != null ? 1 : 0) + (maxDocs != null ? 1 : 0) + (maxBytes != null ? 1 : 0);
      if (given != 1) {
        throw SolrscaleException.usage("give exactly one of --parts, --max-docs or --max-mb");
      }
      if (parts != null && parts < 1
          || maxDocs != null && maxDocs < 1
          || maxBytes != null && maxBytes < 1) {
        throw SolrscaleException.usage("--parts, --max-docs and --max-mb must be at least 1");
      }
    }

    /**
     * How many documents part {@code index} (from 0) holds at most, of {@code total} documents:
     * with {@code parts}, the first {@code total % parts} parts one more than the others, so that
     * there are {@code parts} parts (fewer only when there are fewer documents) differing by one at
     * most.
     */
    long capacity(long total, int index) {
      if (parts == null) {
        return maxDocs != null ? maxDocs : Long.MAX_VALUE;
      }
      return Math.max(1, total / parts + (index < total % parts ? 1 : 0));
    }
  }

  /**
   * Splits the inputs into parts {@code <dir>/<prefix>-00001.<ext>} at document boundaries. With
   * {@code parts} the documents are counted first, so every part gets the same number (+-1). If it
   * fails (an input that cannot be read to its end), the parts it wrote are removed.
   */
  public static CorpusStats split(
      List<Path> inputs,
      Format from,
      SplitRule rule,
      Path dir,
      String prefix,
      Format to,
      boolean gzip) {
    if (RawSplit.applies(from != null ? from : Format.of(inputs.get(0)), to)
        && inputs.stream().allMatch(p -> from != null || Format.of(p) == to)
        && inputs.stream().allMatch(p -> Corpus.isUtf8(p, to))) {
      RawSplit raw = new RawSplit(to, rule, dir, prefix, gzip);
      return Outputs.allOrNone(dir, raw.written(), () -> raw.run(inputs));
    }
    CorpusStats stats = new CorpusStats();
    return Outputs.allOrNone(
        dir, stats.filesWritten, () -> split(inputs, from, rule, dir, prefix, to, gzip, stats));
  }

  private static CorpusStats split(
      List<Path> inputs,
      Format from,
      SplitRule rule,
      Path dir,
      String prefix,
      Format to,
      boolean gzip,
      CorpusStats stats) {
    long t0 = System.nanoTime();
    List<String> cols = to.csv() ? columns(inputs, from, to) : List.of("id");
    long total = 0;
    if (rule.parts() != null) {
      CorpusStats count = new CorpusStats();
      readAll(inputs, from, to, count, d -> {});
      total = count.read;
    }
    long all = total;
    AtomicLong bytes = new AtomicLong();
    long[] inPart = {0};
    long[] partBytesStart = {0};
    CorpusWriter[] current = {null};
    try {
      readAll(
          inputs,
          from,
          to,
          stats,
          d -> {
            boolean full =
                current[0] != null && inPart[0] >= rule.capacity(all, stats.filesWritten.size() - 1)
                    || rule.maxBytes() != null
                        && inPart[0] > 0
                        && bytes.get() - partBytesStart[0] >= rule.maxBytes();
            if (current[0] == null || full) {
              if (current[0] != null) {
                current[0].close();
              }
              partBytesStart[0] = bytes.get();
              Path part =
                  dir.resolve(
                      String.format(
                          "%s-%05d.%s%s",
                          prefix,
                          stats.filesWritten.size() + 1,
                          to.extension(),
                          gzip ? ".gz" : ""));
              try {
                current[0] =
                    Outputs.opening(
                        part,
                        () -> {
                          stats.filesWritten.add(part.toString());
                          return Corpus.create(
                              part, to, cols.isEmpty() ? List.of("id") : cols, bytes);
                        });
              } catch (IOException e) {
                throw SolrscaleException.usage("cannot write " + part + ": " + Corpus.why(e));
              }
              inPart[0] = 0;
            }
            current[0].write(d);
            inPart[0]++;
            stats.written++;
          });
    } finally {
      if (current[0] != null) {
        try {
          current[0].close();
        } catch (IOException e) {
          throw SolrscaleException.usage("cannot finish " + dir + ": " + Corpus.why(e));
        }
      }
    }
    stats.bytesOut = bytes.get();
    stats.seconds = (System.nanoTime() - t0) / 1e9;
    return stats;
  }
}
