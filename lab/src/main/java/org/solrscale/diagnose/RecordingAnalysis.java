package org.solrscale.diagnose;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.solrscale.results.Diagnosis;
import org.solrscale.spec.SolrscaleException;

/**
 * Reads one node's flight recording (through {@code jdk.jfr.consumer}) over the step's time and
 * sums what it says: allocation per second (allocation samples' weights), GC pauses, waits on locks
 * by lock and site, CPU samples by method and as a flame tree.
 */
final class RecordingAnalysis {
  private static final int TOP = 10;

  private final Instant start;
  private final int seconds;
  private final double[] allocated;
  private final Map<List<String>, Long> allocations = new HashMap<>();
  private final List<Diagnosis.Pause> pauses = new ArrayList<>();
  private final Map<List<String>, LockSum> locks = new HashMap<>();
  private final Map<String, Long> self = new HashMap<>();
  private final Map<String, Long> total = new HashMap<>();
  private final List<AllocationSample> samples = new ArrayList<>();
  final FlameGraph.Tree flame = new FlameGraph.Tree();
  private long cpuSamples;
  private double lastEventS;

  /** One allocation sample: when (seconds from the start) and the bytes it stands for. */
  record AllocationSample(double t, long bytes) {}

  private RecordingAnalysis(Instant start, Instant end) {
    this.start = start;
    this.seconds = (int) Math.max(1, Math.ceil(Duration.between(start, end).toMillis() / 1000.0));
    this.allocated = new double[seconds];
  }

  /** Reads the recording's events between {@code start} and {@code end}. */
  static RecordingAnalysis of(Path jfr, Instant start, Instant end) {
    RecordingAnalysis a = new RecordingAnalysis(start, end);
    try (RecordingFile f = new RecordingFile(jfr)) {
      while (f.hasMoreEvents()) {
        RecordedEvent e = f.readEvent();
        if (e.getEventType().getName().equals("jdk.ObjectAllocationSample")) {
          a.allocation(e); // all of them: a thread's first one sets its baseline
        } else if (e.getEventType().getName().equals("jdk.ThreadAllocationStatistics")) {
          a.threadTotal(e);
        } else if (e.getEventType().getName().equals("jdk.ThreadStart")) {
          RecordedThread t = e.getThread("thread");
          if (t != null) {
            a.startedDuring.add(t.getJavaThreadId());
          }
        } else if (!e.getEndTime().isBefore(start) && !e.getStartTime().isAfter(end)) {
          a.add(e);
        }
      }
      a.sumAllocations();
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read the recording " + jfr + ": " + e);
    }
    return a;
  }

  private double at(Instant t) {
    return Duration.between(start, t).toNanos() / 1e9;
  }

  private void add(RecordedEvent e) {
    lastEventS = Math.max(lastEventS, at(e.getEndTime()));
    switch (e.getEventType().getName()) {
      case "jdk.GarbageCollection" ->
          pauses.add(
              new Diagnosis.Pause(
                  round(at(e.getStartTime())),
                  round(e.getDuration("sumOfPauses").toNanos() / 1e6),
                  e.getString("name"),
                  e.getString("cause")));
      case "jdk.JavaMonitorEnter" -> lock(e, "monitor", e.getClass("monitorClass"));
      case "jdk.ThreadPark" -> {
        RecordedClass blocker = e.getClass("parkedClass");
        if (blocker != null && isLock(blocker.getName())) {
          lock(e, "lock", blocker);
        }
      }
      case "jdk.ExecutionSample" -> cpu(e);
      default -> {}
    }
  }

  /**
   * A park on a lock, not a wait for work or a result: the JDK's locks (ReentrantLock,
   * ReentrantReadWriteLock, StampedLock) and any blocker outside the JDK. Conditions, queues,
   * latches and futures are threads waiting for something to do, not contention.
   */
  static boolean isLock(String blocker) {
    return blocker.startsWith("java.util.concurrent.locks.ReentrantLock$")
        || blocker.startsWith("java.util.concurrent.locks.ReentrantReadWriteLock$")
        || blocker.startsWith("java.util.concurrent.locks.StampedLock")
        || !(blocker.startsWith("java.")
            || blocker.startsWith("jdk.")
            || blocker.startsWith("sun."));
  }

  /** An allocation sample as read: thread, time, weight, what and where. */
  private record RawAllocation(long thread, double t, long weight, List<String> what) {}

  private final List<RawAllocation> rawAllocations = new ArrayList<>();

  /** Threads that started while the recording ran. */
  private final Set<Long> startedDuring = new HashSet<>();

  /** Per thread: its allocation counter when first and last reported (time, bytes each). */
  private final Map<Long, double[]> counters = new HashMap<>();

  /**
   * Exact total over sampled total: JFR reports each thread's own allocation counter when a
   * recording starts and ends, which gives the total exactly; the samples give its shape in time.
   */
  private double scale = 1;

  private void threadTotal(RecordedEvent e) {
    RecordedThread t = e.getThread("thread");
    if (t == null) {
      return;
    }
    double time = at(e.getStartTime());
    double bytes = e.getLong("allocated");
    double[] c =
        counters.computeIfAbsent(t.getJavaThreadId(), k -> new double[] {time, bytes, time, bytes});
    if (time < c[0]) {
      c[0] = time;
      c[1] = bytes;
    }
    if (time >= c[2]) {
      c[2] = time;
      c[3] = bytes;
    }
  }

  /** What every thread allocated between the recording's start and end, or -1 if not known. */
  private double exactTotal() {
    double total = 0;
    boolean any = false;
    for (Map.Entry<Long, double[]> en : counters.entrySet()) {
      double[] c = en.getValue();
      if (c[2] > c[0]) {
        total += c[3] - c[1];
        any = true;
      } else if (startedDuring.contains(en.getKey())) {
        total += c[3]; // started after the recording did: all of it
        any = true;
      }
    }
    return any ? total : -1;
  }

  private void allocation(RecordedEvent e) {
    RecordedThread thread = e.getThread();
    RecordedClass type = e.getClass("objectClass");
    List<String> frames = frames(e.getStackTrace(), 40);
    rawAllocations.add(
        new RawAllocation(
            thread == null ? -1 : thread.getJavaThreadId(),
            at(e.getStartTime()),
            e.getLong("weight"),
            List.of(type == null ? "?" : type.getName(), shortFrame(appFrame(frames, 0)))));
  }

  /**
   * Sums the allocation samples in time order. JFR weighs a sample by what its thread allocated
   * since its previous sample, or since it started: so the first sample of a thread that ran before
   * the recording also weighs what it allocated before, and only sets where its count begins.
   */
  private void sumAllocations() {
    Set<Long> seen = new HashSet<>();
    rawAllocations.sort(Comparator.comparingDouble(RawAllocation::t));
    for (RawAllocation r : rawAllocations) {
      if (r.thread() >= 0 && seen.add(r.thread()) && !startedDuring.contains(r.thread())) {
        continue;
      }
      if (r.t() < 0 || r.t() > seconds) {
        continue;
      }
      samples.add(new AllocationSample(r.t(), r.weight()));
      int s = (int) Math.floor(r.t());
      if (s < seconds) {
        allocated[s] += r.weight();
      }
      allocations.merge(r.what(), r.weight(), Long::sum);
    }
    rawAllocations.clear();
    double sampled = java.util.Arrays.stream(allocated).sum();
    double exact = exactTotal();
    if (sampled > 0 && exact > 0) {
      scale = exact / sampled;
      for (int s = 0; s < allocated.length; s++) {
        allocated[s] *= scale;
      }
    }
  }

  private void lock(RecordedEvent e, String kind, RecordedClass type) {
    List<String> frames = frames(e.getStackTrace(), 40);
    int site = appIndex(frames, 0);
    String siteName = site < 0 ? null : frames.get(site);
    String from = null;
    if (site >= 0) {
      String cls = className(siteName);
      for (int i = site + 1; i < frames.size() && from == null; i++) {
        if (!isJdk(frames.get(i)) && !className(frames.get(i)).equals(cls)) {
          from = frames.get(i);
        }
      }
    }
    List<String> key =
        List.of(kind, type == null ? "?" : type.getName(), String.valueOf(shortFrame(siteName)));
    LockSum sum = locks.computeIfAbsent(key, k -> new LockSum(seconds));
    sum.from = sum.from == null ? shortFrame(from) : sum.from;
    double startS = at(e.getStartTime());
    double endS = at(e.getEndTime());
    sum.add(e.getThread(), Math.max(0, startS), Math.min(seconds, endS), frames);
  }

  private void cpu(RecordedEvent e) {
    List<String> frames = frames(e.getStackTrace(), Integer.MAX_VALUE);
    if (frames.isEmpty()) {
      return;
    }
    cpuSamples++;
    self.merge(shortFrame(frames.get(0)), 1L, Long::sum);
    Set<String> once = new HashSet<>();
    frames.forEach(f -> once.add(shortFrame(f)));
    once.forEach(f -> total.merge(f, 1L, Long::sum));
    flame.add(frames);
  }

  /** The stack's frames as package.Class.method, innermost first (at most {@code max}). */
  static List<String> frames(RecordedStackTrace trace, int max) {
    if (trace == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (RecordedFrame f : trace.getFrames()) {
      if (out.size() >= max) {
        break;
      }
      if (f.getMethod() == null) {
        continue;
      }
      out.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
    }
    return out;
  }

  /** org.apache.solr.update.UpdateLocks.add -> UpdateLocks.add, keeping nested names (A$B). */
  static String shortFrame(String frame) {
    if (frame == null) {
      return null;
    }
    String cls = className(frame);
    return Diagnosis.simple(cls) + frame.substring(cls.length());
  }

  private static String className(String frame) {
    int dot = frame.lastIndexOf('.');
    return dot < 0 ? frame : frame.substring(0, dot);
  }

  /** A frame of the JDK itself (its locks, collections, strings, threads, reflection). */
  private static boolean isJdk(String frame) {
    return frame.startsWith("java.")
        || frame.startsWith("jdk.")
        || frame.startsWith("sun.")
        || frame.startsWith("com.sun.");
  }

  private static int appIndex(List<String> frames, int from) {
    for (int i = from; i < frames.size(); i++) {
      if (!isJdk(frames.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private static String appFrame(List<String> frames, int from) {
    int i = appIndex(frames, from);
    return i < 0 ? (frames.isEmpty() ? "?" : frames.get(0)) : frames.get(i);
  }

  /** The node's figures (without its GC-log check and flame graph file). */
  Diagnosis.Node node(String id, String recording) {
    List<Double> perSecond = new ArrayList<>();
    int whole = (int) Math.min(seconds, Math.floor(lastEventS));
    for (int s = 0; s < Math.max(1, whole); s++) {
      perSecond.add(round(allocated[s] / 1e6));
    }
    double allocatedTotal = java.util.Arrays.stream(allocated).sum();
    double allocatedMb = allocatedTotal / 1e6;
    List<Diagnosis.Allocation> topAllocations =
        allocations.entrySet().stream()
            .sorted(Map.Entry.<List<String>, Long>comparingByValue().reversed())
            .limit(TOP)
            .map(
                en ->
                    new Diagnosis.Allocation(
                        en.getKey().get(0),
                        en.getKey().get(1),
                        round(en.getValue() * scale / 1e6),
                        round(
                            allocatedTotal == 0
                                ? 0
                                : 100.0 * en.getValue() * scale / allocatedTotal)))
            .toList();
    List<Diagnosis.Lock> lockList =
        locks.entrySet().stream()
            .map(en -> en.getValue().lock(en.getKey()))
            .sorted(Comparator.comparingDouble(Diagnosis.Lock::waitMs).reversed())
            .limit(TOP)
            .toList();
    List<Diagnosis.Method> hot =
        self.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .limit(TOP)
            .map(
                en ->
                    new Diagnosis.Method(
                        en.getKey(),
                        round(100.0 * en.getValue() / cpuSamples),
                        round(100.0 * total.get(en.getKey()) / cpuSamples)))
            .toList();
    return new Diagnosis.Node(
        id,
        recording,
        null,
        round(allocatedMb),
        perSecond,
        null,
        List.copyOf(pauses),
        lockList,
        cpuSamples,
        hot,
        topAllocations);
  }

  /** Allocation samples, in time order, for the GC-log check. */
  List<AllocationSample> samples() {
    return samples.stream()
        .map(a -> new AllocationSample(a.t(), Math.round(a.bytes() * scale)))
        .toList();
  }

  static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /** What waited on one lock at one site. */
  private static final class LockSum {
    final double[] perSecond;
    final Set<Long> threads = new HashSet<>();
    final Map<List<String>, Double> stacks = new HashMap<>();
    String from;
    double waitMs;
    long waits;

    LockSum(int seconds) {
      perSecond = new double[seconds];
    }

    void add(RecordedThread thread, double fromS, double toS, List<String> frames) {
      waits++;
      double ms = Math.max(0, toS - fromS) * 1000;
      waitMs += ms;
      if (thread != null) {
        threads.add(thread.getJavaThreadId());
      }
      stacks.merge(
          frames.subList(0, Math.min(frames.size(), 16)).stream()
              .map(RecordingAnalysis::shortFrame)
              .toList(),
          ms,
          Double::sum);
      for (int s = (int) Math.floor(fromS); s < perSecond.length && s < toS; s++) {
        double overlap = Math.min(toS, s + 1) - Math.max(fromS, s);
        if (overlap > 0) {
          perSecond[s] += overlap * 1000;
        }
      }
    }

    Diagnosis.Lock lock(List<String> key) {
      List<Double> series = new ArrayList<>();
      for (double v : perSecond) {
        series.add(round(v));
      }
      List<String> stack =
          stacks.entrySet().stream()
              .max(Map.Entry.comparingByValue())
              .map(Map.Entry::getKey)
              .orElse(List.of());
      double threadMs = Math.max(1, threads.size()) * perSecond.length * 1000.0;
      return new Diagnosis.Lock(
          key.get(0),
          key.get(1),
          key.get(2).equals("null") ? null : key.get(2),
          from,
          round(waitMs),
          waits,
          threads.size(),
          round(Math.min(1, waitMs / threadMs)),
          series,
          stack);
    }
  }
}
