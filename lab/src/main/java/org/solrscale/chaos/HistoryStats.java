package org.solrscale.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.TimelineRow;

/**
 * What users saw, judged from a history: availability and error kinds overall and per fault, query
 * latency before, during and after the faults, and the documented behaviours (ZooKeeper quorum
 * lost: updates refused with 503, queries still answered with zkConnected:false; every replica of a
 * shard down: plain queries fail, shards.tolerant ones answer with partialResults:true).
 */
final class HistoryStats {
  /** Solr needs a moment to notice a fault; behaviours are judged from this long after it began. */
  static final double GRACE_S = 3;

  /**
   * Solr refuses updates only once its ZooKeeper session is "likely expired": disconnected for 90 %
   * of zkClientTimeout (ConnectionManager.isLikelyExpired). Until then it accepts them.
   */
  static final double LIKELY_EXPIRED = 0.9;

  static final double DEFAULT_SESSION_TIMEOUT_S = 30;

  private final List<HistoryEvent> events;
  private final double sessionTimeoutS;

  HistoryStats(List<HistoryEvent> events) {
    this(events, DEFAULT_SESSION_TIMEOUT_S);
  }

  HistoryStats(List<HistoryEvent> events, double sessionTimeoutS) {
    // by due time: concurrent senders append in the order their answers came
    this.events = events.stream().sorted(Comparator.comparingLong(HistoryEvent::timeMs)).toList();
    this.sessionTimeoutS = sessionTimeoutS;
  }

  static HistoryStats read(Path history, double sessionTimeoutS) {
    List<HistoryEvent> all = new ArrayList<>();
    // an add keeps only how many ids it carried (in num_found): the ids are the loss checker's
    History.read(
        history,
        e ->
            all.add(
                e.isAdd()
                    ? new HistoryEvent(
                        e.timeMs(),
                        e.op(),
                        List.of(),
                        null,
                        e.outcome(),
                        e.rf(),
                        e.status(),
                        e.message(),
                        e.latencyMs(),
                        null,
                        null,
                        (long) e.ids().size(),
                        e.node())
                    : e));
    return new HistoryStats(all, sessionTimeoutS);
  }

  static boolean in(HistoryEvent e, double from, double to) {
    double t = e.timeMs() / 1000.0;
    return t >= from && t <= to;
  }

  ChaosVerdict.Counts writes(Predicate<HistoryEvent> when) {
    return counts(e -> e.isAdd() && when.test(e), false);
  }

  ChaosVerdict.Counts queries(Predicate<HistoryEvent> when) {
    return counts(e -> e.isQuery() && when.test(e), true);
  }

  private ChaosVerdict.Counts counts(Predicate<HistoryEvent> which, boolean query) {
    long sent = 0;
    long ok = 0;
    long failed = 0;
    long unknown = 0;
    long partial = 0;
    long zkOff = 0;
    Integer minRf = null;
    for (HistoryEvent e : events) {
      if (!which.test(e)) {
        continue;
      }
      sent++;
      switch (e.outcome()) {
        case HistoryEvent.OK -> ok++;
        case HistoryEvent.FAIL -> failed++;
        default -> unknown++;
      }
      if (Boolean.TRUE.equals(e.partial())) {
        partial++;
      }
      if (Boolean.FALSE.equals(e.zkConnected())) {
        zkOff++;
      }
      if (e.rf() != null) {
        minRf = minRf == null ? e.rf() : Math.min(minRf, e.rf());
      }
    }
    return new ChaosVerdict.Counts(
        sent,
        ok,
        failed,
        unknown,
        query ? partial : null,
        query ? zkOff : null,
        query ? null : minRf);
  }

  /** Error messages by kind ("HTTP 503: ...", "timeout ..."), counted. */
  Map<String, Long> errors(Predicate<HistoryEvent> when) {
    Map<String, Long> out = new TreeMap<>();
    for (HistoryEvent e : events) {
      if ((e.isAdd() || e.isQuery()) && !e.ok() && when.test(e)) {
        String m = e.message() == null ? "" : e.message().replaceAll("\\d{3,}", "N");
        m = m.length() > 100 ? m.substring(0, 100) + "..." : m;
        String kind = (e.status() == null ? "" : "HTTP " + e.status() + ": ") + m;
        out.merge(e.op() + " " + kind, 1L, Long::sum);
      }
    }
    return out;
  }

  double availability(Predicate<HistoryEvent> when) {
    ChaosVerdict.Counts w = writes(when);
    ChaosVerdict.Counts q = queries(when);
    long sent = w.sent() + q.sent();
    return sent == 0 ? 1 : (double) (w.ok() + q.ok()) / sent;
  }

  /** Query latency in microseconds, of the queries {@code events} holds that pass {@code when}. */
  private static Histogram queryLatency(List<HistoryEvent> events, Predicate<HistoryEvent> when) {
    Histogram h = new Histogram(3_600_000_000L, 3);
    for (HistoryEvent e : events) {
      if (e.isQuery() && e.latencyMs() != null && when.test(e)) {
        h.recordValue(
            Math.max(1, Math.min(h.getHighestTrackableValue(), Math.round(e.latencyMs() * 1000))));
      }
    }
    return h;
  }

  ChaosVerdict.Percentiles latency(Predicate<HistoryEvent> when) {
    Histogram h = queryLatency(events, when);
    return new ChaosVerdict.Percentiles(
        h.getTotalCount(),
        h.getValueAtPercentile(50) / 1000.0,
        h.getValueAtPercentile(99) / 1000.0,
        h.getMaxValue() / 1000.0);
  }

  /** Whether {@code e} happened while some injected fault lasted. */
  static Predicate<HistoryEvent> during(List<FaultRecord> faults) {
    return e ->
        faults.stream().filter(FaultRecord::injected).anyMatch(f -> in(e, f.startS(), f.until()));
  }

  /** Latency before the first fault, during any, after the last. */
  Map<String, ChaosVerdict.Percentiles> phases(List<FaultRecord> faults) {
    List<FaultRecord> inj = faults.stream().filter(FaultRecord::injected).toList();
    Map<String, ChaosVerdict.Percentiles> out = new LinkedHashMap<>();
    if (inj.isEmpty()) {
      out.put("all", latency(e -> true));
      return out;
    }
    double first = inj.stream().mapToDouble(FaultRecord::startS).min().orElse(0);
    double last = inj.stream().mapToDouble(FaultRecord::until).max().orElse(0);
    out.put("before", latency(e -> e.timeMs() / 1000.0 < first));
    out.put("during", latency(during(faults)));
    out.put("after", latency(e -> e.timeMs() / 1000.0 > last));
    return out;
  }

  /** One fault's verdict: what users saw while it lasted, and its expected behaviours. */
  ChaosVerdict.FaultVerdict judge(FaultRecord f, Topology before) {
    if (!f.injected()) {
      return new ChaosVerdict.FaultVerdict(f, null, null, null, null, List.of());
    }
    Predicate<HistoryEvent> window = e -> in(e, f.startS(), f.until());
    List<ChaosVerdict.Behaviour> behaviours = new ArrayList<>();
    double from = f.startS() + GRACE_S;
    double to = f.healS() == null ? f.until() : f.healS();
    if (to > from) {
      behaviours.addAll(FaultActions.of(f.fault()).expected(this, f, before, from, to));
    }
    return new ChaosVerdict.FaultVerdict(
        f, availability(window), writes(window), queries(window), errors(window), behaviours);
  }

  /**
   * What Solr does with every replica of a shard down, judged between {@code from} and {@code to}:
   * queries without shards.tolerant fail, tolerant ones answer with partialResults:true.
   */
  List<ChaosVerdict.Behaviour> shardDownBehaviours(double from, double to) {
    Predicate<HistoryEvent> held = e -> in(e, from, to) && e.timeMs() / 1000.0 < to;
    ChaosVerdict.Counts plain = queries(held.and(e -> "plain".equals(e.query())));
    ChaosVerdict.Counts tol = queries(held.and(e -> "tolerant".equals(e.query())));
    return List.of(
        new ChaosVerdict.Behaviour(
            "queries without shards.tolerant fail",
            plain.sent()
                + " plain queries: "
                + plain.failed()
                + " failed, "
                + plain.ok()
                + " answered",
            plain.sent() > 0 && plain.ok() == 0),
        new ChaosVerdict.Behaviour(
            "shards.tolerant queries answer with partialResults:true",
            tol.sent()
                + " tolerant queries: "
                + tol.partialResults()
                + " partial, "
                + tol.failed()
                + " failed",
            tol.partialResults() > 0 && tol.failed() == 0));
  }

  /** The events, in due-time order. */
  List<HistoryEvent> events() {
    return events;
  }

  double sessionTimeoutS() {
    return sessionTimeoutS;
  }

  /** True when the fault took down every replica of some shard. */
  static boolean shardDown(FaultRecord f, Topology t) {
    if (t == null) {
      return false;
    }
    Set<String> nodes = Set.copyOf(f.nodes());
    return t.replicaNodes().values().stream().anyMatch(r -> !r.isEmpty() && nodes.containsAll(r));
  }

  /**
   * Per-second rows for timeline.csv: all requests, errors, query latency, writes and acknowledged
   * documents.
   */
  List<TimelineRow> timeline() {
    TreeMap<Long, List<HistoryEvent>> bySecond = new TreeMap<>();
    for (HistoryEvent e : events) {
      if (e.isAdd() || e.isQuery()) {
        bySecond.computeIfAbsent(e.timeMs() / 1000, k -> new ArrayList<>()).add(e);
      }
    }
    List<TimelineRow> rows = new ArrayList<>();
    if (bySecond.isEmpty()) {
      return rows;
    }
    for (long s = bySecond.firstKey(); s <= bySecond.lastKey(); s++) {
      List<HistoryEvent> es = bySecond.getOrDefault(s, List.of());
      long errors = es.stream().filter(e -> !e.ok()).count();
      Histogram h = queryLatency(es, e -> true);
      long writes = es.stream().filter(HistoryEvent::isAdd).count();
      long writeErrors = es.stream().filter(e -> e.isAdd() && !e.ok()).count();
      long docs =
          es.stream()
              .filter(HistoryEvent::acknowledgedAdd)
              .mapToLong(
                  e -> e.numFound() != null ? e.numFound() : e.ids() == null ? 0 : e.ids().size())
              .sum();
      rows.add(
          new TimelineRow(
              s,
              TimelineRow.MEASURED,
              es.size(),
              errors,
              es.size(),
              h.getValueAtPercentile(50) / 1000.0,
              h.getValueAtPercentile(99) / 1000.0,
              h.getMaxValue() / 1000.0,
              0,
              0,
              0,
              1.0,
              writes,
              writeErrors,
              docs));
    }
    return rows;
  }
}
