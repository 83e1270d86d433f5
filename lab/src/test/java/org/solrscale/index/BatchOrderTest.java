package org.solrscale.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.solrscale.data.Document;
import org.solrscale.testing.Await;

/** Planted batches taking off from threads of their own, as workers' do. */
class BatchOrderTest {
  private final List<String> flown = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new ArrayList<>();

  /**
   * The ids the order asked about, in the order it asked: it asks when a batch's turn has come
   * (holding its lock), so this is the order in which batches got their turn.
   */
  private final List<String> turns = new CopyOnWriteArrayList<>();

  @AfterEach
  void stopThreads() throws InterruptedException {
    for (Thread t : threads) {
      t.interrupt();
      t.join(10_000);
    }
  }

  /** Ids with a '?' may be in the collection; the others are certainly new. */
  private BatchOrder order() {
    return new BatchOrder(
        e -> {
          turns.add(e.id());
          return e.again();
        });
  }

  private static Batch batch(long seq, String... ids) {
    List<Batch.Entry> entries = new ArrayList<>();
    for (String id : ids) {
      String plain = id.replace("?", "");
      entries.add(
          new Batch.Entry(
              new SolrInputDocument(),
              plain,
              id.endsWith("?"),
              new Document().add("id", plain),
              "f",
              1,
              1));
    }
    return new Batch(seq, entries);
  }

  /** Takes the batch off from a thread of its own; {@link #flown} hears when it did. */
  private Thread takeOff(BatchOrder order, Batch b) {
    Thread t =
        new Thread(
            () -> {
              try {
                order.takeOff(b);
                flown.add("b" + b.seq);
              } catch (InterruptedException e) {
                flown.add("b" + b.seq + " interrupted");
              }
            });
    threads.add(t);
    t.start();
    return t;
  }

  /** Waits for the threads of every batch to end; then these batches have flown, in any order. */
  private void flownAtLast(String... batches) throws InterruptedException {
    for (Thread t : threads) {
      t.join(10_000);
    }
    assertThat(flown).containsExactlyInAnyOrder(batches);
  }

  /** Waits until the thread waits for its turn (or has ended). */
  private static void waiting(Thread t) throws InterruptedException {
    Await.until(
        t.getName() + " waits for its turn",
        Duration.ofSeconds(10),
        () -> !t.isAlive() || t.getState() == Thread.State.WAITING);
  }

  @Test
  void aBatchTakesOffOnlyAfterEveryEarlierOne() throws Exception {
    BatchOrder order = order();
    Thread third = takeOff(order, batch(2, "c"));
    Thread second = takeOff(order, batch(1, "b"));
    waiting(third);
    waiting(second);
    assertThat(flown).isEmpty();
    assertThat(turns).isEmpty();
    order.takeOff(batch(0, "a"));
    flownAtLast("b1", "b2");
    assertThat(turns).containsExactly("a", "b", "c");
  }

  @Test
  void batchesWithNewIdsOrDifferentOnesFlyTogether() throws Exception {
    BatchOrder order = order();
    // none lands: a batch that waited for another to would never take off
    takeOff(order, batch(0, "a?", "b")).join(10_000);
    takeOff(order, batch(1, "b", "c?")).join(10_000); // b is certainly new in both
    takeOff(order, batch(2, "d?", "a")).join(10_000); // a is not looked up in the third
    assertThat(flown).containsExactly("b0", "b1", "b2");
  }

  @Test
  void aBatchSharingAnIdThatMayBeThereWaitsUntilTheBatchHoldingItLanded() throws Exception {
    BatchOrder order = order();
    Batch first = batch(0, "x", "a?");
    order.takeOff(first);
    Thread second = takeOff(order, batch(1, "y", "a?"));
    waiting(second);
    assertThat(flown).isEmpty();
    order.land(first);
    flownAtLast("b1");
  }

  @Test
  void aBatchWaitingForAnIdKeepsTheLaterOnesWaitingForTheirTurn() throws Exception {
    BatchOrder order = order();
    Batch first = batch(0, "a?");
    order.takeOff(first);
    Thread second = takeOff(order, batch(1, "a?"));
    waiting(second);
    Thread third = takeOff(order, batch(2, "b")); // shares nothing, but comes after the second
    waiting(third);
    assertThat(flown).isEmpty();
    assertThat(turns).containsExactly("a", "a"); // the third's turn has not come
    order.land(first);
    flownAtLast("b1", "b2");
    assertThat(turns).containsExactly("a", "a", "b");
  }

  @Test
  void aBatchWhoseTakeOffFailsStillGivesTheNextItsTurn() throws Exception {
    BatchOrder order = order();
    order.takeOff(batch(0, "a?"));
    Thread second = takeOff(order, batch(1, "a?"));
    waiting(second);
    second.interrupt(); // its worker fails while it waits for a's batch to land
    second.join(10_000);
    takeOff(order, batch(2, "b?"));
    flownAtLast("b1 interrupted", "b2");
  }
}
