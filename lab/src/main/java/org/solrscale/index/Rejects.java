package org.solrscale.index;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.solrscale.data.Corpus;
import org.solrscale.data.Document;
import org.solrscale.spec.SolrscaleException;

/**
 * The rejects file (JSON Lines): every input item that did not become a searchable document, with
 * where it came from and why. Created on the first reject only.
 */
public final class Rejects implements AutoCloseable {
  private final Path file;
  private JsonGenerator out;
  private OutputStream stream;
  private long count;

  Rejects(Path file) {
    this.file = file;
  }

  /**
   * Refuses a rejects file that already holds something (an earlier run's rejects, which this run
   * would overwrite unseen); an empty one is reused. Called before any input is read.
   */
  public static void requireUnused(Path file) {
    try {
      if (Files.isRegularFile(file) && Files.size(file) > 0) {
        throw SolrscaleException.usage(
            "the rejects file "
                + file
                + " already holds "
                + Files.size(file)
                + " bytes (an earlier run's rejects?), which this run would overwrite: move it away or "
                + "give another --rejects FILE");
      }
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot read the rejects file " + file + ": " + Corpus.why(e));
    }
  }

  /** How much of a failure's input text goes into the file. */
  static final int MAX_RAW = 1 << 16;

  synchronized void add(
      String source, long ordinal, long line, String error, Document d, String raw) {
    try {
      if (out == null) {
        if (file.getParent() != null) {
          Files.createDirectories(file.getParent());
        }
        stream = Files.newOutputStream(file);
        out = new JsonFactory().createGenerator(stream);
        out.setRootValueSeparator(null);
      }
      out.writeStartObject();
      out.writeStringField("file", source);
      out.writeNumberField("ordinal", ordinal);
      out.writeNumberField("line", line);
      out.writeStringField("error", error);
      if (d != null) {
        out.writeFieldName("document");
        write(d);
      }
      if (raw != null) { // what a reader could not make a document of, to be mended
        out.writeStringField("raw", raw.length() > MAX_RAW ? raw.substring(0, MAX_RAW) : raw);
        if (raw.length() > MAX_RAW) {
          out.writeNumberField("raw_chars", raw.length());
        }
      }
      out.writeEndObject();
      out.writeRaw('\n');
      count++;
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write the rejects file " + file + ": " + Corpus.why(e));
    }
  }

  /** A document as an object of arrays of strings, its children under {@link Document#CHILDREN}. */
  private void write(Document d) throws IOException {
    out.writeStartObject();
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      out.writeArrayFieldStart(f.getKey());
      for (Object v : f.getValue()) {
        out.writeString(String.valueOf(v));
      }
      out.writeEndArray();
    }
    if (!d.children().isEmpty()) {
      out.writeArrayFieldStart(Document.CHILDREN);
      for (Document c : d.children()) {
        write(c);
      }
      out.writeEndArray();
    }
    out.writeEndObject();
  }

  synchronized long count() {
    return count;
  }

  /** The file, if anything was rejected. */
  synchronized Path fileIfAny() {
    return out == null ? null : file;
  }

  @Override
  public synchronized void close() throws IOException {
    if (out != null) {
      out.close();
      stream.close();
    }
  }
}
