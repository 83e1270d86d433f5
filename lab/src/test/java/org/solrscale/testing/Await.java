package org.solrscale.testing;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * Waits for the event a test needs (a log line, a state, a counter, a file) with a deadline,
 * instead of sleeping for a time that is too long on a fast machine and too short on a slow one.
 */
public final class Await {
  private static final long FIRST_PAUSE_MS = 5;
  private static final long LONGEST_PAUSE_MS = 250;

  private Await() {}

  /**
   * A condition that may throw while it is not yet met (a node not up yet, a file half-written).
   */
  @FunctionalInterface
  public interface Check {
    boolean ok() throws Exception;
  }

  /**
   * Returns as soon as {@code check} holds; fails naming {@code what} (and the last exception the
   * check threw, if any) when it does not hold within {@code timeout}.
   */
  public static void until(String what, Duration timeout, Check check) throws InterruptedException {
    value(what, timeout, check::ok, ok -> ok);
  }

  /**
   * The first value of {@code get} that {@code done} accepts; fails naming {@code what} and the
   * last value seen when none does within {@code timeout}.
   */
  public static <T> T value(String what, Duration timeout, Callable<T> get, Predicate<T> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = FIRST_PAUSE_MS;
    T last = null;
    Exception failure = null;
    while (true) {
      try {
        last = get.call();
        failure = null;
        if (done.test(last)) {
          return last;
        }
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        failure = e;
      }
      if (System.nanoTime() - deadline >= 0) {
        AssertionError e =
            new AssertionError(
                what
                    + ": not within "
                    + timeout.toMillis()
                    + " ms"
                    + (failure != null
                        ? " (last: " + failure + ")"
                        : " (last value: " + last + ")"));
        if (failure != null) {
          e.initCause(failure);
        }
        throw e;
      }
      Thread.sleep(pause);
      pause = Math.min(LONGEST_PAUSE_MS, pause * 2);
    }
  }
}
