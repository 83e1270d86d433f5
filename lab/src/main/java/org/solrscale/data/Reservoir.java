package org.solrscale.data;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** A uniform random sample of at most {@code size} items from a stream of unknown length. */
final class Reservoir<T> {
  private final int size;
  private final List<T> items = new ArrayList<>();
  private long offered;

  Reservoir(int size) {
    this.size = size;
  }

  /** Every item offered so far has had the same chance, size/offered, to be kept. */
  void offer(T item, SplittableRandom rnd) {
    offered++;
    if (items.size() < size) {
      items.add(item);
    } else {
      long j = rnd.nextLong(offered);
      if (j < size) {
        items.set((int) j, item);
      }
    }
  }

  List<T> items() {
    return items;
  }

  long offered() {
    return offered;
  }
}
