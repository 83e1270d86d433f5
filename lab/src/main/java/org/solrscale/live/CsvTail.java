package org.solrscale.live;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.results.LineTail;

/**
 * Follows a CSV file solrscale writes a row at a time (telemetry.csv, cluster.csv): each poll
 * returns the rows completed since the last, as fields by the header's column names. Fields are
 * split on commas, with double quotes as Jackson's CSV writer puts them around a field that needs
 * them.
 */
final class CsvTail {
  private final LineTail lines;
  private List<String> header;

  CsvTail(Path file) {
    this.lines = new LineTail(file);
  }

  /** The column's index in the header, or -1 (also before the header was read). */
  int column(String name) {
    return header == null ? -1 : header.indexOf(name);
  }

  /** The rows completed since the last poll (the header is kept, not returned). */
  List<List<String>> poll() throws IOException {
    List<List<String>> rows = new ArrayList<>();
    for (String line : lines.poll()) {
      if (line.isEmpty()) {
        continue;
      }
      List<String> fields = split(line);
      if (header == null) {
        header = fields;
      } else {
        rows.add(fields);
      }
    }
    return rows;
  }

  static List<String> split(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          f.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          f.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        out.add(f.toString());
        f.setLength(0);
      } else {
        f.append(c);
      }
    }
    out.add(f.toString());
    return out;
  }
}
