package org.solrscale.net;

import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.apache.commons.math3.special.Erf;
import org.solrscale.spec.Slowness;

/**
 * Holds each packet of a netfilter queue for the slowness's delay and jitter, or drops it with its
 * loss, then lets it go: what {@code tc netem} does, in user space, for a kernel without netem. One
 * thread reads the queue and schedules; another sleeps until the earliest packet is due and lets
 * every due packet go, in one batch verdict when order is kept. Packets it is not asked to slow
 * never reach it: the iptables rules send it only what crosses the slowed boundary.
 */
public final class Delayer {
  private final NfQueue queue;
  private final Schedule schedule;
  private final Object lock = new Object();
  private final Held held;
  private volatile Thread releaser;
  private volatile boolean stopping;
  private final boolean realtime;
  private volatile String priority = "not started";

  /** The real-time priority the reading and releasing threads ask for (see run). */
  static final int PRIORITY = 10;

  public Delayer(NfQueue queue, Slowness slowness, long seed) {
    this(queue, slowness, seed, true);
  }

  /**
   * With {@code realtime}, the threads that read and let go run at a low real-time priority where
   * the kernel allows it (root; else they stay as they are and {@link #priority} says why): held in
   * user space, a packet would otherwise wait for a core behind every busy thread of the host.
   */
  public Delayer(NfQueue queue, Slowness slowness, long seed, boolean realtime) {
    this.realtime = realtime;
    this.queue = queue;
    this.schedule = new Schedule(slowness, new Random(seed));
    this.held = slowness.reorder() ? new Sorted() : new Ways();
  }

  /**
   * When each packet goes, from when it came: pure, so that it can be tested without a kernel.
   * Returns -1 for a packet to drop.
   *
   * <p>With order kept (the default) the jitter is a smooth function of time, as queueing on a real
   * path is: a fresh normal draw every {@link #knotNanos} (five times the jitter), joined by {@code
   * cos·a + sin·b}, which keeps the variance of a single draw at every moment, so the delay at any
   * instant has exactly the named distribution (normal, or uniform and Pareto through the normal's
   * CDF) while it changes slowly enough (a slope of 0.3 typically) that packets seldom catch up
   * with the one before them; when one would, it waits for it. With {@code reorder} every packet
   * draws on its own, as netem does, and overtakes freely.
   */
  static final class Schedule {
    private final Slowness s;
    private final Random rnd;
    private final long delayNanos;
    private final long knotNanos;
    private final double nanosPerByte;
    private final long queueNanos;
    private final long[] busyUntil = new long[2]; // each way has its own rate: in, out
    private long knotAt = Long.MIN_VALUE;
    private double a;
    private double b;
    private final long[] last = new long[2]; // order is kept each way: in, out

    Schedule(Slowness s, Random rnd) {
      this.s = s;
      this.rnd = rnd;
      this.delayNanos = Math.round(s.delayMs() * 1e6);
      this.knotNanos = Math.max(1_000_000L, Math.round(s.jitterMs() * 5e6));
      this.nanosPerByte = s.rateBitsPerSecond() > 0 ? 8e9 / s.rateBitsPerSecond() : 0;
      this.queueNanos = 100_000_000L;
    }

    long releaseAt(long now) {
      return releaseAt(now, 0, false);
    }

    /**
     * When a packet of {@code bytes} that came at {@code now} goes: at the link's rate (if any) it
     * first waits its turn behind those before it, then its delay; -1 to drop it (lost, or the
     * rate's queue already holds 100 ms).
     */
    long releaseAt(long now, int bytes, boolean outgoing) {
      if (s.loss() > 0 && rnd.nextDouble() < s.loss()) {
        return -1;
      }
      int way = outgoing ? 1 : 0;
      long sent = now;
      if (nanosPerByte > 0) {
        long begin = Math.max(now, busyUntil[way]);
        if (begin - now > queueNanos) {
          return -1;
        }
        busyUntil[way] = begin + Math.round(Math.max(bytes, 1) * nanosPerByte);
        sent = busyUntil[way];
      }
      if (s.reorder()) {
        return sent + Math.max(0, delayNanos + jitterNanos(rnd.nextGaussian()));
      }
      long at = sent + Math.max(0, delayNanos + jitterNanos(smooth(now)));
      at = Math.max(at, last[way]); // never overtakes the packet before it the same way
      last[way] = at;
      return at;
    }

    /** A standard normal that varies smoothly with time. */
    double smooth(long now) {
      if (s.jitterMs() == 0) {
        return 0;
      }
      if (knotAt == Long.MIN_VALUE || now - knotAt > 2 * knotNanos) {
        knotAt = now; // the first packet, or after a quiet spell: start afresh
        a = rnd.nextGaussian();
        b = rnd.nextGaussian();
      }
      while (now - knotAt >= knotNanos) {
        knotAt += knotNanos;
        a = b;
        b = rnd.nextGaussian();
      }
      double f = (double) (now - knotAt) / knotNanos * Math.PI / 2;
      return Math.cos(f) * a + Math.sin(f) * b;
    }

    /** The jitter for standard normal {@code z}, in the named distribution. */
    long jitterNanos(double z) {
      double j = s.jitterMs();
      if (j == 0) {
        return 0;
      }
      double ms =
          switch (s.distribution()) {
            case NORMAL -> z * j;
            case UNIFORM -> (2 * phi(z) - 1) * j;
            case PARETO -> {
              // shape 2.5, scale m: mean a m / (a - 1); the part above m has mean j
              double shape = 2.5;
              double m = j * (shape - 1);
              double u = Math.min(phi(z), 1 - 1e-12);
              yield m / Math.pow(1 - u, 1 / shape) - m;
            }
          };
      return Math.round(ms * 1e6);
    }
  }

  /** The standard normal's CDF. */
  private static double phi(double z) {
    return 0.5 * (1 + Erf.erf(z / Math.sqrt(2)));
  }

  private interface Held {
    void add(long at, long id, boolean outgoing);

    /** The earliest due time, or Long.MAX_VALUE. */
    long next();

    /** Lets go of every packet due by {@code now}. */
    void release(long now, NfQueue q);

    void releaseAll(NfQueue q);
  }

  /**
   * Release times never decrease within a ring: a ring of (time, id). With one ring in use the due
   * packets go in one batch verdict (every id up to the last due one); with both ways in use each
   * gets its own verdict, since a batch would let go the other way's packets that are not due.
   */
  private static final class Fifo {
    private long[] at = new long[4096];
    private long[] ids = new long[4096];
    private int head;
    private int size;

    void add(long t, long id) {
      if (size == at.length) {
        long[] a = new long[at.length * 2];
        long[] b = new long[at.length * 2];
        for (int i = 0; i < size; i++) {
          a[i] = at[(head + i) % at.length];
          b[i] = ids[(head + i) % at.length];
        }
        at = a;
        ids = b;
        head = 0;
      }
      int i = (head + size) % at.length;
      at[i] = t;
      ids[i] = id;
      size++;
    }

    long next() {
      return size == 0 ? Long.MAX_VALUE : at[head];
    }

    void release(long now, NfQueue q, boolean batch) {
      long last = -1;
      while (size > 0 && at[head] <= now) {
        last = ids[head];
        if (!batch) {
          q.verdict(last, NfQueue.ACCEPT);
        }
        head = (head + 1) % at.length;
        size--;
      }
      if (batch && last >= 0) {
        q.acceptUpTo(last);
      }
    }
  }

  /** Each way's ring. */
  private static final class Ways implements Held {
    private final Fifo in = new Fifo();
    private final Fifo out = new Fifo();

    @Override
    public void add(long t, long id, boolean outgoing) {
      (outgoing ? out : in).add(t, id);
    }

    @Override
    public long next() {
      return Math.min(in.next(), out.next());
    }

    @Override
    public void release(long now, NfQueue q) {
      boolean both = in.size > 0 && out.size > 0;
      in.release(now, q, !both);
      out.release(now, q, !both);
    }

    @Override
    public void releaseAll(NfQueue q) {
      release(Long.MAX_VALUE, q);
    }
  }

  /** Release times in any order: a heap, one verdict each. */
  private static final class Sorted implements Held {
    private final PriorityQueue<long[]> heap =
        new PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));

    @Override
    public void add(long t, long id, boolean outgoing) {
      heap.add(new long[] {t, id});
    }

    @Override
    public long next() {
      return heap.isEmpty() ? Long.MAX_VALUE : heap.peek()[0];
    }

    @Override
    public void release(long now, NfQueue q) {
      while (!heap.isEmpty() && heap.peek()[0] <= now) {
        q.verdict(heap.poll()[1], NfQueue.ACCEPT);
      }
    }

    @Override
    public void releaseAll(NfQueue q) {
      release(Long.MAX_VALUE, q);
    }
  }

  /**
   * Reads and holds packets until {@link #stop} or until the calling thread is interrupted (then it
   * lets every held packet go); the caller's thread reads, a daemon releases.
   */
  public void run() {
    run(p -> {});
  }

  /** As {@link #run()}, telling {@code priority} the threads' scheduling once both run. */
  public void run(java.util.function.Consumer<String> priorityTold) {
    String reader = raise();
    Thread r =
        new Thread(
            () -> {
              String why = raise();
              priority =
                  reader == null && why == null
                      ? "real-time " + PRIORITY
                      : "normal (" + (reader != null ? reader : why) + ")";
              priorityTold.accept(priority);
              releaseLoop();
            },
            "delayer-release");
    r.setDaemon(true);
    releaser = r;
    r.start();
    try {
      while (!stopping && !Thread.currentThread().isInterrupted()) {
        if (!queue.receive(this::arrived)) {
          break;
        }
      }
    } finally {
      stop();
    }
  }

  private String raise() {
    return realtime ? NfQueue.raiseThisThread(PRIORITY) : "not asked";
  }

  /** The threads' scheduling once running: "real-time 10", or "normal (why)". */
  public String priority() {
    return priority;
  }

  private void arrived(long id, int bytes, boolean outgoing) {
    long at = schedule.releaseAt(System.nanoTime(), bytes, outgoing);
    if (at < 0) {
      queue.verdict(id, NfQueue.DROP);
      return;
    }
    synchronized (lock) {
      if (stopping) {
        queue.verdict(id, NfQueue.ACCEPT);
        return;
      }
      boolean first = held.next() > at;
      held.add(at, id, outgoing);
      if (first) {
        LockSupport.unpark(releaser);
      }
    }
  }

  private void releaseLoop() {
    while (!stopping) {
      long wait;
      synchronized (lock) {
        long now = System.nanoTime();
        held.release(now, queue);
        long next = held.next();
        wait = next == Long.MAX_VALUE ? 100_000_000L : next - now;
      }
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
    }
  }

  /** Lets every held packet go at once (healing must not drop what was in flight), then stops. */
  public void stop() {
    synchronized (lock) {
      stopping = true;
      held.releaseAll(queue);
    }
  }
}
