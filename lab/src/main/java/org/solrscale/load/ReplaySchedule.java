package org.solrscale.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.solrscale.data.LoggedRequest;
import org.solrscale.spec.SolrscaleException;

/**
 * The requests of a log ({@code data log-requests}' output) on a schedule: each at its offset from
 * the first, every gap divided by {@code speed} after idle gaps longer than {@code maxGap} were cut
 * to it. A log has millisecond times, so the requests that share a millisecond are spread evenly
 * across it rather than all sent at its start. A loop starts again one mean gap after the last
 * request.
 */
public final class ReplaySchedule {
  /** One request: when it is due after the start, what it is, and what production answered. */
  public record Entry(long offsetNanos, QueryRequest request, LoggedRequest logged) {}

  private final List<Entry> entries;
  private final long periodNanos;
  private final double logSeconds;

  private ReplaySchedule(List<Entry> entries, long periodNanos, double logSeconds) {
    this.entries = entries;
    this.periodNanos = periodNanos;
    this.logSeconds = logSeconds;
  }

  /**
   * The requests of {@code file} at {@code speed} with idle gaps cut to {@code maxGapNanos} (0: not
   * cut), sent to {@code collection} (null: each to its logged one); the share {@code share} of
   * {@code shares} (every shares-th request from the share-th, at their own times).
   */
  public static ReplaySchedule read(
      Path file, String collection, double speed, long maxGapNanos, int share, int shares) {
    if (!(speed > 0) || Double.isInfinite(speed)) {
      throw SolrscaleException.usage("--speed must be above 0, e.g. 1, 2 or 0.5");
    }
    List<LoggedRequest> logged = new ArrayList<>(LoggedRequest.read(file, "--replay"));
    logged.sort(Comparator.comparingLong(LoggedRequest::startMs));
    List<Entry> entries = new ArrayList<>();
    long offset = 0;
    long gaps = 0;
    int sameFrom = 0; // the first request of the run that shares this one's millisecond
    int sameTo = 0; // one past its last
    for (int i = 0; i < logged.size(); i++) {
      LoggedRequest l = logged.get(i);
      if (i > 0) {
        long gap = (l.startMs() - logged.get(i - 1).startMs()) * 1_000_000L;
        if (maxGapNanos > 0 && gap > maxGapNanos) {
          gap = maxGapNanos;
        }
        gaps += gap;
      }
      if (i >= sameTo) {
        sameFrom = i;
        sameTo = i + 1;
        while (sameTo < logged.size() && logged.get(sameTo).startMs() == l.startMs()) {
          sameTo++;
        }
      }
      // a log says the millisecond only: requests that share one are spread evenly across it
      long within = 1_000_000L * (i - sameFrom) / (sameTo - sameFrom);
      offset = Math.round((gaps + within) / speed);
      if (i % shares != share) {
        continue;
      }
      String to = collection != null ? collection : l.collection();
      if (to == null) {
        throw SolrscaleException.usage(
            l.source()
                + ": the logged request names no collection: give --collection to send every"
                + " request to one");
      }
      entries.add(
          new Entry(
              offset, new QueryRequest(l.handler(), l.query(), l.kind(), l.source(), to, i), l));
    }
    double logSeconds =
        (logged.get(logged.size() - 1).startMs() - logged.get(0).startMs()) / 1000.0;
    long meanGap = logged.size() > 1 ? Math.round(gaps / speed / (logged.size() - 1)) : 1_000_000L;
    return new ReplaySchedule(
        List.copyOf(entries), Math.round(gaps / speed) + Math.max(1_000_000L, meanGap), logSeconds);
  }

  public List<Entry> entries() {
    return entries;
  }

  /** How long one pass lasts before a loop starts again. */
  public long periodNanos() {
    return periodNanos;
  }

  /** The time the log's requests spanned, first start to last. */
  public double logSeconds() {
    return logSeconds;
  }

  /** The collections the requests go to. */
  public Set<String> collections() {
    Set<String> out = new LinkedHashSet<>();
    entries.forEach(e -> out.add(e.request().collection()));
    return out;
  }
}
