package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.solrscale.cluster.Remote.Result;

/** The bound on SSH connections set up at once, and the retry of those sshd drops. */
class SshGateTest {
  // what OpenSSH 9.2's client prints when sshd drops it past MaxStartups, directly and through a
  // jump host
  static final Result DROPPED =
      new Result(
          255,
          "",
          "kex_exchange_identification: Connection closed by remote host\r\n"
              + "Connection closed by 10.201.0.5 port 22\r\n");
  static final Result DROPPED_AT_JUMP =
      new Result(
          255,
          "",
          "kex_exchange_identification: read: Connection reset by peer\r\n"
              + "Connection reset by 10.201.0.2 port 22\r\n"
              + "Connection closed by UNKNOWN port 65535\r\n");

  // through a jump host whose sshd closed the connection before its banner (seen in CI)
  static final Result DROPPED_BEFORE_BANNER =
      new Result(255, "", "banner exchange: Connection to UNKNOWN port 65535: Broken pipe\r\n");

  @AfterEach
  void defaults() {
    SshGate.bound(SshGate.DEFAULT);
    SshGate.firstBackOff = 250;
  }

  @Test
  void aConnectionSshdDroppedIsToldFromAnUnreachableHostOrARefusedKey() {
    assertThat(SshGate.dropped(DROPPED)).isTrue();
    assertThat(SshGate.dropped(DROPPED_AT_JUMP)).isTrue();
    assertThat(SshGate.dropped(DROPPED_BEFORE_BANNER)).isTrue();
    // a target behind a jump host that does not answer: not a drop, not tried again (seen here:
    // port 22 dropping packets on a lab host behind a bastion)
    assertThat(
            SshGate.dropped(
                new Result(
                    255,
                    "",
                    "Connection timed out during banner exchange\r\n"
                        + "Connection to UNKNOWN port 65535 timed out\r\n")))
        .isFalse();
    assertThat(
            SshGate.dropped(
                new Result(255, "", "ssh: connect to host 10.201.0.9 port 22: No route to host")))
        .isFalse();
    assertThat(
            SshGate.dropped(
                new Result(
                    255, "", "ssh: connect to host 10.201.0.9 port 22: Connection timed out")))
        .isFalse();
    assertThat(
            SshGate.dropped(new Result(255, "", "root@10.201.0.3: Permission denied (publickey).")))
        .isFalse();
    // a command that ran and failed, whatever it printed
    assertThat(SshGate.dropped(new Result(1, "", "Connection closed by remote host"))).isFalse();
  }

  @Test
  void noMoreThanTheBoundAreSetUpAtOnceAndEachStartsAfterTheSpacing() throws Exception {
    SshGate.bound(3);
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Long> starts = java.util.Collections.synchronizedList(new ArrayList<>());
    long t0 = System.nanoTime();
    Parallel.map(
        IntStream.range(0, 12).boxed().toList(),
        i ->
            SshGate.setUp(
                "h" + i,
                () -> {
                  starts.add(System.nanoTime());
                  most.accumulateAndGet(now.incrementAndGet(), Math::max);
                  // long beside the spacing, so that three overlap however late a thread runs
                  Waits.sleep(100);
                  now.decrementAndGet();
                  return new Result(0, "", "");
                }));
    assertThat(most.get()).isEqualTo(3);
    // the gate reserves start times SPACING apart from t0 on, and no set-up begins before its
    // own; a thread the scheduler runs late only starts later. So the k-th start is at least
    // k spacings after t0, however the threads were scheduled.
    List<Long> sorted = starts.stream().sorted().toList();
    for (int k = 0; k < sorted.size(); k++) {
      assertThat(sorted.get(k) - t0)
          .as("start %d", k)
          .isGreaterThanOrEqualTo(k * SshGate.SPACING.toNanos());
    }
  }

  @Test
  void withoutABoundAllAreSetUpAtOnce() {
    SshGate.bound(0);
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    Parallel.map(
        IntStream.range(0, 12).boxed().toList(),
        i ->
            SshGate.setUp(
                "h" + i,
                () -> {
                  most.accumulateAndGet(now.incrementAndGet(), Math::max);
                  Waits.sleep(200);
                  now.decrementAndGet();
                  return new Result(0, "", "");
                }));
    assertThat(most.get()).isGreaterThan(SshGate.DEFAULT);
  }

  @Test
  void aDroppedConnectionIsSetUpAgainAfterABackOffAndOneThatKeepsFailingIsReturned() {
    SshGate.firstBackOff = 1;
    long before = SshGate.retries();
    AtomicInteger calls = new AtomicInteger();
    Result r =
        SshGate.setUp("h1", () -> calls.incrementAndGet() <= 2 ? DROPPED : new Result(0, "", ""));
    assertThat(r.ok()).isTrue();
    assertThat(calls.get()).isEqualTo(3);
    assertThat(SshGate.retries() - before).isEqualTo(2);

    calls.set(0);
    assertThat(
            SshGate.setUp(
                "h2",
                () -> {
                  calls.incrementAndGet();
                  return DROPPED_AT_JUMP;
                }))
        .isEqualTo(DROPPED_AT_JUMP);
    assertThat(calls.get()).isEqualTo(SshGate.ATTEMPTS);

    // an unreachable host is not tried again here: ssh's ConnectTimeout already waited
    calls.set(0);
    Result unreachable = new Result(255, "", "ssh: connect to host x port 22: No route to host");
    assertThat(
            SshGate.setUp(
                "h3",
                () -> {
                  calls.incrementAndGet();
                  return unreachable;
                }))
        .isEqualTo(unreachable);
    assertThat(calls.get()).isEqualTo(1);
  }

  @Test
  void theBackOffDoublesWithJitterAndANegativeBoundIsRefused() {
    for (int attempt = 1; attempt <= 7; attempt++) {
      long base = 250L << Math.min(attempt - 1, 4); // at most 4 s
      assertThat(SshGate.backOff(attempt)).isBetween(base, base + base / 2);
    }
    assertThatThrownBy(() -> SshGate.bound(-1))
        .hasMessage("--ssh-parallel -1 is negative; give 1 or more (0: no bound)");
  }
}
