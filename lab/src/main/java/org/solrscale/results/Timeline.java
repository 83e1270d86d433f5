package org.solrscale.results;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Reads timeline.csv, as {@link TimelineRow#TABLE} defines it, in time order. */
public final class Timeline {
  private Timeline() {}

  /** The rows sorted by time; empty when the file does not exist. */
  public static List<TimelineRow> read(Path file) {
    List<TimelineRow> rows = new ArrayList<>(TimelineRow.TABLE.read(file));
    rows.sort(Comparator.comparingDouble(TimelineRow::second));
    return rows;
  }
}
