package org.solrscale.load;

/**
 * A clock that only moves when told: sleeping jumps to the deadline, the fake server sets "now".
 */
final class FakeClock implements Clock {
  long now;

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public void sleepUntil(long deadline) {
    now = Math.max(now, deadline);
  }
}
