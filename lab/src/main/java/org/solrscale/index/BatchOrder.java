package org.solrscale.index;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Lets batches take off in input order, never two sharing an id that may be there at once. */
final class BatchOrder {
  /** Whether an entry's id may be in the collection already (only those are compared). */
  private final Predicate<Batch.Entry> mayBeThere;

  /** The batches being sent (guarded by itself). */
  private final List<Batch> flying = new ArrayList<>();

  /** The number of the batch to take off next (guarded by {@link #flying}). */
  private long next;

  BatchOrder(Predicate<Batch.Entry> mayBeThere) {
    this.mayBeThere = mayBeThere;
  }

  /**
   * Waits until the batch may be sent: after every earlier batch took off, once no batch being sent
   * holds one of its ids that may be there. Only the batch next in order ever waits, and only for
   * batches being sent, which hold no lock, so nothing waits in a circle. A batch of new ids costs
   * no set of ids at all. So a batch's look-up sees every earlier document with its ids, none is
   * counted twice, and the input's last version of an id is the one that stays.
   */
  void takeOff(Batch batch) throws InterruptedException {
    synchronized (flying) {
      while (batch.seq != next) {
        flying.wait();
      }
      try {
        List<String> ids = batch.entries.stream().filter(mayBeThere).map(Batch.Entry::id).toList();
        while (sharesAnId(ids)) {
          flying.wait();
        }
        flying.add(batch);
      } finally {
        // its turn is over even when it fails here (its worker, and so the run, fails with that):
        // the batches after it take theirs, so no worker waits for this one for ever
        next++;
        flying.notifyAll();
      }
    }
  }

  /** The batch has been sent: batches waiting for its ids may take off. */
  void land(Batch batch) {
    synchronized (flying) {
      flying.remove(batch);
      flying.notifyAll();
    }
  }

  /** Whether a batch being sent holds one of these ids (the caller holds the lock). */
  private boolean sharesAnId(List<String> ids) {
    if (ids.isEmpty()) {
      return false;
    }
    for (Batch other : flying) {
      Set<String> theirs = other.ids();
      for (String id : ids) {
        if (theirs.contains(id)) {
          return true;
        }
      }
    }
    return false;
  }
}
