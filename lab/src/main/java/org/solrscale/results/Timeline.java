package org.solrscale.results;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.solrscale.spec.SolrscaleException;

/** Reads timeline.csv (columns found by their header name, so added columns do no harm). */
public final class Timeline {
  private static final String[] COLUMNS = {"second", "phase", "requests", "errors", "qps",
      "latency_p50_ms", "latency_p99_ms", "latency_max_ms", "service_p50_ms", "service_p99_ms", "bytes",
      "seconds"};

  private Timeline() {}

  /** The rows sorted by time; empty when the file does not exist. */
  public static List<TimelineRow> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    List<TimelineRow> rows = new ArrayList<>();
    int lineNo = 1;
    try (BufferedReader r = Files.newBufferedReader(file)) {
      String header = r.readLine();
      if (header == null) {
        return List.of();
      }
      List<String> names = Arrays.asList(header.trim().split(","));
      int[] at = new int[COLUMNS.length];
      for (int i = 0; i < COLUMNS.length; i++) {
        at[i] = names.indexOf(COLUMNS[i]);
      }
      if (at[0] < 0 || at[2] < 0) {
        throw SolrscaleException.usage(file + ":1: not a timeline (no second or requests column)");
      }
      for (String line; (line = r.readLine()) != null; ) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String[] c = line.split(",", -1);
        rows.add(new TimelineRow(num(c, at[0]), "warmup".equals(str(c, at[1])), (long) num(c, at[2]),
            (long) num(c, at[3]), num(c, at[4]), num(c, at[5]), num(c, at[6]), num(c, at[7]),
            num(c, at[8]), num(c, at[9]), (long) num(c, at[10]), at[11] < 0 ? 1 : num(c, at[11])));
      }
    } catch (NumberFormatException e) {
      throw SolrscaleException.usage(file + ":" + lineNo + ": not a number (" + e.getMessage() + ")");
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read " + file + ": " + e.getMessage());
    }
    rows.sort(Comparator.comparingDouble(TimelineRow::second));
    return rows;
  }

  private static String str(String[] cells, int i) {
    return i < 0 || i >= cells.length ? "" : cells[i].trim();
  }

  private static double num(String[] cells, int i) {
    String s = str(cells, i);
    return s.isEmpty() ? 0 : Double.parseDouble(s);
  }
}
