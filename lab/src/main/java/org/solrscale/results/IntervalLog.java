package org.solrscale.results;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.solrscale.spec.SolrscaleException;

/**
 * A bench step's latency.hlog: HdrHistogram intervals tagged latency, service, lag (measured) and
 * warmup-* (warm-up), in microseconds.
 */
public record IntervalLog(List<Entry> entries) {
  public static final IntervalLog EMPTY = new IntervalLog(List.of());

  /** One interval of one tag; start and end in seconds from the log's first interval. */
  public record Entry(String tag, double start, double end, Histogram histogram) {}

  /** Reads the whole log; empty when the file does not exist. */
  public static IntervalLog read(Path file) {
    if (!Files.isRegularFile(file)) {
      return EMPTY;
    }
    List<EncodableHistogram> raw = new ArrayList<>();
    try {
      HistogramLogReader reader = new HistogramLogReader(file.toFile());
      // all intervals whatever their time stamps (bench logs them relative to its start)
      for (EncodableHistogram h;
          (h = reader.nextIntervalHistogram(-Double.MAX_VALUE, Double.MAX_VALUE)) != null; ) {
        raw.add(h);
      }
    } catch (FileNotFoundException e) {
      return EMPTY;
    } catch (RuntimeException e) {
      throw SolrscaleException.usage(
          file + " is not an HdrHistogram interval log: " + e.getMessage());
    }
    double first = raw.stream().mapToDouble(EncodableHistogram::getStartTimeStamp).min().orElse(0);
    List<Entry> entries = new ArrayList<>();
    for (EncodableHistogram h : raw) {
      if (h instanceof Histogram hist) {
        entries.add(
            new Entry(
                h.getTag() == null ? "" : h.getTag(),
                (h.getStartTimeStamp() - first) / 1000.0,
                (h.getEndTimeStamp() - first) / 1000.0,
                hist));
      }
    }
    entries.sort(Comparator.comparingDouble(Entry::start));
    return new IntervalLog(List.copyOf(entries));
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The intervals of one tag, in time order. */
  public List<Entry> tagged(String tag) {
    return entries.stream().filter(e -> e.tag().equals(tag)).toList();
  }

  /** All intervals of one tag added up (lossless: histograms add), if there are any. */
  public Optional<Histogram> merged(String tag) {
    Histogram sum = null;
    for (Entry e : tagged(tag)) {
      if (sum == null) {
        sum = new Histogram(e.histogram().getNumberOfSignificantValueDigits()); // auto-resizing
      }
      sum.add(e.histogram());
    }
    return Optional.ofNullable(sum);
  }
}
