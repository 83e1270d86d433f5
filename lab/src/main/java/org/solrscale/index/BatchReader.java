package org.solrscale.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.util.ByteArrayUtf8CharSequence;
import org.solrscale.data.Corpus;
import org.solrscale.data.CorpusReader;
import org.solrscale.data.Document;
import org.solrscale.data.Format;
import org.solrscale.data.Item;
import org.solrscale.data.Utf8Text;
import org.solrscale.spec.SolrscaleException;

/** Reads the inputs into numbered batches; what cannot be sent goes to the rejects file. */
final class BatchReader {
  private final IndexOptions options;
  private final Rejects rejects;
  private final ReplaceLedger ledger;
  private final Consumer<Batch> out;
  private final AtomicLong read = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();

  /** Inputs that could not be read to their end, each with why. */
  private final List<String> unread = new CopyOnWriteArrayList<>();

  private List<Batch.Entry> pending;
  private long seq;

  /** {@code out} takes each full batch, and the last one. */
  BatchReader(IndexOptions options, Rejects rejects, ReplaceLedger ledger, Consumer<Batch> out) {
    this.options = options;
    this.rejects = rejects;
    this.ledger = ledger;
    this.out = out;
    this.pending = new ArrayList<>(options.batchSize());
  }

  /** Input items read so far, bad ones and unreadable inputs included. */
  long read() {
    return read.get();
  }

  /** Input bytes read so far (compressed ones as they are in the file). */
  long bytesRead() {
    return bytesRead.get();
  }

  /** Inputs that could not be read to their end, each with why. */
  List<String> unread() {
    return List.copyOf(unread);
  }

  /** Reads every input and hands on its batches. */
  void readAll() {
    for (Path in : options.inputs()) {
      readFile(in);
    }
    if (!pending.isEmpty()) {
      out.accept(new Batch(seq, pending));
    }
  }

  private void readFile(Path in) {
    Format format = options.format() != null ? options.format() : Format.of(in);
    long ordinal = 0;
    long line = 0;
    try (CorpusReader r = Corpus.open(in, format, bytesRead, true)) {
      Item item;
      while ((item = r.next()) != null) {
        read.incrementAndGet();
        ordinal = item.ordinal();
        line = item.line();
        add(item);
      }
    } catch (IOException | UncheckedIOException e) {
      // what was sent stays sent: the run goes on, commits, verifies and says what it missed
      String why = Corpus.why(e instanceof UncheckedIOException u ? u.getCause() : (IOException) e);
      String what =
          ordinal == 0
              ? "cannot read it: " + why
              : "cannot read it after item "
                  + ordinal
                  + " (line "
                  + line
                  + "): "
                  + why
                  + "; what follows was not indexed";
      unread.add(in + ": " + what);
      read.incrementAndGet();
      rejects.add(in.toString(), ordinal + 1, line, what, null, null);
    }
  }

  private void add(Item item) {
    if (!item.ok()) {
      rejects.add(item.source(), item.ordinal(), item.line(), item.error(), null, item.raw());
      return;
    }
    String problem = problem(item.document());
    if (problem != null) {
      rejects.add(item.source(), item.ordinal(), item.line(), problem, item.document(), null);
      return;
    }
    SolrInputDocument doc = toSolr(item.document());
    String id = String.valueOf(doc.getFieldValue("id"));
    pending.add(
        new Batch.Entry(
            doc, id, ledger.read(id), item.document(), item.source(), item.ordinal(), item.line()));
    if (pending.size() >= options.batchSize()) {
      out.accept(new Batch(seq++, pending));
      pending = new ArrayList<>(options.batchSize());
    }
  }

  /** Why a document cannot be sent at all, or null. */
  private String problem(Document d) {
    if (d.first("id") == null || d.first("id").isEmpty()) {
      return "document has no id";
    }
    String child = childWithoutId(d);
    if (child != null) {
      return "a child document of " + d.first("id") + " has no id (" + child + ")";
    }
    String prefix = options.routePrefixField();
    if (prefix != null && (d.first(prefix) == null || d.first(prefix).isEmpty())) {
      return "document has no value for the route prefix field '" + prefix + "'";
    }
    if (prefix != null && (d.first(prefix).contains("!") || d.first(prefix).contains("/"))) {
      return "the route prefix '"
          + d.first(prefix)
          + "' (field '"
          + prefix
          + "') holds '!' or '/', "
          + "which compositeId routing reads as its own syntax: the document would not land with "
          + "the others of its prefix";
    }
    if (prefix != null && d.first("id").contains("!")) {
      return "id '"
          + d.first("id")
          + "' already holds a route prefix ('!'); with --route-prefix it "
          + "would become a three-part id, which does not keep a prefix's documents on one shard";
    }
    return null;
  }

  /** A child document (at any depth) without an id, as text, or null. */
  private static String childWithoutId(Document d) {
    for (Document c : d.children()) {
      if (c.first("id") == null || c.first("id").isEmpty()) {
        return OneLine.of(c.fields().toString());
      }
      String deeper = childWithoutId(c);
      if (deeper != null) {
        return deeper;
      }
    }
    return null;
  }

  private SolrInputDocument toSolr(Document d) {
    SolrInputDocument s = block(d);
    if (options.routePrefixField() != null) {
      // compositeId routing: documents sharing the prefix land on one shard (children with them)
      s.setField("id", d.first(options.routePrefixField()) + "!" + d.first("id"));
    }
    return s;
  }

  /** A document and its children, which Solr indexes as one block. */
  private static SolrInputDocument block(Document d) {
    SolrInputDocument s = new SolrInputDocument();
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      for (Object v : f.getValue()) {
        // UTF-8 as read goes into the javabin request as it is, without a String in between
        s.addField(
            f.getKey(),
            v instanceof Utf8Text u
                ? new ByteArrayUtf8CharSequence(u.bytes(), u.offset(), u.byteLength())
                // numbers as their text, which Solr parses by the field's type as it does XML's:
                // a Long in an int field would be stored wrapped around, and javabin knows no
                // BigInteger or BigDecimal (it would send "java.math...:" + digits)
                : v instanceof Number ? v.toString() : v);
      }
    }
    for (Document c : d.children()) {
      s.addChildDocument(block(c));
    }
    return s;
  }

  /** The inputs' size in bytes, as they are in their files. */
  static long totalBytes(List<Path> inputs) {
    long sum = 0;
    for (Path p : inputs) {
      try {
        sum += Files.size(p);
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot read " + p + ": " + Corpus.why(e));
      }
    }
    return sum;
  }

  /** About how many bytes the inputs hold once decompressed (gzip: eight times its size). */
  static long inputEstimate(List<Path> inputs) {
    long sum = 0;
    for (Path p : inputs) {
      try {
        sum += Files.size(p) * (p.getFileName().toString().endsWith(".gz") ? 8 : 1);
      } catch (IOException e) {
        // counted as nothing: the filter is only smaller
      }
    }
    return sum;
  }
}
