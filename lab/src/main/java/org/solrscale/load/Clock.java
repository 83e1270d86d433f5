package org.solrscale.load;

import java.util.concurrent.locks.LockSupport;

/** Time for the driver; tests give a fake one to plant stalls with exact timings. */
public interface Clock {
  long nanoTime();

  /**
   * Waits until {@code deadline} (in {@link #nanoTime()} terms) or returns at once if it passed.
   */
  void sleepUntil(long deadline) throws InterruptedException;

  /** The real clock: parks, then spins the last ~50 µs for a precise start. */
  Clock SYSTEM =
      new Clock() {
        @Override
        public long nanoTime() {
          return System.nanoTime();
        }

        @Override
        public void sleepUntil(long deadline) throws InterruptedException {
          long left;
          while ((left = deadline - System.nanoTime()) > 60_000) {
            LockSupport.parkNanos(left - 50_000);
            if (Thread.interrupted()) {
              throw new InterruptedException();
            }
          }
          while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
        }
      };
}
