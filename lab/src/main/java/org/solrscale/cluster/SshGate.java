package org.solrscale.cluster;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.solrscale.cluster.Remote.Result;
import org.solrscale.spec.SolrscaleException;

/**
 * The bound on SSH connections being set up at once, in this process ({@code --ssh-parallel N}).
 * sshd drops new connections at random once more than {@code MaxStartups} (10 by default) are
 * waiting to authenticate, and a fleet reached through one jump host has one sshd for all of them:
 * a fan-out to 32 hosts that connected at once would lose some, intermittently. So at most N
 * connections are set up at once, each started at least {@link #SPACING} after the one before, and
 * a connection sshd dropped while it was being set up is tried again with back-off (it never ran
 * its command, so trying again is safe). Once a host's connection is up, its commands share it
 * (ControlMaster) and are not bound here.
 */
public final class SshGate {
  /** The default bound: under the default MaxStartups (10) of a single sshd. */
  public static final int DEFAULT = 8;

  /** The least time between two connection set-ups. */
  static final Duration SPACING = Duration.ofMillis(15);

  /** Attempts at setting up one connection that sshd drops, the first included. */
  static final int ATTEMPTS = 8;

  private static final Pattern DROPPED =
      Pattern.compile(
          "kex_exchange_identification|ssh_exchange_identification"
              + "|banner exchange: [^\\n]*(Broken pipe|Connection reset|Connection closed)"
              + "|Connection closed by remote host|Connection reset by peer"
              + "|Connection closed by \\S+ port \\d+\\s*$");

  private static volatile int bound = DEFAULT;
  private static volatile Semaphore permits = new Semaphore(DEFAULT, true);
  private static final Object SPACING_LOCK = new Object();
  private static long lastStart;
  private static final AtomicLong RETRIES = new AtomicLong();

  private SshGate() {}

  /** Sets the bound: N connections set up at once, 0 for no bound (then no spacing either). */
  public static void bound(int n) {
    if (n < 0) {
      throw SolrscaleException.usage(
          "--ssh-parallel " + n + " is negative; give 1 or more (0: no bound)");
    }
    bound = n;
    permits = new Semaphore(Math.max(n, 1), true);
  }

  /** The bound in force (0: none). */
  public static int bound() {
    return bound;
  }

  /** Connections this process set up again after sshd dropped them. */
  public static long retries() {
    return RETRIES.get();
  }

  /**
   * Whether a failed ssh call is a connection sshd closed before it authenticated (MaxStartups, or
   * a jump host's sshd doing so), rather than an unreachable host or a refused key.
   */
  static boolean dropped(Result r) {
    return r.exit() == 255 && r.err() != null && DROPPED.matcher(r.err().strip()).find();
  }

  /**
   * Runs {@code connect} (one connection's set-up) within the bound, again after a back-off while
   * sshd drops it; the last result when it keeps doing so. {@code host} names it in the note.
   */
  static Result setUp(String host, Supplier<Result> connect) {
    Result r = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      r = within(connect);
      if (!dropped(r)) {
        return r;
      }
      if (attempt < ATTEMPTS) {
        RETRIES.incrementAndGet();
        long wait = backOff(attempt);
        System.err.printf(
            "note: %s dropped the SSH connection while it was being set up (sshd's"
                + " MaxStartups?); trying again in %.1f s (%d of %d)%n",
            host, wait / 1000.0, attempt + 1, ATTEMPTS);
        Waits.sleep(wait);
      }
    }
    return r;
  }

  /** The first back-off's base in ms (tests shorten it). */
  static volatile long firstBackOff = 250;

  /** The wait before attempt {@code attempt + 1}: 0.25 s doubling to 4 s, with up to half again. */
  static long backOff(int attempt) {
    long base = firstBackOff << Math.min(attempt - 1, 4);
    return base + ThreadLocalRandom.current().nextLong(base / 2 + 1);
  }

  private static Result within(Supplier<Result> connect) {
    if (bound == 0) {
      return connect.get();
    }
    Semaphore s = permits;
    try {
      s.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
    try {
      space();
      return connect.get();
    } finally {
      s.release();
    }
  }

  /** Waits until {@link #SPACING} has passed since the last set-up began. */
  private static void space() {
    long wait;
    synchronized (SPACING_LOCK) {
      long now = System.nanoTime();
      long next = lastStart + SPACING.toNanos();
      lastStart = Math.max(now, next);
      wait = next - now;
    }
    if (wait > 0) {
      // whole milliseconds, rounded up: never before the reserved start
      Waits.sleep((wait + 999_999) / 1_000_000);
    }
  }
}
