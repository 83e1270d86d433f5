package org.solrscale.spec;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Ctrl-C (SIGINT) and SIGTERM, turned into an interrupt of the thread that runs the command, so
 * that the command stops at once and cleans up once, in its own finally blocks (stopping a cluster,
 * healing a fault, recording the repeat as interrupted), while the JVM waits for it. No command
 * tears anything down from a hook of its own any more: two hooks tearing down the same cluster
 * printed everything twice and failed on each other's deletions. (The data commands' {@code
 * Outputs} keeps a hook that only deletes its unfinished output files.) A signal is a process-wide
 * event, hence the one static instance.
 */
public final class Interruption {
  /** How long the JVM waits for the command to clean up before it exits anyway. */
  static final long CLEANUP_SECONDS = 180;

  private static volatile Interruption current;

  private final Thread worker;
  private final Thread hook;
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile boolean signalled;

  private Interruption(Thread worker) {
    this.worker = worker;
    this.hook = new Thread(this::onSignal, "solrscale-interrupt");
  }

  /** Watches for a signal while {@code worker} runs a command; {@link #finished()} ends it. */
  public static Interruption install(Thread worker) {
    Interruption i = new Interruption(worker);
    Runtime.getRuntime().addShutdownHook(i.hook);
    current = i;
    return i;
  }

  /** The command has returned: the JVM may exit, and no later signal interrupts anything. */
  public void finished() {
    finished.countDown();
    if (current == this) {
      current = null;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs now and has been waiting for this
    }
  }

  /** Whether the command was stopped by a signal (then its results are not results). */
  public static boolean signalled() {
    Interruption i = current;
    return i != null && i.signalled;
  }

  /**
   * Runs clean-up work with the interrupt flag cleared (sleeps and waits in it would fail at once
   * otherwise), then sets the flag again if it was set.
   */
  public static void cleanUp(Runnable work) {
    boolean was = Thread.interrupted();
    try {
      work.run();
    } finally {
      if (was) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** {@link #cleanUp} for work that returns something. */
  public static <T> T cleanUpAndGet(Supplier<T> work) {
    Object[] out = new Object[1];
    cleanUp(() -> out[0] = work.get());
    @SuppressWarnings("unchecked")
    T t = (T) out[0];
    return t;
  }

  private void onSignal() {
    signalled = true;
    if (finished.getCount() == 0) {
      return;
    }
    System.err.println();
    System.err.println("solrscale: interrupted; stopping and cleaning up (this can take a minute)");
    worker.interrupt();
    try {
      finished.await(CLEANUP_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
