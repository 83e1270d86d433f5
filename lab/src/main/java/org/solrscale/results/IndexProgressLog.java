package org.solrscale.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A bulk load's progress as it went ({@code index-progress.csv}: seconds since it began and
 * documents accepted by then, twice a second), and the documents per second of each whole second
 * read back from it: what compare judges indexing throughput on.
 */
public final class IndexProgressLog {
  public static final String FILE = "index-progress.csv";

  private final List<double[]> samples = new ArrayList<>();

  /** One sample: documents accepted {@code seconds} after the load began. */
  public synchronized void record(double seconds, long accepted) {
    samples.add(new double[] {seconds, accepted});
  }

  /** Writes the samples to {@code dir/index-progress.csv}. */
  public synchronized void write(Path dir) throws IOException {
    StringBuilder sb = new StringBuilder("seconds,accepted\n");
    for (double[] s : samples) {
      sb.append(String.format(Locale.ROOT, "%.3f,%d%n", s[0], (long) s[1]));
    }
    Files.writeString(dir.resolve(FILE), sb);
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
    try {
      for (String line : Files.readAllLines(f)) {
        String[] parts = line.split(",");
        if (parts.length != 2 || !parts[0].matches("[0-9.]+")) {
          continue;
        }
        double t = Double.parseDouble(parts[0]);
        if (t > points.get(points.size() - 1)[0]) {
          points.add(new double[] {t, Double.parseDouble(parts[1])});
        }
      }
    } catch (IOException | NumberFormatException e) {
      return new double[0];
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
