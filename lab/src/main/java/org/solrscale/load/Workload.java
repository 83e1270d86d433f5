package org.solrscale.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.solrscale.spec.SolrscaleException;

/**
 * What to send: a weighted mix of query files (e.g. 80 % search, 20 % facets), in seeded random or
 * sequential order; with {@code zipf > 0} requests repeat with Zipf-skewed frequencies (rank 1 the
 * most often), which sets how often Solr's caches hit.
 */
public final class Workload {
  /** One query file of the mix and its share. */
  public record Part(Path file, double weight, List<QueryRequest> requests) {}

  private final List<Part> parts;
  private final double[] cumulative;
  private final boolean sequential;
  private final double zipf;
  private final long seed;
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicLong[] lines;
  private final List<double[]> zipfCdfs = new ArrayList<>();

  public Workload(List<Part> parts, boolean sequential, double zipf, long seed) {
    if (parts.isEmpty()) {
      throw SolrscaleException.usage("give at least one query file with --queries");
    }
    this.parts = List.copyOf(parts);
    this.sequential = sequential;
    this.zipf = zipf;
    this.seed = seed;
    double total = parts.stream().mapToDouble(Part::weight).sum();
    cumulative = new double[parts.size()];
    lines = new AtomicLong[parts.size()];
    double sum = 0;
    for (int i = 0; i < parts.size(); i++) {
      sum += parts.get(i).weight() / total;
      cumulative[i] = sum;
      zipfCdfs.add(zipf > 0 ? zipfCdf(parts.get(i).requests().size(), zipf) : null);
      lines[i] = new AtomicLong();
    }
  }

  /** Parses {@code FILE[:WEIGHT][,FILE[:WEIGHT]...]} and reads the files. */
  public static List<Part> parseMix(String spec) {
    return parseMix(spec, null);
  }

  /** The same, with files that are not absolute read relative to {@code base} (null: as given). */
  public static List<Part> parseMix(String spec, Path base) {
    return BenchRequest.mix(spec, base).stream()
        .map(m -> new Part(m.file(), m.weight(), QueryFile.read(m.file())))
        .toList();
  }

  /**
   * The parts with only the requests of these templates (null or empty: all), parts left with none
   * dropped; none left at all is a usage error naming the templates the files have.
   */
  public static List<Part> only(List<Part> parts, List<String> templates) {
    if (templates == null || templates.isEmpty()) {
      return parts;
    }
    List<Part> out = new ArrayList<>();
    java.util.Set<String> there = new java.util.TreeSet<>();
    for (Part p : parts) {
      p.requests().forEach(r -> there.add(r.template()));
      List<QueryRequest> kept =
          p.requests().stream().filter(r -> templates.contains(r.template())).toList();
      if (!kept.isEmpty()) {
        out.add(new Part(p.file(), p.weight(), kept));
      }
    }
    List<String> missing = templates.stream().filter(t -> !there.contains(t)).toList();
    if (!missing.isEmpty()) {
      throw SolrscaleException.usage(
          "--templates "
              + String.join(",", missing)
              + ": no request of "
              + (missing.size() == 1 ? "that template" : "those templates")
              + " in "
              + String.join(", ", parts.stream().map(p -> p.file().toString()).toList())
              + "; its templates: "
              + String.join(", ", there));
    }
    return out;
  }

  /** A source of requests for one worker: its own random stream, so workers never contend. */
  public Source source(int worker) {
    return new Source(new SplittableRandom(seed * 1_000_003L + worker));
  }

  /** The requests of one worker. */
  public final class Source {
    private final SplittableRandom random;

    private Source(SplittableRandom random) {
      this.random = random;
    }

    public QueryRequest next() {
      if (sequential) {
        long n = sequence.getAndIncrement();
        return at(n);
      }
      int p = pick(random.nextDouble());
      List<QueryRequest> rs = parts.get(p).requests();
      double[] cdf = zipfCdfs.get(p);
      return rs.get(cdf == null ? random.nextInt(rs.size()) : rank(cdf, random.nextDouble()));
    }
  }

  /**
   * Sequential order: each file's lines in turn, from the top, the file chosen by its weight along
   * a low-discrepancy sequence (so shares hold over any stretch of requests, with no randomness).
   */
  private QueryRequest at(long n) {
    int p = pick((n * 0.6180339887498949) % 1.0);
    List<QueryRequest> rs = parts.get(p).requests();
    return rs.get((int) (lines[p].getAndIncrement() % rs.size()));
  }

  private int pick(double u) {
    for (int i = 0; i < cumulative.length; i++) {
      if (u < cumulative[i]) {
        return i;
      }
    }
    return cumulative.length - 1;
  }

  static double[] zipfCdf(int n, double s) {
    double[] cdf = new double[n];
    double sum = 0;
    for (int k = 1; k <= n; k++) {
      sum += 1 / Math.pow(k, s);
      cdf[k - 1] = sum;
    }
    for (int k = 0; k < n; k++) {
      cdf[k] /= sum;
    }
    return cdf;
  }

  static int rank(double[] cdf, double u) {
    int i = Arrays.binarySearch(cdf, u);
    return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
  }

  public List<Part> parts() {
    return parts;
  }
}
