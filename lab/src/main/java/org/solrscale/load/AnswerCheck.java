package org.solrscale.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import org.solrscale.data.LoggedRequest;
import org.solrscale.results.ReplayCheck;
import org.solrscale.results.ReplayRequestRow;

/**
 * The replay's answer check: the first answer to each request of the schedule (its hits, or that it
 * failed, and its latency from the intended start), compared afterwards with what the log says
 * production answered. Many threads record at once; memory is two longs per request.
 */
public final class AnswerCheck {
  /** Points kept for the QTime scatter chart. */
  static final int SCATTER = 2000;

  private static final long NONE = Long.MIN_VALUE;
  private static final long FAILED = -2;

  private final ReplaySchedule schedule;
  private final Map<Integer, Integer> position = new java.util.HashMap<>();
  private final AtomicLongArray hits;
  private final AtomicLongArray latencyUs;

  public AnswerCheck(ReplaySchedule schedule) {
    this.schedule = schedule;
    int n = schedule.entries().size();
    for (int i = 0; i < n; i++) {
      position.put(schedule.entries().get(i).request().index(), i);
    }
    hits = new AtomicLongArray(n);
    latencyUs = new AtomicLongArray(n);
    for (int i = 0; i < n; i++) {
      hits.set(i, NONE);
    }
  }

  /** The first answer to {@code r}; later passes of a loop leave it as it is. */
  void answered(QueryRequest r, long intended, long done, Outcome o) {
    Integer i = position.get(r.index());
    if (i == null) {
      return;
    }
    long h = o.failed() ? FAILED : o.numFound();
    if (hits.compareAndSet(i, NONE, h)) {
      latencyUs.set(i, Math.max(0, (done - intended) / 1000));
    }
  }

  /** Every answered request's row for replay-requests.csv, in schedule order. */
  public List<ReplayRequestRow> rows() {
    List<ReplayRequestRow> out = new ArrayList<>();
    List<ReplaySchedule.Entry> es = schedule.entries();
    for (int i = 0; i < es.size(); i++) {
      long h = hits.get(i);
      if (h == NONE) {
        continue;
      }
      LoggedRequest l = es.get(i).logged();
      out.add(
          new ReplayRequestRow(
              es.get(i).request().index(),
              l.kind(),
              l.hits(),
              h < 0 ? -1 : h,
              l.qtime(),
              latencyUs.get(i) / 1000.0));
    }
    return out;
  }

  /** The check's result, with the replay's settings for the record. */
  public ReplayCheck result(LoadModel.Replay model) {
    String file = model.file();
    double slowerFactor = model.slowerFactor();
    List<ReplaySchedule.Entry> es = schedule.entries();
    long answered = 0;
    long failed = 0;
    long checked = 0;
    long equal = 0;
    long withQtime = 0;
    long slower = 0;
    Map<String, Long> differences = new LinkedHashMap<>();
    for (String k : List.of("under 1 %", "1 to 10 %", "10 to 50 %", "50 % or more")) {
      differences.put(k, 0L);
    }
    List<ReplayCheck.Differing> differing = new ArrayList<>();
    List<ReplayCheck.Slower> slow = new ArrayList<>();
    List<double[]> scatter = new ArrayList<>();
    int step = Math.max(1, es.size() / SCATTER);
    for (int i = 0; i < es.size(); i++) {
      long h = hits.get(i);
      if (h == NONE) {
        continue; // never sent (a run cut short) or never answered
      }
      answered++;
      if (h == FAILED) {
        failed++;
        continue;
      }
      LoggedRequest l = es.get(i).logged();
      QueryRequest r = es.get(i).request();
      double ms = latencyUs.get(i) / 1000.0;
      if (l.qtime() != null && (l.status() == null || l.status() == 0)) {
        withQtime++;
        if (ms > slowerFactor * Math.max(1, l.qtime())) {
          slower++;
          slow.add(new ReplayCheck.Slower(l.source(), l.kind(), r.params(), l.qtime(), ms));
        }
        if (i % step == 0) {
          scatter.add(new double[] {l.qtime(), Math.round(ms * 1000) / 1000.0});
        }
      }
      if (l.hits() == null || h < 0 || l.status() != null && l.status() != 0) {
        continue; // nothing logged to compare with, or no numFound in the answer
      }
      checked++;
      if (h == l.hits()) {
        equal++;
        continue;
      }
      double rel = Math.abs(h - l.hits()) / (double) Math.max(1, l.hits());
      String bucket =
          rel < 0.01
              ? "under 1 %"
              : rel < 0.1 ? "1 to 10 %" : rel < 0.5 ? "10 to 50 %" : "50 % or more";
      differences.merge(bucket, 1L, Long::sum);
      differing.add(new ReplayCheck.Differing(l.source(), l.kind(), r.params(), l.hits(), h));
    }
    long last = es.isEmpty() ? 0 : es.get(es.size() - 1).offsetNanos();
    int seconds = (int) Math.min(24 * 3600, last / 1_000_000_000L + 1);
    int[] offered = new int[seconds];
    for (ReplaySchedule.Entry e : es) {
      int s = (int) (e.offsetNanos() / 1_000_000_000L);
      if (s < seconds) {
        offered[s]++;
      }
    }
    List<Integer> perSecond = new ArrayList<>(seconds);
    for (int v : offered) {
      perSecond.add(v);
    }
    return ReplayCheck.of(
        file,
        model.speed(),
        model.maxGapNanos() > 0 ? model.maxGapNanos() / 1e9 : null,
        model.loop(),
        schedule.logSeconds(),
        last / 1e9,
        es.size(),
        answered,
        failed,
        checked,
        equal,
        differences,
        differing,
        slowerFactor,
        withQtime,
        slower,
        slow,
        scatter,
        perSecond);
  }
}
