package org.solrscale.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The chaos monkey's schedule: faults drawn from a chosen set, one at a time, with exponentially
 * distributed gaps of a given mean between them, all inside a window. Deterministic for a seed;
 * targets are chosen when each fault fires (the cluster may look different by then).
 */
final class Monkey {
  private Monkey() {}

  /**
   * One planned fault: its kind, when it starts and how long it lasts, in ms from the window's
   * start.
   */
  record Planned(String kind, long atMs, long durationMs) {}

  static List<Planned> schedule(
      long seed, long windowMs, long meanGapMs, long faultMs, List<String> kinds) {
    if (kinds.isEmpty()) {
      throw new IllegalArgumentException("monkey: 'faults' lists no fault kinds");
    }
    if (meanGapMs <= 0 || faultMs <= 0) {
      throw new IllegalArgumentException("monkey: interval and fault_duration must be positive");
    }
    Random rnd = new Random(seed);
    List<Planned> out = new ArrayList<>();
    long t = 0;
    while (true) {
      long gap = Math.round(-Math.log(1 - rnd.nextDouble()) * meanGapMs);
      long at = t + gap;
      if (at + faultMs > windowMs) {
        return out;
      }
      out.add(new Planned(kinds.get(rnd.nextInt(kinds.size())), at, faultMs));
      t = at + faultMs;
    }
  }
}
