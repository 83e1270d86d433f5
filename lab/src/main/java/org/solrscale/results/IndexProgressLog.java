package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.spec.SolrscaleException;

/**
 * A bulk load's progress as it goes ({@code index-progress.csv}: seconds since it began and
 * documents accepted by then, twice a second, each row written as it comes so that {@code watch}
 * follows it), and the documents per second of each whole second read back from it: what compare
 * judges indexing throughput on.
 */
public final class IndexProgressLog implements AutoCloseable {
  public static final String FILE = "index-progress.csv";

  /** One row: documents accepted {@code seconds} after the load began. */
  @JsonPropertyOrder({"seconds", "accepted"})
  public record Sample(
      @JsonProperty("seconds") BigDecimal seconds, @JsonProperty("accepted") long accepted) {}

  /** index-progress.csv's columns: seconds,accepted. */
  public static final CsvTable<Sample> TABLE = CsvTable.of(Sample.class);

  private final Path dir;
  private CsvTable<Sample>.RowWriter rows;

  /**
   * {@code dir/index-progress.csv}, made (with its directory, replacing a file there) at the first
   * sample: a load refused before it began leaves nothing.
   */
  public IndexProgressLog(Path dir) {
    this.dir = dir;
  }

  /**
   * One sample: documents accepted {@code seconds} after the load began, written at once; true for
   * the first.
   */
  public synchronized boolean record(double seconds, long accepted) {
    boolean first = rows == null;
    if (first) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot make " + dir + ": " + e.getMessage());
      }
      rows = TABLE.open(dir.resolve(FILE));
    }
    // milliseconds, as the file always had them: 0.500
    rows.write(new Sample(BigDecimal.valueOf(seconds).setScale(3, RoundingMode.HALF_UP), accepted));
    return first;
  }

  @Override
  public synchronized void close() {
    if (rows != null) {
      rows.close();
    }
  }

  /**
   * Documents accepted in each whole second, from the samples in {@code dir/index-progress.csv}
   * (accepted interpolated linearly at each second, starting from none at 0 s); the part-second at
   * the end is left out. Empty when the file is missing or covers less than a second.
   */
  public static double[] perSecond(Path dir) {
    Path f = dir == null ? null : dir.resolve(FILE);
    if (f == null || !Files.isRegularFile(f)) {
      return new double[0];
    }
    List<double[]> points = new ArrayList<>();
    points.add(new double[] {0, 0});
    List<Sample> rows;
    try {
      rows = TABLE.read(f);
    } catch (RuntimeException e) {
      return new double[0];
    }
    for (Sample r : rows) {
      double t = r.seconds() == null ? 0 : r.seconds().doubleValue();
      if (t > points.get(points.size() - 1)[0]) {
        points.add(new double[] {t, r.accepted()});
      }
    }
    double end = points.get(points.size() - 1)[0];
    int seconds = (int) Math.floor(end);
    double[] out = new double[seconds];
    double before = 0;
    for (int s = 1; s <= seconds; s++) {
      double at = at(points, s);
      out[s - 1] = at - before;
      before = at;
    }
    return out;
  }

  /** Accepted at time {@code t}, interpolated between the samples around it. */
  static double at(List<double[]> points, double t) {
    for (int i = 1; i < points.size(); i++) {
      double[] a = points.get(i - 1);
      double[] b = points.get(i);
      if (t <= b[0]) {
        return a[1] + (b[1] - a[1]) * (t - a[0]) / (b[0] - a[0]);
      }
    }
    return points.get(points.size() - 1)[1];
  }
}
