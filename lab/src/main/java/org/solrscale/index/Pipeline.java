package org.solrscale.index;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.solrscale.spec.SolrscaleException;

/** Runs a load: reader -> bounded queue -> sending workers, with periodic commits and progress. */
final class Pipeline {
  private final IndexOptions options;
  private final BatchReader reader;
  private final BatchOrder order;
  private final BatchSender sender;
  private final Rejects rejects;
  private final Runnable commit;
  private final Consumer<String> warnings;
  private final Consumer<IndexProgress> progress;
  private final long totalBytes;

  /** The backpressure: memory stays bounded whatever the corpus size. */
  private final BlockingQueue<Batch> queue;

  /** The threads sending batches, for the reader to see whether any stopped early. */
  private final List<Future<?>> workers = new CopyOnWriteArrayList<>();

  private final AtomicLong nextCommit = new AtomicLong();

  /** When the load began: made after the counting before it, so its time is the load's. */
  private final long t0 = System.nanoTime();

  /** {@code commit} commits the collection, for {@code --commit every N}. */
  Pipeline(
      IndexOptions options,
      ReplaceLedger ledger,
      BatchSender sender,
      Rejects rejects,
      Runnable commit,
      Consumer<String> warnings,
      Consumer<IndexProgress> progress,
      long totalBytes) {
    this.options = options;
    this.reader = new BatchReader(options, rejects, ledger, this::putOrFail);
    this.order = new BatchOrder(ledger::mayBeThere);
    this.sender = sender;
    this.rejects = rejects;
    this.commit = commit;
    this.warnings = warnings;
    this.progress = progress;
    this.totalBytes = totalBytes;
    this.queue = new ArrayBlockingQueue<>(options.threads() * 2);
    this.nextCommit.set(options.commitEvery() > 0 ? options.commitEvery() : Long.MAX_VALUE);
  }

  /** What the reader read: items, and the inputs it could not read to their end. */
  BatchReader reader() {
    return reader;
  }

  /** Seconds since the pipeline was made. */
  double seconds() {
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Sends the whole input; returns when every worker is done. */
  void load() {
    ExecutorService pool = Executors.newFixedThreadPool(options.threads() + 1);
    try {
      for (int i = 0; i < options.threads(); i++) {
        workers.add(pool.submit(this::work));
      }
      Future<?> reporter = pool.submit(this::report);
      try {
        reader.readAll();
      } finally {
        for (int i = 0; i < options.threads(); i++) {
          if (!put(Batch.END)) {
            break; // no worker left to take it
          }
        }
      }
      for (Future<?> w : workers) {
        await(w);
      }
      reporter.cancel(true);
      progress.accept(snapshot(true));
    } finally {
      pool.shutdownNow();
    }
  }

  private void work() {
    try {
      while (true) {
        Batch taken = queue.take();
        if (taken == Batch.END) {
          return;
        }
        order.takeOff(taken);
        try {
          sender.send(taken.entries);
        } finally {
          order.land(taken);
        }
        maybeCommit();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void maybeCommit() {
    long at = nextCommit.get();
    if (sender.accepted() >= at && nextCommit.compareAndSet(at, at + options.commitEvery())) {
      try {
        commit.run();
      } catch (SolrscaleException e) {
        // a periodic commit failing must not stop a worker; the final commit and count decide
        warnings.accept("warning: " + e.getMessage());
      }
    }
  }

  private void report() {
    try {
      while (true) {
        Thread.sleep(500);
        progress.accept(snapshot(false));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private IndexProgress snapshot(boolean done) {
    return new IndexProgress(
        sender.accepted(), rejects.count(), reader.bytesRead(), totalBytes, seconds(), done);
  }

  /**
   * Queues a batch of documents. A worker stops before the end only on an unexpected failure (out
   * of memory, say); then the run stops with that failure instead of waiting for room in the queue
   * that no worker will make, or going on with fewer workers.
   */
  private void putOrFail(Batch batch) {
    if (!put(batch)) {
      throw SolrscaleException.failed("every worker stopped before the end of the input");
    }
  }

  /**
   * Puts the batch in the queue; false when no worker is left to take it. A worker that stopped
   * with a failure while input was left makes this throw that failure.
   */
  private boolean put(Batch batch) {
    try {
      while (!queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
        boolean anyLeft = false;
        for (Future<?> w : workers) {
          if (!w.isDone()) {
            anyLeft = true;
          } else if (batch != Batch.END) {
            await(w); // throws what stopped it
          }
        }
        if (!anyLeft) {
          return false;
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
  }

  private static void await(Future<?> f) {
    try {
      f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error err) { // out of memory, say: reported as such
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
  }
}
