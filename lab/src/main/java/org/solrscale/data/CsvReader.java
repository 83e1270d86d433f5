package org.solrscale.data;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.RuntimeJsonMappingException;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CSV with a header line naming the fields. An empty cell is an absent field; several values are
 * joined by '|' (a literal '|' or '\' is escaped with '\'), unless it is plain CSV: one value per
 * cell, as it is.
 */
final class CsvReader implements CorpusReader {
  static final char SEPARATOR = '|';
  private static final CsvMapper CSV = new CsvMapper();

  private final Utf8Guard guard;
  private final MappingIterator<Map<String, String>> rows;
  private final String source;
  private long ordinal;
  private boolean done;
  private String headerError;
  private final boolean plain;

  CsvReader(InputStream in, String source, boolean plain) throws IOException {
    this.plain = plain;
    this.guard = new Utf8Guard(in);
    this.source = source;
    MappingIterator<Map<String, String>> it = null;
    try {
      it =
          CSV.readerForMapOf(String.class)
              .with(CsvSchema.emptySchema().withHeader())
              .with(CsvParser.Feature.FAIL_ON_MISSING_HEADER_COLUMNS)
              .readValues(guard);
    } catch (JsonProcessingException e) { // no header: an empty file has no documents, else say so
      done = true;
      headerError =
          guard.delivered() == 0 ? null : JsonLinesReader.firstLine(e.getOriginalMessage());
    }
    this.rows = it;
  }

  /** What {@link #read} yields for a row without any value (a blank line): no document. */
  private static final Item BLANK = Item.bad("blank", "", 0, 0);

  @Override
  public Item next() throws IOException {
    Item item;
    do {
      item = read();
    } while (item == BLANK);
    return item;
  }

  private Item read() throws IOException {
    if (headerError != null) {
      String why = headerError;
      headerError = null;
      return Item.bad("no CSV header line, the file is skipped: " + why, source, 1, 1);
    }
    if (done) {
      return null;
    }
    try {
      if (!rows.hasNextValue()) {
        return null;
      }
    } catch (JsonProcessingException | RuntimeJsonMappingException e) { // an I/O error is thrown on
      done = true;
      JsonLocation at = rows.getCurrentLocation(); // at the end of the file: not the line after it
      return Item.bad(
          "malformed CSV, the rest of the file is skipped: "
              + JsonLinesReader.firstLine(e.getMessage()),
          source,
          ordinal + 1,
          Math.max(1, at.getLineNr() - (at.getColumnNr() <= 1 ? 1 : 0)));
    }
    ordinal++;
    long line = rows.getCurrentLocation().getLineNr();
    if (ordinal == 1 && guard.firstMalformedUpTo(line - 1) >= 0) {
      done = true;
      return Item.bad(
          "the header has " + guard.invalid() + "; the rest of the file is skipped",
          source,
          ordinal,
          1);
    }
    String bad = ordinal == 1 ? headerProblem((CsvSchema) rows.getParserSchema()) : null;
    if (bad != null) {
      done = true;
      return Item.bad(bad + "; the file is skipped", source, ordinal, 1);
    }
    try {
      Map<String, String> row = rows.nextValue();
      JsonLocation end = rows.getParser().currentLocation();
      if (guard.firstMalformedUpTo(end.getLineNr() - (end.getColumnNr() <= 1 ? 1 : 0)) >= 0) {
        return Item.bad(guard.invalid(), source, ordinal, line);
      }
      Document d = new Document();
      for (Map.Entry<String, String> cell : row.entrySet()) {
        if (cell.getValue() != null && !cell.getValue().isEmpty()) {
          if (plain) {
            d.add(cell.getKey(), cell.getValue());
          } else {
            for (String v : splitValues(cell.getValue())) {
              d.add(cell.getKey(), v);
            }
          }
        }
      }
      if (d.fields().isEmpty()) { // a blank line, or one of empty cells only: not a document
        ordinal--;
        return BLANK;
      }
      return Item.ok(d, source, ordinal, line);
    } catch (IOException | RuntimeJsonMappingException e) {
      String m = JsonLinesReader.firstLine(e.getMessage());
      Matcher many = TOO_MANY.matcher(m);
      return Item.bad(
          (many.lookingAt()
                  ? "the row has more values than the "
                      + many.group(1)
                      + " columns the header names (a column named only by spaces, or a trailing ',', names "
                      + "none): name every column in the header"
                  : "malformed CSV row: " + m)
              + span(line, e),
          source,
          ordinal,
          line);
    }
  }

  /**
   * For a bad row that ran past the line it started on: which lines it took. A quoted value left
   * open (or closed late) takes the lines after it as its own text, so what looked like rows there
   * are part of the bad one and are not reported one by one.
   */
  private String span(long startLine, Throwable failure) {
    JsonLocation end = null; // where the parser found the row broken, else where it stopped
    for (Throwable t = failure; t != null && end == null; t = t.getCause()) {
      end = t instanceof JsonProcessingException j ? j.getLocation() : null;
    }
    end = end != null ? end : rows.getParser().currentLocation();
    long at = end.getLineNr() - (end.getColumnNr() <= 1 ? 1 : 0); // a line's start: the line before
    if (at <= startLine) {
      return "";
    }
    return " (this row runs from line "
        + startLine
        + " to line "
        + at
        + ": a quote opened in it "
        + "and closed late or never takes the lines after it as its value, so the rows that seem to "
        + "be on those lines are not documents: close the quote)";
  }

  private static final Pattern TOO_MANY =
      Pattern.compile("Too many entries: expected at most (\\d+)");

  /** Why the header's names cannot be fields (one blank, or one twice: a value would be lost). */
  private static String headerProblem(CsvSchema schema) {
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < schema.size(); i++) {
      String name = schema.columnName(i);
      if (name == null || name.trim().isEmpty()) { // as the writer checks: U+2028 is a name
        return "column "
            + (i + 1)
            + " of the CSV header has no name: name it, or remove the column";
      }
      Integer before = seen.putIfAbsent(name, i + 1);
      if (before != null) {
        return "the CSV header names '"
            + name
            + "' twice (columns "
            + before
            + " and "
            + (i + 1)
            + "): give each column its own name";
      }
    }
    return null;
  }

  static List<String> splitValues(String cell) {
    List<String> values = new ArrayList<>(1);
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < cell.length(); i++) {
      char c = cell.charAt(i);
      char next = i + 1 < cell.length() ? cell.charAt(i + 1) : 0;
      if (c == '\\'
          && (next == '\\' || next == SEPARATOR)) { // else a backslash is itself (C:\temp)
        cur.append(next);
        i++;
      } else if (c == SEPARATOR) {
        values.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    values.add(cur.toString());
    return values;
  }

  static String joinValues(List<Object> values) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(SEPARATOR);
      }
      sb.append(String.valueOf(values.get(i)).replace("\\", "\\\\").replace("|", "\\|"));
    }
    return sb.toString();
  }

  @Override
  public void close() throws IOException {
    if (rows != null) {
      rows.close();
    }
    guard.close();
  }
}
