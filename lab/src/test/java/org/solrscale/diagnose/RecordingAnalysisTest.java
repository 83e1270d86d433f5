package org.solrscale.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.Diagnosis;

/**
 * The analysis of a real flight recording of this JVM, with a lock planted: threads that queue on
 * one monitor, and others that only wait for work (which is not contention).
 */
class RecordingAnalysisTest {
  /** The planted lock: every worker holds it while it works. */
  static final class HotLock {}

  @TempDir Path dir;

  @Test
  void namesThePlantedMonitorAndNotThreadsWaitingForWork() throws Exception {
    HotLock lock = new HotLock();
    Object idle = new Object();
    Path jfr = dir.resolve("test.jfr");
    Instant start;
    Instant end;
    try (Recording r = new Recording(Configuration.getConfiguration("profile"))) {
      r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ofMillis(1));
      r.enable("jdk.ThreadPark").withThreshold(Duration.ofMillis(1));
      r.start();
      start = Instant.now();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        threads.add(
            new Thread(
                () -> {
                  for (int k = 0; k < 20; k++) {
                    synchronized (lock) {
                      busy(5);
                    }
                  }
                }));
      }
      Thread waiter =
          new Thread(
              () -> {
                synchronized (idle) {
                  try {
                    idle.wait(300); // waiting for work: a monitor wait, not an enter
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }
              });
      threads.add(waiter);
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      end = Instant.now();
      r.stop();
      r.dump(jfr);
    }
    RecordingAnalysis a = RecordingAnalysis.of(jfr, start, end);
    Diagnosis.Node n = a.node("solr1", "profile/solr1.jfr");
    Diagnosis.Lock top = n.locks().get(0);
    assertThat(top.kind()).isEqualTo("monitor");
    assertThat(top.lock()).isEqualTo(HotLock.class.getName());
    assertThat(top.site())
        .isEqualTo(
            "RecordingAnalysisTest.lambda$namesThePlantedMonitorAndNotThreadsWaitingForWork$0");
    assertThat(top.threads()).isBetween(2, 4);
    // 4 threads x 20 turns x 5 ms: each waits for up to three others' turns
    assertThat(top.waitMs()).isGreaterThan(100);
    assertThat(top.share()).isGreaterThan(0.05).isLessThanOrEqualTo(1);
    assertThat(n.locks()).noneMatch(l -> l.lock().equals("java.lang.Object"));
    assertThat(Findings.of(List.of(n), Duration.between(start, end).toMillis() / 1000.0))
        .anyMatch(f -> f.startsWith("solr1: the ") && f.contains("HotLock"));
    assertThat(Files.size(jfr)).isPositive();
  }

  @Test
  void parksOnLocksCountButWaitsForWorkDoNot() {
    assertThat(RecordingAnalysis.isLock("java.util.concurrent.locks.ReentrantLock$FairSync"))
        .isTrue();
    assertThat(
            RecordingAnalysis.isLock(
                "java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync"))
        .isTrue();
    assertThat(RecordingAnalysis.isLock("org.eclipse.jetty.util.thread.AutoLock")).isTrue();
    assertThat(
            RecordingAnalysis.isLock(
                "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject"))
        .isFalse();
    assertThat(RecordingAnalysis.isLock("java.util.concurrent.SynchronousQueue$TransferStack"))
        .isFalse();
    assertThat(RecordingAnalysis.isLock("java.util.concurrent.CountDownLatch$Sync")).isFalse();
  }

  private static void busy(long ms) {
    long until = System.nanoTime() + ms * 1_000_000;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}
