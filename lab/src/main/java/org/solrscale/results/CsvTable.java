package org.solrscale.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.spec.SolrscaleException;

/**
 * A CSV file of one kind of row, written and read through one definition: the row's record (its
 * properties, in their declared order, are the columns). Jackson's CSV quotes what needs it (a
 * comma, a quote or a line break in a node's or step's name); columns are read by their header
 * name, so a file with columns added later still reads and a missing one is left at its default.
 */
public final class CsvTable<R> {
  private static final CsvMapper CSV =
      (CsvMapper) new CsvMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final Class<R> type;
  private final CsvSchema schema;

  private CsvTable(Class<R> type) {
    this.type = type;
    this.schema = CSV.schemaFor(type).withHeader();
  }

  /** The table of rows of {@code type}. */
  public static <R> CsvTable<R> of(Class<R> type) {
    return new CsvTable<>(type);
  }

  /** The column names, in order. */
  public List<String> columns() {
    List<String> out = new ArrayList<>();
    schema.forEach(c -> out.add(c.getName()));
    return out;
  }

  /** Writes rows to a file one at a time (the header first); close it to finish. */
  public final class RowWriter implements Closeable {
    private final SequenceWriter out;

    private RowWriter(Writer w) throws IOException {
      this.out = CSV.writer(schema).writeValues(w);
    }

    public synchronized void write(R row) {
      try {
        out.write(row);
        out.flush();
      } catch (IOException e) {
        throw SolrscaleException.environment("cannot write a row: " + e.getMessage());
      }
    }

    @Override
    public synchronized void close() {
      try {
        out.close();
      } catch (IOException e) {
        throw SolrscaleException.environment("cannot close a CSV file: " + e.getMessage());
      }
    }
  }

  /** Opens {@code file} for writing (replacing it) and writes the header. */
  public RowWriter open(Path file) {
    try {
      return new RowWriter(Files.newBufferedWriter(file));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }

  /** Writes {@code rows} to {@code file} at once. */
  public void write(Path file, List<R> rows) {
    try (RowWriter w = open(file)) {
      rows.forEach(w::write);
    }
  }

  /**
   * The rows of {@code file}; empty when it does not exist; one line naming the file when it does
   * not read.
   */
  public List<R> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    try (MappingIterator<R> it =
        CSV.readerFor(type).with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
      return it.readAll();
    } catch (IOException | RuntimeException e) {
      throw SolrscaleException.usage(
          file
              + " is not a "
              + type.getSimpleName()
              + " table: "
              + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
  }
}
