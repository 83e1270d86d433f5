package org.solrscale.live;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The CPU time of a set of threads: those still running, plus those that ended. */
final class CpuMeter {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private final Set<Thread> running = ConcurrentHashMap.newKeySet();
  private final AtomicLong endedNanos = new AtomicLong();

  /** {@code r}, with the CPU time of the thread that runs it counted here. */
  Runnable measured(Runnable r) {
    return () -> {
      running.add(Thread.currentThread());
      try {
        r.run();
      } finally {
        long n = THREADS.getCurrentThreadCpuTime();
        running.remove(Thread.currentThread());
        if (n > 0) {
          endedNanos.addAndGet(n);
        }
      }
    };
  }

  double seconds() {
    long n = endedNanos.get();
    for (Thread t : running) {
      long c = THREADS.getThreadCpuTime(t.getId());
      if (c > 0) {
        n += c;
      }
    }
    return n / 1e9;
  }
}
