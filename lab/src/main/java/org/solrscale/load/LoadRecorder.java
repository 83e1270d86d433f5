package org.solrscale.load;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Records every completed request without keeping it: interval histograms (swapped each second by
 * {@link #roll}) for latency, service time and schedule lag, and run totals by hit-count bucket,
 * template and error kind. Memory is fixed whatever the duration. Many threads record at once.
 */
public final class LoadRecorder {
  /** Up to an hour, in microseconds, three significant digits. */
  public static final long HIGHEST_US = 3_600_000_000L;

  public static final int DIGITS = 3;

  /** Templates tracked one by one; more fall into one "other" entry. */
  static final int MAX_TEMPLATES = 200;

  static final int SAMPLE_MESSAGES = 3;

  private final Recorder latency = new Recorder(HIGHEST_US, DIGITS);
  private final Recorder service = new Recorder(HIGHEST_US, DIGITS);
  private final Recorder lag = new Recorder(HIGHEST_US, DIGITS);
  private final Recorder warmLatency = new Recorder(HIGHEST_US, DIGITS);
  private final Recorder warmService = new Recorder(HIGHEST_US, DIGITS);
  private final Recorder warmLag = new Recorder(HIGHEST_US, DIGITS);
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong errorCount = new AtomicLong();
  private final AtomicLong partial = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong warmCount = new AtomicLong();
  private final AtomicLong warmErrors = new AtomicLong();
  private final AtomicLong warmBytes = new AtomicLong();
  private final Map<String, ErrorStats> errors = new ConcurrentHashMap<>();

  /** This interval's failures by kind, measured and warm-up (taken and reset by {@link #roll}). */
  private final Map<String, LongAdder> intervalErrors = new ConcurrentHashMap<>();

  private final Map<String, LongAdder> intervalWarmErrors = new ConcurrentHashMap<>();
  private final LongAdder sent = new LongAdder();
  private final Map<String, TemplateStats> templates = new ConcurrentHashMap<>();

  /** Latency (µs) by hit-count bucket: 0 hits, then [2^(b-1), 2^b). */
  private final ConcurrentHistogram[] byHits = new ConcurrentHistogram[64];

  private final ConcurrentHistogram numFound = new ConcurrentHistogram(1L << 40, 2);
  private final ConcurrentHistogram responseBytes = new ConcurrentHistogram(1L << 36, 2);
  private long intervalStart;

  /** A replay's answer check (null: not a replay). */
  private final AnswerCheck check;

  public LoadRecorder(long startNanos) {
    this(startNanos, null);
  }

  public LoadRecorder(long startNanos, AnswerCheck check) {
    this.intervalStart = startNanos;
    this.check = check;
  }

  /** A replayed request's first answer, for the answer check. */
  void replayed(QueryRequest r, long intended, long done, Outcome o) {
    if (check != null) {
      check.answered(r, intended, done, o);
    }
  }

  /** Errors of one kind: how many, and the first few messages. */
  public static final class ErrorStats {
    final AtomicLong count = new AtomicLong();
    final List<String> samples = new CopyOnWriteArrayList<>();
  }

  /** One template's requests. */
  public static final class TemplateStats {
    final AtomicLong count = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong hits = new AtomicLong();
    final ConcurrentHistogram latency = new ConcurrentHistogram(HIGHEST_US, 2);
  }

  /**
   * One finished request: its intended start, actual send and completion, in nanoTime terms, and
   * whether the driver counted it as warm-up.
   */
  public void record(
      QueryRequest request, long intended, long sent, long done, Outcome o, boolean warmup) {
    long latencyUs = Math.max(0, (done - intended) / 1000);
    long serviceUs = Math.max(0, (done - sent) / 1000);
    long lagUs = Math.max(0, (sent - intended) / 1000);
    if (warmup) {
      warmLatency.recordValue(Math.min(latencyUs, HIGHEST_US));
      warmService.recordValue(Math.min(serviceUs, HIGHEST_US));
      warmLag.recordValue(Math.min(lagUs, HIGHEST_US));
      warmCount.incrementAndGet();
      warmBytes.addAndGet(o.bytes());
      if (o.failed()) {
        warmErrors.incrementAndGet();
        intervalWarmErrors.computeIfAbsent(o.errorKind(), k -> new LongAdder()).increment();
      }
      return;
    }
    latency.recordValue(Math.min(latencyUs, HIGHEST_US));
    service.recordValue(Math.min(serviceUs, HIGHEST_US));
    lag.recordValue(Math.min(lagUs, HIGHEST_US));
    count.incrementAndGet();
    bytes.addAndGet(o.bytes());
    responseBytes.recordValue(Math.min(o.bytes(), (1L << 36) - 1));
    TemplateStats t = template(request.template());
    t.count.incrementAndGet();
    t.latency.recordValue(Math.min(latencyUs, HIGHEST_US));
    if (o.failed()) {
      errorCount.incrementAndGet();
      t.errors.incrementAndGet();
      intervalErrors.computeIfAbsent(o.errorKind(), k -> new LongAdder()).increment();
      ErrorStats e = errors.computeIfAbsent(o.errorKind(), k -> new ErrorStats());
      e.count.incrementAndGet();
      if (e.samples.size() < SAMPLE_MESSAGES && o.message() != null) {
        e.samples.add(o.message());
      }
    } else if (o.partial()) {
      partial.incrementAndGet();
    }
    if (!o.failed() && o.numFound() >= 0) {
      t.hits.addAndGet(o.numFound());
      numFound.recordValue(Math.min(o.numFound(), (1L << 40) - 1));
      hitBucket(o.numFound()).recordValue(Math.min(latencyUs, HIGHEST_US));
    }
  }

  /** One request put on the wire (warm-up or measured): the load the driver offered. */
  void sent() {
    sent.increment();
  }

  /** The counts of an interval's map, reset (an increment racing the reset lands in the next). */
  private static Map<String, Long> take(Map<String, LongAdder> m) {
    Map<String, Long> out = new TreeMap<>();
    m.forEach(
        (k, v) -> {
          long n = v.sumThenReset();
          if (n > 0) {
            out.put(k, n);
          }
        });
    return out;
  }

  private TemplateStats template(String name) {
    TemplateStats t = templates.get(name);
    if (t != null) {
      return t;
    }
    return templates.size() < MAX_TEMPLATES
        ? templates.computeIfAbsent(name, n -> new TemplateStats())
        : templates.computeIfAbsent("(other)", n -> new TemplateStats());
  }

  /** Bucket 0 holds 0 hits; bucket b > 0 holds [2^(b-1), 2^b). */
  static int bucketOf(long hits) {
    return hits <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(hits);
  }

  private ConcurrentHistogram hitBucket(long hits) {
    int b = bucketOf(hits);
    ConcurrentHistogram h = byHits[b];
    if (h == null) {
      synchronized (byHits) {
        if (byHits[b] == null) {
          byHits[b] = new ConcurrentHistogram(HIGHEST_US, 2);
        }
        h = byHits[b];
      }
    }
    return h;
  }

  /**
   * Closes the current interval at {@code now} and starts the next. Warm-up and measured requests
   * of the same second come back as two intervals (the warm-up one first), or one if only one kind
   * finished; a second in which nothing finished is warm-up when it began before {@code
   * measuredFrom}.
   */
  public synchronized List<Interval> roll(long now, long measuredFrom) {
    long start = intervalStart;
    intervalStart = now;
    Interval warm =
        new Interval(
            start,
            now,
            true,
            warmLatency.getIntervalHistogram(),
            warmService.getIntervalHistogram(),
            warmLag.getIntervalHistogram(),
            warmCount.getAndSet(0),
            warmErrors.getAndSet(0),
            warmBytes.getAndSet(0),
            0,
            take(intervalWarmErrors));
    long offered = sent.sumThenReset();
    Interval main =
        new Interval(
            start,
            now,
            false,
            latency.getIntervalHistogram(),
            service.getIntervalHistogram(),
            lag.getIntervalHistogram(),
            count.getAndSet(0),
            errorCount.getAndSet(0),
            bytes.getAndSet(0),
            offered,
            take(intervalErrors));
    if (warm.count() == 0 && main.count() == 0 && start < measuredFrom) {
      return List.of(withSent(warm, offered));
    }
    if (warm.count() == 0) {
      return List.of(main);
    }
    return main.count() == 0 ? List.of(withSent(warm, offered)) : List.of(warm, main);
  }

  private static Interval withSent(Interval i, long sent) {
    return new Interval(
        i.startNanos(),
        i.endNanos(),
        i.warmup(),
        i.latency(),
        i.service(),
        i.lag(),
        i.count(),
        i.errors(),
        i.bytes(),
        sent,
        i.errorKinds());
  }

  public Map<String, ErrorStats> errors() {
    return errors;
  }

  public Map<String, TemplateStats> templates() {
    return templates;
  }

  /** Latency by hit bucket; null entries had no requests. */
  public Histogram[] byHits() {
    return byHits.clone();
  }

  public Histogram numFound() {
    return numFound;
  }

  /** Measured answers Solr marked partial. */
  public long partial() {
    return partial.get();
  }

  public Histogram responseBytes() {
    return responseBytes;
  }
}
