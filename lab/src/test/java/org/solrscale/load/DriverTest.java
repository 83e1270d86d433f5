package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Offset;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.BenchSummary;

/**
 * The scheduler and recorder against a planted stall, with a fake clock: the server answers in 1
 * ms, except that everything that reaches it between 5 s and 7 s waits until 7 s. Exact
 * expectations come from the schedule itself.
 */
class DriverTest {
  static final long MS = 1_000_000L;
  static final long S = 1_000_000_000L;
  static final long STALL_FROM = 5 * S;
  static final long STALL_TO = 7 * S;

  /** A server that takes 1 ms, or until the stall ends; it answers before send returns. */
  static final class StallingServer implements Sender {
    final FakeClock clock;

    StallingServer(FakeClock clock) {
      this.clock = clock;
    }

    @Override
    public void send(QueryRequest r, long slot, Completion done) {
      long sent = clock.nanoTime();
      long begin = sent >= STALL_FROM && sent < STALL_TO ? STALL_TO : sent;
      long end = begin + MS;
      done.complete(Outcome.ok(200, 100, slot % 5), sent, end);
    }
  }

  static Workload workload() {
    QueryRequest q = new QueryRequest("/select", "q=a", "/select q", "test:1");
    return new Workload(List.of(new Workload.Part(Path.of("q.txt"), 1, List.of(q))), false, 0, 1);
  }

  /** Runs 10 s of load after 1 s of warm-up (the stall is measured time). */
  static List<Interval> run(LoadModel model, FakeClock clock, Sender server) throws Exception {
    Driver d = new Driver(clock, server, workload(), model, new Driver.Bounds(0, 0, 10 * S, 0), 7);
    LoadRecorder rec = new LoadRecorder(0);
    List<Interval> intervals = new ArrayList<>();
    d.run(rec, 0, intervals::addAll, S);
    return intervals;
  }

  static Histogram merged(List<Interval> intervals, boolean latency) {
    Histogram h = new Histogram(LoadRecorder.HIGHEST_US, LoadRecorder.DIGITS);
    intervals.stream()
        .filter(i -> !i.warmup())
        .forEach(i -> h.add(latency ? i.latency() : i.service()));
    return h;
  }

  @Test
  void openLoopChargesTheStallToEveryRequestScheduledDuringIt() throws Exception {
    FakeClock clock = new FakeClock();
    List<Interval> intervals =
        run(new LoadModel.Open(List.of(1000.0), 0, false), clock, new StallingServer(clock));
    Histogram latency = merged(intervals, true);
    // expected latencies straight from the schedule: request k is due at k ms
    List<Long> expected = new ArrayList<>();
    for (long k = 0; k < 10_000; k++) {
      long due = k * MS;
      long done = (due >= STALL_FROM && due < STALL_TO ? STALL_TO : due) + MS;
      expected.add((done - due) / 1000);
    }
    Collections.sort(expected);
    assertThat(latency.getTotalCount()).isEqualTo(10_000);
    for (double p : new double[] {50, 75, 90, 99, 99.9}) {
      long want = expected.get((int) Math.ceil(p / 100 * expected.size()) - 1);
      assertThat((double) latency.getValueAtPercentile(p))
          .as("p%s", p)
          .isCloseTo(want, Percentage.withPercentage(0.2));
    }
    assertThat(latency.getMaxValue())
        .isBetween(2_001_000L, 2_003_000L); // due at 5.000 s, done 7.001 s
    // 2,000 requests were due during the stall: the 80th percentile and above see it
    assertThat(latency.getValueAtPercentile(85)).isGreaterThan(500_000);
    // service time is measured from the actual send, which the stall did not delay in an open loop
    Histogram service = merged(intervals, false);
    assertThat(service.getMaxValue()).isBetween(2_001_000L, 2_003_000L);
  }

  @Test
  void closedLoopHidesTheStallInOneSample() throws Exception {
    FakeClock clock = new FakeClock();
    Sender server =
        (r, slot, done) -> {
          long sent = clock.nanoTime();
          long end = (sent >= STALL_FROM && sent < STALL_TO ? STALL_TO : sent) + MS;
          clock.now = end; // the only thread waits for its answer
          done.complete(Outcome.ok(200, 100, 3), sent, end);
        };
    List<Interval> intervals = run(new LoadModel.Closed(1), clock, server);
    Histogram latency = merged(intervals, true);
    // 5,000 before the stall, one during it, then 2,999 more until 10 s
    assertThat(latency.getTotalCount()).isEqualTo(8_000);
    assertThat(latency.getValueAtPercentile(99.9))
        .isLessThan(1_100); // ~1 ms: the stall is invisible
    assertThat(latency.getMaxValue()).isBetween(2_000_000L, 2_003_000L); // one sample shows it
  }

  @Test
  void warmupIsRecordedApartAndIntervalsAddUpToTheTotal() throws Exception {
    FakeClock clock = new FakeClock();
    Driver d =
        new Driver(
            clock,
            new StallingServer(clock),
            workload(),
            new LoadModel.Open(List.of(100.0), 0, false),
            new Driver.Bounds(2 * S, 0, 3 * S, 0),
            7);
    LoadRecorder rec = new LoadRecorder(0);
    List<Interval> intervals = new ArrayList<>();
    Driver.Result r = d.run(rec, 0, intervals::addAll, S);
    long warm = intervals.stream().filter(Interval::warmup).mapToLong(Interval::count).sum();
    long measured = intervals.stream().filter(i -> !i.warmup()).mapToLong(Interval::count).sum();
    assertThat(warm).isEqualTo(200);
    assertThat(measured).isEqualTo(300);
    assertThat(r.scheduled()).isEqualTo(500);
  }

  @Test
  void aWarmupByCountTagsExactlyThatManyAndTheDurationFollowsIt() throws Exception {
    FakeClock clock = new FakeClock();
    Driver d =
        new Driver(
            clock,
            new StallingServer(clock),
            workload(),
            new LoadModel.Open(List.of(100.0), 0, false),
            new Driver.Bounds(0, 150, 2 * S, 0),
            7);
    LoadRecorder rec = new LoadRecorder(0);
    List<Interval> intervals = new ArrayList<>();
    Driver.Result r = d.run(rec, 0, intervals::addAll, S);
    assertThat(intervals.stream().filter(Interval::warmup).mapToLong(Interval::count).sum())
        .isEqualTo(150);
    assertThat(intervals.stream().filter(i -> !i.warmup()).mapToLong(Interval::count).sum())
        .isEqualTo(200);
    assertThat(r.warmupEndNanos()).isEqualTo(1_500_000_000L);
  }

  /**
   * A server that serves one request at a time in 40 ms (25 a second), first come first served:
   * below 25/s it keeps up, above it a queue grows and it completes 25 a second.
   */
  static final class QueueingServer implements Sender {
    final FakeClock clock;
    long busyUntil;

    QueueingServer(FakeClock clock) {
      this.clock = clock;
    }

    @Override
    public void send(QueryRequest r, long slot, Completion done) {
      long sent = clock.nanoTime();
      busyUntil = Math.max(busyUntil, sent) + 40 * MS;
      done.complete(Outcome.ok(200, 100, 1), sent, busyUntil);
    }
  }

  @Test
  void aStaircaseReportsEachStepOverItsOwnSeconds(@TempDir Path dir) throws Exception {
    FakeClock clock = new FakeClock();
    LoadModel.Open stairs = new LoadModel.Open(List.of(10.0, 20.0, 40.0), 2 * S, false);
    BenchSummary s =
        Bench.run(
            new Bench.Options(
                workload(), stairs, new Driver.Bounds(S, 0, 0, 0), 7, 10 * S, dir, 0.01),
            new QueueingServer(clock),
            clock,
            i -> {});
    assertThat(s.steps()).hasSize(3);
    BenchSummary.Step first = s.steps().get(0);
    BenchSummary.Step second = s.steps().get(1);
    BenchSummary.Step last = s.steps().get(2);
    // the schedule: 2 s at each rate after a 1 s warm-up at the first
    assertThat(first.scheduled()).isEqualTo(20);
    assertThat(second.scheduled()).isEqualTo(40);
    assertThat(last.scheduled()).isEqualTo(80);
    assertThat(first.seconds()).isEqualTo(2.0);
    assertThat(last.seconds()).isEqualTo(2.0); // the last step's own seconds, not cut short
    assertThat(first.startS()).isEqualTo(1.0);
    // below capacity every request completes in its step's seconds: achieved = the rate
    assertThat(first.achieved()).isEqualTo(10.0);
    assertThat(second.achieved()).isEqualTo(20.0);
    assertThat(first.latencyMs().get("p99")).isCloseTo(40.0, Offset.offset(0.1));
    // above it the server completes one per 40 ms of the step: 50 in 2 s, whatever was sent
    assertThat(last.completed()).isBetween(49L, 50L);
    assertThat(last.achieved()).isBetween(24.5, 25.0);
    // and the queue shows in the step's latency: the last request waits ~ 80 x 40 ms - 2 s
    assertThat(last.latencyMs().get("max")).isBetween(1150.0, 1250.0);
    assertThat(first.bottleneck()).startsWith("none");
    assertThat(second.bottleneck()).startsWith("none");
    assertThat(last.bottleneck()).isEqualTo("server");
    assertThat(s.driver().bottleneck()).startsWith("server").contains("40/s step");
  }

  @Test
  void waitingForAFreeConnectionIsTheServersDoingAndOnlyTheDriversOwnLatenessIsItsOwn()
      throws Exception {
    // every request waits 200 ms for a connection before it is on the wire, 1 ms of service
    FakeClock clock = new FakeClock();
    Sender queued =
        (r, slot, done) -> {
          long now = clock.nanoTime();
          done.complete(Outcome.ok(200, 100, 1), now + 200 * MS, now + 201 * MS);
        };
    Driver d =
        new Driver(
            clock,
            queued,
            workload(),
            new LoadModel.Open(List.of(100.0), 0, false),
            new Driver.Bounds(0, 0, 10 * S, 0),
            7);
    LoadRecorder rec = new LoadRecorder(0);
    List<Interval> intervals = new ArrayList<>();
    Driver.Result r = d.run(rec, 0, intervals::addAll, S);
    assertThat(r.issueLag().getTotalCount()).isEqualTo(1000);
    assertThat(r.issueLag().getMaxValue()).isZero(); // the fake clock: always on time
    Histogram lag = new Histogram(LoadRecorder.HIGHEST_US, 2);
    intervals.forEach(i -> lag.add(i.lag()));
    assertThat(lag.getValueAtPercentile(50)).isCloseTo(200_000, Percentage.withPercentage(1));
    assertThat(Bench.bottleneck(true, 100, 90, lag, r.issueLag(), 14, 2))
        .startsWith("server: requests waited for a free connection (p50 200");
    // the driver late itself, or busy: the driver; its lateness unknown: the lag decides
    assertThat(Bench.bottleneck(true, 100, 90, lag, lag, 14, 2)).startsWith("driver");
    assertThat(Bench.bottleneck(true, 100, 90, lag, null, 14, 2)).startsWith("driver");
    assertThat(Bench.bottleneck(true, 100, 90, lag, r.issueLag(), 190, 2)).startsWith("driver");
  }

  @Test
  void hitBucketsArePowersOfTwo() {
    assertThat(LoadRecorder.bucketOf(0)).isZero();
    assertThat(LoadRecorder.bucketOf(1)).isEqualTo(1);
    assertThat(LoadRecorder.bucketOf(2)).isEqualTo(2);
    assertThat(LoadRecorder.bucketOf(3)).isEqualTo(2);
    assertThat(LoadRecorder.bucketOf(4)).isEqualTo(3);
    assertThat(LoadRecorder.bucketOf(1000)).isEqualTo(10);
  }
}
