package org.solrscale.data;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** CSV with a header of the given columns; see {@link CsvReader} for multiple values. */
final class CsvWriter implements CorpusWriter {
  private static final CsvMapper CSV = new CsvMapper();
  private final List<String> columns;
  private final Set<String> known;
  private final SequenceWriter out;
  private final boolean plain;

  /** {@code plain}: one value per cell, written as it is (see {@link Format#CSV_PLAIN}). */
  CsvWriter(OutputStream out, List<String> columns, boolean plain) throws IOException {
    this.plain = plain;
    if (columns == null || columns.isEmpty()) {
      throw new IllegalArgumentException("CSV output needs its columns");
    }
    this.columns = List.copyOf(columns);
    this.known = Set.copyOf(columns);
    CsvSchema.Builder schema = CsvSchema.builder();
    columns.forEach(schema::addColumn);
    this.out = CSV.writer(schema.build().withHeader()).writeValues(out);
  }

  /**
   * Why a document cannot be written as a CSV row that reads back the same, or null: child
   * documents, no fields (an empty row is no document), a name a header does not keep, or an empty
   * value, which reads back as no value at all (an empty cell is none).
   */
  static String unwritable(Document d, boolean plain) {
    if (!d.children().isEmpty()) {
      return "the document has child documents, which CSV cannot hold: convert to xml, jsonl or "
          + "json instead";
    }
    if (d.fields().values().stream().allMatch(List::isEmpty)) {
      return "the document has no fields, and an empty CSV row reads back as no document: give it "
          + "an id, or convert to xml, jsonl or json instead";
    }
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      String name = f.getKey();
      if (name.startsWith("\uFEFF")) { // at the start of a file it is the byte order mark
        return "field name '"
            + name.substring(1)
            + "' begins with U+FEFF (a byte order mark), "
            + "which a CSV header loses: rename it, or convert to xml, jsonl or json instead";
      }
      if (!name.equals(name.trim())) { // a CSV header's names are read back trimmed
        return "field name '"
            + name
            + "' begins or ends with white space, which a CSV header "
            + "loses (it would read back as '"
            + name.trim()
            + "'): rename it, or convert to xml, "
            + "jsonl or json instead";
      }
      List<Object> vs = f.getValue();
      if (plain && vs.size() > 1) {
        return "field '"
            + name
            + "' has "
            + vs.size()
            + " values, and plain CSV holds one per cell:"
            + " write csv (values joined by '|'), xml, jsonl or json instead";
      }
      if (vs.size() == 1 && "".equals(vs.get(0))) { // several are joined with '|' and read back
        return "field '"
            + name
            + "' has an empty value, which CSV cannot tell from no "
            + "value (it would read back without it): convert to xml, jsonl or json instead";
      }
    }
    return null;
  }

  @Override
  public void write(Document d) throws IOException {
    if (!d.children().isEmpty()) {
      throw new IOException(
          "document "
              + d.first("id")
              + " has child documents, which "
              + "CSV cannot hold: convert to xml, jsonl or json instead");
    }
    Map<String, String> row = new LinkedHashMap<>();
    for (String c : columns) {
      List<Object> vs = d.fields().get(c);
      if (plain && vs != null && vs.size() > 1) { // never the first value alone, silently
        throw new IllegalArgumentException(unwritable(d, true));
      }
      row.put(c, vs == null ? "" : plain ? String.valueOf(vs.get(0)) : CsvReader.joinValues(vs));
    }
    for (String f : d.fields().keySet()) {
      if (!known.contains(f)) {
        throw new IllegalArgumentException("field '" + f + "' is not among the CSV columns");
      }
    }
    out.write(row);
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
