package org.solrscale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.SolrscaleException;

class ParallelTest {
  @Test
  void mapKeepsOrderAndThrowsTheFirstFailureAsItWas() {
    assertEquals(List.of(2, 4, 6), Parallel.map(List.of(1, 2, 3), i -> i * 2));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Parallel.map(
                    List.of(1, 2),
                    i -> {
                      throw new IllegalArgumentException("item " + i);
                    }));
    assertEquals("item 1", e.getMessage());
  }

  @Test
  void mapToEndLetsEveryTaskFinishWhenTheCallerIsInterruptedAndKeepsTheInterrupt()
      throws Exception {
    CountDownLatch allRunning = new CountDownLatch(3);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<List<String>> results = new AtomicReference<>();
    AtomicBoolean interruptKept = new AtomicBoolean();
    Thread caller =
        new Thread(
            () -> {
              results.set(
                  Parallel.mapToEnd(
                      List.of("a", "b", "c"),
                      s -> {
                        allRunning.countDown();
                        try {
                          release.await();
                        } catch (InterruptedException e) {
                          return "interrupted " + s; // must not happen: workers are left alone
                        }
                        return "started " + s;
                      }));
              interruptKept.set(Thread.currentThread().isInterrupted());
            });
    caller.start();
    assertTrue(allRunning.await(10, TimeUnit.SECONDS));
    caller.interrupt();
    // the caller waits on: its tasks are still running
    caller.join(300);
    assertTrue(caller.isAlive(), "returned before its tasks ended");
    release.countDown();
    caller.join(10_000);
    assertEquals(List.of("started a", "started b", "started c"), results.get());
    assertTrue(interruptKept.get(), "the caller's interrupt was swallowed");
  }

  @Test
  void mapToEndReturnsEveryResultBeforeThrowingTheFirstFailure() {
    AtomicBoolean slowOneEnded = new AtomicBoolean();
    SolrscaleException e =
        assertThrows(
            SolrscaleException.class,
            () ->
                Parallel.mapToEnd(
                    List.of(1, 2),
                    i -> {
                      if (i == 1) {
                        throw SolrscaleException.failed("start of " + i + " failed");
                      }
                      try {
                        Thread.sleep(200); // a task that takes a while: under test
                      } catch (InterruptedException x) {
                        throw new IllegalStateException(x);
                      }
                      slowOneEnded.set(true);
                      return i;
                    }));
    assertEquals("start of 1 failed", e.getMessage());
    assertTrue(slowOneEnded.get(), "threw before the other task ended");
  }
}
