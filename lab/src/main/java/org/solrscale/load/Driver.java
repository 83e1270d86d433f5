package org.solrscale.load;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Runs a workload with a load model against a sender and feeds a recorder. Open loop: one
 * dispatcher starts every request at its scheduled time whatever the server does, so latency is
 * measured from that time (no coordinated omission) and service time from the actual send. Closed
 * loop: each thread sends its next request when the previous one returned. A ticker closes one
 * interval a second and hands it to {@code intervals} (log, timeline, progress).
 */
public final class Driver {
  /**
   * The time the run has: a warm-up (a duration, or a number of requests), then a duration and/or a
   * number of measured requests.
   */
  public record Bounds(
      long warmupNanos, long warmupRequests, long durationNanos, long maxRequests) {}

  /** What the dispatcher saw, besides the recorder's figures; {@code steps}: a staircase's. */
  /**
   * issueLag: how late the open loop itself handed each measured request to the sender, in
   * microseconds (null for a closed loop). The schedule lag the recorder keeps runs until the
   * request is on the wire, so it also holds the wait for a free connection, which a slow server
   * causes; this one is the driver's alone.
   */
  public record Result(
      long startNanos,
      long warmupEndNanos,
      long endNanos,
      long scheduled,
      long unfinished,
      List<StepStats.Step> steps,
      Histogram issueLag) {}

  /** The open loop's own lateness, measured requests only (one thread writes it). */
  private final Histogram issueLag = new Histogram(LoadRecorder.HIGHEST_US, 2);

  private final Clock clock;
  private final Sender sender;
  private final Workload workload;
  private final LoadModel model;
  private final Bounds bounds;
  private final long seed;
  private final AtomicLong outstanding = new AtomicLong();
  private final AtomicLong measuredSent = new AtomicLong();
  private final AtomicLong warmSent = new AtomicLong();

  /** When the measured time began: known at once for a timed warm-up, else at its last request. */
  private volatile long warmupEnd = Long.MAX_VALUE;

  private volatile long end = Long.MAX_VALUE;
  private volatile boolean stopped;

  public Driver(
      Clock clock, Sender sender, Workload workload, LoadModel model, Bounds bounds, long seed) {
    this.clock = clock;
    this.sender = sender;
    this.workload = workload;
    this.model = model;
    this.bounds = bounds;
    this.seed = seed;
  }

  /** Stops sending (e.g. on Ctrl-C); what was sent still finishes. */
  public void stop() {
    stopped = true;
  }

  /** A staircase's figures per step, from the start of the measured time (null: one rate). */
  private volatile StepStats stepStats;

  /** When the open loop stopped sending. */
  private long sendEnd = Long.MAX_VALUE;

  /** Runs the load in this thread (and the closed loop's threads); returns when all finished. */
  public Result run(
      LoadRecorder recorder, long start, Consumer<List<Interval>> intervals, long drainNanos)
      throws InterruptedException {
    if (bounds.warmupRequests() <= 0) {
      measuredFrom(start + bounds.warmupNanos());
    }
    Thread ticker = clock == Clock.SYSTEM ? startTicker(recorder, start, intervals) : null;
    long scheduled;
    try {
      scheduled =
          model instanceof LoadModel.Open open
              ? openLoop(open, recorder, start)
              : model instanceof LoadModel.Replay replay
                  ? replayLoop(replay, recorder, start)
                  : closedLoop((LoadModel.Closed) model, recorder);
      long deadline = clock.nanoTime() + drainNanos;
      while (outstanding.get() > 0 && clock.nanoTime() < deadline) {
        clock.sleepUntil(Math.min(deadline, clock.nanoTime() + 10_000_000L));
      }
    } finally {
      if (ticker != null) {
        ticker.interrupt();
        ticker.join();
      }
    }
    long now = clock.nanoTime();
    intervals.accept(recorder.roll(now, warmupEnd));
    StepStats st = stepStats;
    return new Result(
        start,
        Math.min(warmupEnd, now),
        now,
        scheduled,
        outstanding.get(),
        st == null ? List.of() : st.steps(sendEnd == Long.MAX_VALUE ? now : sendEnd),
        model instanceof LoadModel.Closed ? null : issueLag);
  }

  /** Starts the measured time at {@code t} (once) and fixes when it ends. */
  private synchronized void measuredFrom(long t) {
    if (warmupEnd != Long.MAX_VALUE) {
      return;
    }
    warmupEnd = t;
    sender.measuredFrom(t);
    if (model instanceof LoadModel.Open open && open.rates().size() > 1) {
      end = t + open.stepNanos() * open.rates().size();
      stepStats = new StepStats(open.rates(), t, open.stepNanos());
    } else if (bounds.durationNanos() > 0) {
      end = t + bounds.durationNanos();
    }
  }

  /**
   * Whether a request sent (or due) at {@code t} is warm-up; counts it when the warm-up is a
   * number.
   */
  private boolean warmup(long t) {
    if (bounds.warmupRequests() > 0
        && warmSent.get() < bounds.warmupRequests()
        && warmSent.incrementAndGet() <= bounds.warmupRequests()) {
      return true;
    }
    if (bounds.warmupRequests() > 0) {
      measuredFrom(t);
    }
    return t < warmupEnd;
  }

  private boolean countReached() {
    return bounds.maxRequests() > 0 && measuredSent.get() >= bounds.maxRequests();
  }

  private long openLoop(LoadModel.Open open, LoadRecorder recorder, long start)
      throws InterruptedException {
    Arrivals arrivals = new Arrivals(open.poisson(), seed);
    Workload.Source source = workload.source(0);
    long n = 0;
    double rate = open.rates().get(0); // the warm-up runs at the first rate
    double offset = 0; // nanoseconds since the current rate began, kept exact for uniform gaps
    long rateBase = start;
    long intended = start;
    int stepIndex = -1; // the staircase step being sent; -1: warm-up (or one rate)
    while (!stopped && intended < end && !countReached()) {
      boolean warm = warmup(intended);
      StepStats st = stepStats;
      int k = warm || st == null ? -1 : st.indexOf(intended);
      if (k > stepIndex) {
        st.cpuAtStart(k, Bench.processCpuNanos());
        if (k > 0) {
          rate = open.rates().get(k);
          rateBase = intended;
          offset = 0;
        }
        stepIndex = k;
      }
      clock.sleepUntil(intended);
      long sent = clock.nanoTime();
      QueryRequest r = source.next();
      long due = intended;
      if (!warm) {
        measuredSent.incrementAndGet();
        issueLag.recordValue(Math.min(LoadRecorder.HIGHEST_US, Math.max(0, (sent - due) / 1000)));
      }
      if (k >= 0) {
        st.sent(k);
      }
      outstanding.incrementAndGet();
      recorder.sent();
      sender.send(
          r,
          n++,
          (o, onWire, done) -> {
            long onTheWire = onWire > 0 ? onWire : sent;
            recorder.record(r, due, onTheWire, done, o, warm);
            if (st != null) {
              st.finished(k, due, onTheWire, done, o.failed());
            }
            outstanding.decrementAndGet();
          });
      offset += open.poisson() ? arrivals.gapNanos(rate) : 1e9 / rate;
      intended = rateBase + Math.round(offset);
    }
    sendEnd = intended >= end ? end : clock.nanoTime(); // the schedule ran out, or it was cut short
    if (stepStats != null && stepIndex >= 0) {
      stepStats.cpuAtStart(stepIndex + 1, Bench.processCpuNanos());
    }
    return n;
  }

  /**
   * The replay: each request of the schedule at its own offset from {@code start} (plus a period
   * per pass when looping), late or not, as the open loop sends; latency counts from that time.
   */
  private long replayLoop(LoadModel.Replay replay, LoadRecorder recorder, long start)
      throws InterruptedException {
    List<ReplaySchedule.Entry> entries = replay.schedule().entries();
    long n = 0;
    long pass = 0;
    while (!stopped && !countReached()) {
      int i = (int) (n % entries.size());
      if (i == 0 && n > 0) {
        if (!replay.loop()) {
          break;
        }
        pass++;
      }
      ReplaySchedule.Entry e = entries.get(i);
      long intended = start + pass * replay.schedule().periodNanos() + e.offsetNanos();
      if (intended >= end) {
        break;
      }
      boolean warm = warmup(intended);
      clock.sleepUntil(intended);
      long sent = clock.nanoTime();
      if (!warm) {
        measuredSent.incrementAndGet();
        issueLag.recordValue(
            Math.min(LoadRecorder.HIGHEST_US, Math.max(0, (sent - intended) / 1000)));
      }
      QueryRequest r = e.request();
      boolean first = pass == 0;
      outstanding.incrementAndGet();
      recorder.sent();
      sender.send(
          r,
          n++,
          (o, onWire, done) -> {
            long onTheWire = onWire > 0 ? onWire : sent;
            recorder.record(r, intended, onTheWire, done, o, warm);
            if (first) {
              recorder.replayed(r, intended, done, o);
            }
            outstanding.decrementAndGet();
          });
    }
    sendEnd = clock.nanoTime();
    return n;
  }

  /**
   * The closed loop as {@code threads} users, each sending its next request from the completion of
   * the previous one: with an event-loop sender no thread waits, so a closed loop of many users
   * costs the driver no thread switches. A completion that arrives inside send (a synchronous
   * sender, as in tests) is turned into a loop, not a deeper stack.
   */
  private long closedLoop(LoadModel.Closed closed, LoadRecorder recorder)
      throws InterruptedException {
    AtomicLong total = new AtomicLong();
    CountDownLatch finished = new CountDownLatch(closed.threads());
    for (int t = 0; t < closed.threads(); t++) {
      new User(t, recorder, total, finished).next();
    }
    try {
      while (!finished.await(100, TimeUnit.MILLISECONDS)) {
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
      }
    } finally {
      stop(); // on Ctrl-C the users, which run on the sender's thread, send no more
    }
    return total.get();
  }

  /** One user of a closed loop. */
  private final class User {
    private final int id;
    private final Workload.Source source;
    private final LoadRecorder recorder;
    private final AtomicLong total;
    private final CountDownLatch finished;
    private boolean inSend;
    private boolean again;

    User(int id, LoadRecorder recorder, AtomicLong total, CountDownLatch finished) {
      this.id = id;
      this.source = workload.source(id);
      this.recorder = recorder;
      this.total = total;
      this.finished = finished;
    }

    /** Sends this user's next request; a completion that comes back meanwhile only sets a flag. */
    void next() {
      synchronized (this) {
        if (inSend) {
          again = true;
          return;
        }
        inSend = true;
      }
      while (true) {
        if (!issue()) {
          synchronized (this) {
            inSend = false;
          }
          finished.countDown();
          return;
        }
        synchronized (this) {
          if (!again) {
            inSend = false;
            return;
          }
          again = false;
        }
      }
    }

    /** Sends one request; false when this user is done. */
    private boolean issue() {
      long sent = clock.nanoTime();
      if (stopped || countReached() || sent >= end) {
        return false;
      }
      boolean warm = warmup(sent);
      if (!warm) {
        measuredSent.incrementAndGet();
      }
      QueryRequest r = source.next();
      outstanding.incrementAndGet();
      total.incrementAndGet();
      recorder.sent();
      sender.send(
          r,
          id,
          (o, onWire, done) -> {
            recorder.record(r, sent, onWire > 0 ? onWire : sent, done, o, warm);
            outstanding.decrementAndGet();
            next();
          });
      return true;
    }
  }

  private Thread startTicker(LoadRecorder recorder, long start, Consumer<List<Interval>> out) {
    Thread t =
        new Thread(
            () -> {
              long next = start + 1_000_000_000L;
              try {
                while (!Thread.currentThread().isInterrupted()) {
                  clock.sleepUntil(next);
                  out.accept(recorder.roll(next, warmupEnd));
                  next += 1_000_000_000L;
                }
              } catch (InterruptedException e) {
                // the run is over; the caller rolls the last interval
              }
            },
            "solrscale-ticker");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
