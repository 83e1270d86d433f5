package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.ReplayCheck;

/**
 * The replay's schedule and answer check with a fake clock: requests go out at their logged offsets
 * divided by the speed (idle gaps cut), loops start again after one pass, and the check counts what
 * an independent tally of planted differences says.
 */
class ReplayTest {
  static final long MS = 1_000_000L;
  static final long S = 1_000_000_000L;

  @TempDir Path dir;

  /** A log: request i at the start times given (ms), logged hits i, QTime 2. */
  Path log(long... startsMs) throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < startsMs.length; i++) {
      lines.add(
          "{\"start_ms\":"
              + (1_700_000_000_000L + startsMs[i])
              + ",\"collection\":\"c"
              + (i % 2)
              + "\",\"handler\":\"/select\",\"params\":{\"q\":[\"n"
              + i
              + " x\"],\"fq\":[\"a:1\",\"b:2\"]},\"hits\":"
              + i
              + ",\"status\":0,\"qtime\":2,\"source\":\"solr.log:"
              + (i + 1)
              + "\"}");
    }
    Path f = dir.resolve("requests.jsonl");
    Files.write(f, lines);
    return f;
  }

  /** Records when each request was sent; answers with hits = index, except those in {@code off}. */
  static final class Server implements Sender {
    final FakeClock clock;
    final List<long[]> sent = new ArrayList<>();
    final java.util.Set<Integer> off;

    Server(FakeClock clock, java.util.Set<Integer> off) {
      this.clock = clock;
      this.off = off;
    }

    @Override
    public void send(QueryRequest r, long slot, Completion done) {
      long now = clock.nanoTime();
      sent.add(new long[] {r.index(), now});
      long hits = off.contains(r.index()) ? r.index() + 100 : r.index();
      done.complete(Outcome.ok(200, 10, hits), now, now + 20 * MS);
    }
  }

  @Test
  void sendsAtTheLoggedOffsetsOverTheSpeed() throws Exception {
    // gaps 400 ms, 800 ms, a 60 s night, 40 ms
    Path f = log(0, 400, 1200, 61_200, 61_240);
    ReplaySchedule s = ReplaySchedule.read(f, null, 4, 5 * S, 0, 1);
    FakeClock clock = new FakeClock();
    Server server = new Server(clock, java.util.Set.of());
    LoadModel.Replay model = new LoadModel.Replay(s, false, 4, 5 * S, f.toString(), 3);
    new Driver(clock, server, null, model, new Driver.Bounds(0, 0, 0, 0), 1)
        .run(new LoadRecorder(0), 0, i -> {}, S);
    // offsets / 4, the night cut to 5 s first
    long[] expected = {0, 100 * MS, 300 * MS, 300 * MS + 5 * S / 4, 310 * MS + 5 * S / 4};
    assertThat(server.sent).hasSize(5);
    for (int i = 0; i < 5; i++) {
      assertThat(server.sent.get(i)[0]).isEqualTo(i);
      assertThat(server.sent.get(i)[1]).isEqualTo(expected[i]);
    }
    // each request to its logged collection, its parameters encoded again
    assertThat(s.entries().get(1).request().collection()).isEqualTo("c1");
    assertThat(s.entries().get(1).request().params()).isEqualTo("q=n1+x&fq=a%3A1&fq=b%3A2");
    assertThat(ReplaySchedule.read(f, "other", 1, 0, 0, 1).collections()).containsExactly("other");
  }

  @Test
  void requestsOfOneMillisecondAreSpreadAcrossIt() throws Exception {
    Path f = log(0, 0, 0, 0, 1, 3, 3);
    ReplaySchedule s = ReplaySchedule.read(f, null, 2, 0, 0, 1);
    assertThat(s.entries().stream().map(ReplaySchedule.Entry::offsetNanos).toList())
        .containsExactly(0L, 125_000L, 250_000L, 375_000L, 500_000L, 1_500_000L, 1_750_000L);
  }

  @Test
  void loopsAndShares() throws Exception {
    Path f = log(0, 100, 200, 300);
    ReplaySchedule s = ReplaySchedule.read(f, null, 1, 0, 0, 1);
    assertThat(s.periodNanos()).isEqualTo(400 * MS); // one pass and one mean gap
    FakeClock clock = new FakeClock();
    Server server = new Server(clock, java.util.Set.of());
    LoadModel.Replay model = new LoadModel.Replay(s, true, 1, 0, f.toString(), 3);
    new Driver(clock, server, null, model, new Driver.Bounds(0, 0, 1000 * MS, 0), 1)
        .run(new LoadRecorder(0), 0, i -> {}, S);
    assertThat(server.sent.stream().map(x -> x[1] / MS).toList())
        .containsExactly(0L, 100L, 200L, 300L, 400L, 500L, 600L, 700L, 800L, 900L);
    // two drivers: every other request each, at their own times
    ReplaySchedule second = ReplaySchedule.read(f, null, 2, 0, 1, 2);
    assertThat(second.entries().stream().map(e -> e.offsetNanos() / MS).toList())
        .containsExactly(50L, 150L);
  }

  @Test
  void theCheckCountsWhatDiffers() throws Exception {
    long[] starts = new long[300];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = i * 10L;
    }
    Path f = log(starts);
    ReplaySchedule s = ReplaySchedule.read(f, null, 1, 0, 0, 1);
    java.util.Set<Integer> off = new java.util.HashSet<>();
    for (int i = 0; i < 300; i += 50) {
      off.add(i); // 6 planted
    }
    FakeClock clock = new FakeClock();
    LoadModel.Replay model = new LoadModel.Replay(s, false, 1, 0, f.toString(), 3);
    AnswerCheck check = new AnswerCheck(s);
    new Driver(clock, new Server(clock, off), null, model, new Driver.Bounds(0, 0, 0, 0), 1)
        .run(new LoadRecorder(0, check), 0, i -> {}, S);
    ReplayCheck r = check.result(model);
    assertThat(r.checked()).isEqualTo(300);
    assertThat(r.checked() - r.equal()).isEqualTo(off.size());
    assertThat(r.flagged()).isTrue(); // 2 % > 1 %
    assertThat(r.mostDifferent()).hasSize(6);
    assertThat(r.mostDifferent().get(0).source()).isEqualTo("solr.log:1"); // 0 -> 100: the most
    // 20 ms here against QTime 2: every request slower than 3x its QTime
    assertThat(r.slower()).isEqualTo(300);
    assertThat(r.offeredPerSecond()).containsExactly(100, 100, 100);
  }

  /** Two drivers' checks of one log: every request counted once, the flag judged on the whole. */
  @Test
  void driversChecksMerge() throws Exception {
    long[] starts = new long[200];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = i * 10L;
    }
    Path f = log(starts);
    java.util.Set<Integer> off = java.util.Set.of(3, 5); // both on the second driver's share
    List<ReplayCheck> each = new ArrayList<>();
    for (int d = 0; d < 2; d++) {
      ReplaySchedule s = ReplaySchedule.read(f, null, 1, 0, d, 2);
      FakeClock clock = new FakeClock();
      LoadModel.Replay model = new LoadModel.Replay(s, false, 1, 0, f.toString(), 3);
      AnswerCheck check = new AnswerCheck(s);
      new Driver(clock, new Server(clock, off), null, model, new Driver.Bounds(0, 0, 0, 0), 1)
          .run(new LoadRecorder(0, check), 0, i -> {}, S);
      each.add(check.result(model));
    }
    assertThat(each.get(1).flagged()).isTrue(); // 2 of its 100
    ReplayCheck all = ReplayCheck.merge(each);
    assertThat(all.scheduled()).isEqualTo(200);
    assertThat(all.checked()).isEqualTo(200);
    assertThat(all.checked() - all.equal()).isEqualTo(2);
    assertThat(all.flagged()).isFalse(); // 1 % of the whole is not above 1 %
    assertThat(all.mostDifferent())
        .extracting(ReplayCheck.Differing::source)
        .containsExactlyInAnyOrder("solr.log:4", "solr.log:6");
    assertThat(all.offeredPerSecond()).containsExactly(100, 100);
    assertThat(ReplayCheck.merge(java.util.Arrays.asList(null, null))).isNull();
  }

  @Test
  void badFilesSayWhatToDo() throws Exception {
    Path f = dir.resolve("q.txt");
    Files.writeString(f, "q=a\n");
    assertThatThrownBy(() -> ReplaySchedule.read(f, null, 1, 0, 0, 1))
        .hasMessageContaining(f + ":1: not a request of data log-requests");
    Files.writeString(f, "");
    assertThatThrownBy(() -> ReplaySchedule.read(f, null, 1, 0, 0, 1))
        .hasMessageContaining("has no requests");
    Files.writeString(f, "{\"start_ms\":5,\"handler\":\"/select\",\"params\":{}}\n");
    assertThatThrownBy(() -> ReplaySchedule.read(f, null, 1, 0, 0, 1))
        .hasMessageContaining("names no collection: give --collection");
    assertThatThrownBy(() -> ReplaySchedule.read(f, "c", 0, 0, 0, 1))
        .hasMessageContaining("--speed must be above 0");
  }
}
