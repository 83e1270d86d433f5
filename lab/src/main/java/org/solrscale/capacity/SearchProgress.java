package org.solrscale.capacity;

import org.solrscale.load.Interval;
import org.solrscale.results.CapacityResult;

/**
 * What a search tells while it works: its plan once the first query has answered, each probe as it
 * starts, each second of it, and its figures when it ends. The command draws a live line from it; a
 * scenario step logs a line per probe.
 */
public interface SearchProgress {
  /** The closed loop that found where the search starts, when it ran one. */
  default void ramped(CapacityResult.Ramp ramp) {}

  /** Before the first probe (after the first query answered, so a wrong target stays one line). */
  default void planned(ProbePlan plan) {}

  /** A probe starts: its number (from 1), rate, warm-up and measured seconds. */
  default void probing(int number, double rate, double warmupSeconds, long measuredSeconds) {}

  /** One second (or so) of the running probe, warm-up included. */
  default void interval(Interval i) {}

  /** A probe's figures, once it has ended. */
  void probed(int number, CapacityResult.Measured m);
}
