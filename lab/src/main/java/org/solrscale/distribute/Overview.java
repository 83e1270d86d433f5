package org.solrscale.distribute;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.solrscale.results.CsvTable;

/** The live view of a distribution: one row per target, as often as the relays report. */
public final class Overview {
  private Overview() {}

  /** A target at one moment: bytes here of those it needs, its rate, its upstream, its state. */
  public record Row(
      @JsonProperty("t_s") double tS,
      @JsonProperty("shard") String shard,
      @JsonProperty("node") String node,
      @JsonProperty("bytes") long bytes,
      @JsonProperty("total") long total,
      @JsonProperty("mb_per_s") double mbPerS,
      @JsonProperty("from") String from,
      @JsonProperty("state") String state) {}

  /** Writes {@code rows} as overview.csv in a distribute command's --out folder. */
  public static void write(Path dir, List<Row> rows) {
    CsvTable.of(Row.class).write(dir.resolve("overview.csv"), rows);
  }

  /** The rows as a table for the terminal. */
  public static String table(List<Row> rows) {
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%-8s %-8s %10s %10s %8s  %-22s %s%n",
                "SHARD",
                "NODE",
                "MB",
                "OF MB",
                "MB/s",
                "FROM",
                "STATE"));
    for (Row r : rows) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%-8s %-8s %10.1f %10.1f %8.1f  %-22s %s%n",
              r.shard(),
              r.node(),
              r.bytes() / 1e6,
              r.total() / 1e6,
              r.mbPerS(),
              r.from() == null ? "-" : r.from(),
              r.state()));
    }
    return sb.toString();
  }
}
