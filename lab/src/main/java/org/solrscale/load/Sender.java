package org.solrscale.load;

/** Sends requests asynchronously and says when each finished; the driver never blocks on one. */
public interface Sender extends AutoCloseable {
  /**
   * Called exactly once per request, with how it ended, when it actually went on the wire (0 if it
   * never did) and when it ended, in the driver clock's terms.
   */
  interface Completion {
    void complete(Outcome outcome, long sentNanos, long doneNanos);
  }

  /** Sends {@code r}; {@code slot} is the worker (closed loop) or request number (open loop). */
  void send(QueryRequest r, long slot, Completion done);

  /**
   * The driver's measured time began at {@code nanos} (driver clock): what came before is warm-up.
   */
  default void measuredFrom(long nanos) {}

  @Override
  default void close() {}
}
