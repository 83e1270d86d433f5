package org.solrscale.distribute;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;

/**
 * An event-driven simulation of peer-to-peer distribution ({@code distribute --method chain} or
 * {@code tree}) to N replicas, for sizes no lab here reaches (docs/scale.md). What it models, each
 * from a measured figure:
 *
 * <ul>
 *   <li>the relays' start: every relay JVM needs {@code relayStartCpu} CPU-seconds, and all of them
 *       start at once on {@code cores} (a lab's shared cores; a fleet: one host each);
 *   <li>the wire: each host's link carries {@code linkRate} bytes a second each way; a sender's
 *       uplink sends one chunk at a time, to its children in turn (a tree's sender splits it);
 *   <li>each relay's work on a chunk (receive, SHA-256, write, forward): {@code chunkCpu}
 *       CPU-seconds, one chunk at a time per relay, the relays at work sharing {@code cores}
 *       (processor sharing); a relay forwards a chunk once it has verified it;
 *   <li>Solr creating the N cores at once (one ADDREPLICA for all): {@code createSeconds} plus
 *       {@code createCpu} CPU-seconds per core on {@code cores}.
 * </ul>
 *
 * It leaves out what the lab did not show to matter at 16: TCP's slow start, the source's disk,
 * ZooKeeper and the Overseer (at hundreds of cores they may well matter: docs/scale.md).
 */
public final class Simulation {
  private Simulation() {}

  /**
   * What the machine (or fleet) does, measured: see the class comment. {@code cores} is the CPU all
   * relays share ({@code Double.POSITIVE_INFINITY}: each on a host of its own).
   */
  public record Machine(
      double linkRate,
      double chunkCpu,
      double cores,
      double relayStartCpu,
      double createSeconds,
      double createCpu) {

    /** The same with {@code n} cores shared (or each relay on its own: infinity). */
    public Machine withCores(double n) {
      return new Machine(linkRate, chunkCpu, n, relayStartCpu, createSeconds, createCpu);
    }
  }

  /** When, from the start, all relays listened, all data was complete and all cores were active. */
  public record Outcome(double listening, double sourceDone, double dataComplete, double active) {}

  /** One simulated distribution of {@code bytes} in chunks of {@code chunk} to {@code replicas}. */
  public static Outcome run(Machine m, long bytes, int chunk, int replicas, int fanout) {
    if (replicas < 1 || fanout < 1 || chunk < 1 || bytes < 1) {
      throw new IllegalArgumentException("replicas, fanout, chunk and bytes must be positive");
    }
    int chunks = (int) ((bytes + chunk - 1) / chunk);
    double wire = chunk / m.linkRate();
    double listening = replicas * m.relayStartCpu() / Math.min(m.cores(), replicas);
    List<List<Integer>> children = route(replicas, fanout);
    int hosts = replicas + 1; // 0: the leader's host, the source
    Sender[] senders = new Sender[hosts];
    for (int i = 0; i < hosts; i++) {
      senders[i] = new Sender();
    }
    Deque<Integer>[] work = newQueues(hosts); // chunks waiting for their relay's CPU
    double[] remaining = new double[hosts]; // CPU left on the chunk at the head, NaN: idle
    java.util.Arrays.fill(remaining, Double.NaN);
    int[] verified = new int[hosts];
    double[] complete = new double[hosts];
    PriorityQueue<Event> events = new PriorityQueue<>();
    long[] seq = {0};
    for (int j = 0; j < chunks; j++) {
      for (int c : children.get(0)) {
        senders[0].queue.add(new int[] {j, c});
      }
    }
    double now = listening;
    double sourceDone = listening;
    send(0, now, senders, wire, events, seq);
    int active = 0;
    while (!events.isEmpty() || active > 0) {
      double rate = active == 0 ? 0 : Math.min(1.0, m.cores() / active);
      // the next relay to finish its chunk's work, under processor sharing
      int next = -1;
      double nextAt = Double.POSITIVE_INFINITY;
      for (int i = 1; i < hosts && active > 0; i++) {
        if (!Double.isNaN(remaining[i]) && now + remaining[i] / rate < nextAt) {
          nextAt = now + remaining[i] / rate;
          next = i;
        }
      }
      Event e = events.peek();
      double until = e != null && e.at <= nextAt ? e.at : nextAt;
      for (int i = 1; i < hosts && active > 0; i++) {
        if (!Double.isNaN(remaining[i])) {
          remaining[i] -= (until - now) * rate;
        }
      }
      now = until;
      if (e != null && e.at <= nextAt) {
        events.poll();
        if (e.arrives) { // a chunk reached host e.host: its relay works on it in turn
          work[e.host].add(e.chunk);
          if (Double.isNaN(remaining[e.host])) {
            remaining[e.host] = m.chunkCpu();
            active++;
          }
        } else { // host e.host's uplink is free again
          senders[e.host].sending = false;
          if (e.host == 0 && senders[0].queue.isEmpty()) {
            sourceDone = now;
          }
          send(e.host, now, senders, wire, events, seq);
        }
        continue;
      }
      // relay `next` verified the chunk at the head of its queue: forward it to its children
      int j = work[next].poll();
      verified[next]++;
      if (verified[next] == chunks) {
        complete[next] = now;
      }
      for (int c : children.get(next)) {
        senders[next].queue.add(new int[] {j, c});
      }
      send(next, now, senders, wire, events, seq);
      if (work[next].isEmpty()) {
        remaining[next] = Double.NaN;
        active--;
      } else {
        remaining[next] = m.chunkCpu();
      }
    }
    double data = 0;
    for (int i = 1; i < hosts; i++) {
      data = Math.max(data, complete[i]);
    }
    double create = m.createSeconds() + replicas * m.createCpu() / Math.min(m.cores(), replicas);
    return new Outcome(listening, sourceDone, data, data + create);
  }

  /**
   * One measured chain run (distribute.json's phases, seconds from its start): all relays
   * listening, the source done, every relay's data complete, the last replica active.
   */
  public record Measured(
      int replicas, double listening, double sourceDone, double dataComplete, double active) {}

  /**
   * The machine that explains two measured chain runs of {@code bytes} in chunks of {@code chunk}
   * on {@code cores} shared cores: the link rate from the smaller run's source (its one copy), the
   * relays' start CPU from both runs' listening, Solr's core creation from both runs' time from
   * data complete to active (a line in N), and a relay's CPU per chunk by bisection, so that the
   * larger run's data is complete when measured.
   */
  public static Machine calibrate(
      Measured small, Measured large, long bytes, int chunk, double cores) {
    double linkRate = bytes / (small.sourceDone() - small.listening());
    double relayStartCpu =
        (small.listening() * Math.min(cores, small.replicas()) / small.replicas()
                + large.listening() * Math.min(cores, large.replicas()) / large.replicas())
            / 2;
    double perReplica =
        ((large.active() - large.dataComplete()) - (small.active() - small.dataComplete()))
            / (large.replicas() - small.replicas());
    double createSeconds = small.active() - small.dataComplete() - perReplica * small.replicas();
    double createCpu = perReplica * cores;
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 40; i++) {
      double mid = (lo + hi) / 2;
      Machine m = new Machine(linkRate, mid, cores, relayStartCpu, createSeconds, createCpu);
      double data = run(m, bytes, chunk, large.replicas(), 1).dataComplete();
      if (data < large.dataComplete()) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return new Machine(linkRate, (lo + hi) / 2, cores, relayStartCpu, createSeconds, createCpu);
  }

  /** Host i's children, as {@code Route.chain} (fanout 1) and {@code Route.tree} lay them out. */
  static List<List<Integer>> route(int replicas, int fanout) {
    List<List<Integer>> children = new ArrayList<>();
    for (int i = 0; i <= replicas; i++) {
      children.add(new ArrayList<>());
    }
    if (fanout == 1) {
      for (int i = 0; i < replicas; i++) {
        children.get(i).add(i + 1);
      }
      return children;
    }
    // target t (0-based) is host t + 1; the source's children are targets 0..fanout-1, target t's
    // are (t + 1) * fanout + k
    for (int k = 0; k < fanout && k < replicas; k++) {
      children.get(0).add(k + 1);
    }
    for (int t = 0; t < replicas; t++) {
      for (int k = 0; k < fanout; k++) {
        int c = (t + 1) * fanout + k;
        if (c < replicas) {
          children.get(t + 1).add(c + 1);
        }
      }
    }
    return children;
  }

  /** Starts host i's next send if its uplink is free: one chunk, to one child, at the link rate. */
  private static void send(
      int i, double now, Sender[] senders, double wire, PriorityQueue<Event> events, long[] seq) {
    Sender s = senders[i];
    if (s.busy() || s.queue.isEmpty()) {
      return;
    }
    int[] next = s.queue.poll();
    events.add(new Event(now + wire, seq[0]++, true, next[1], next[0]));
    events.add(new Event(now + wire, seq[0]++, false, i, -1));
    s.sending = true;
  }

  @SuppressWarnings("unchecked")
  private static Deque<Integer>[] newQueues(int n) {
    Deque<Integer>[] q = new Deque[n];
    for (int i = 0; i < n; i++) {
      q[i] = new ArrayDeque<>();
    }
    return q;
  }

  private static final class Sender {
    final Deque<int[]> queue = new ArrayDeque<>();
    boolean sending;

    boolean busy() {
      return sending;
    }
  }

  /** A chunk arriving at a host, or a sender's uplink coming free; ties in the order made. */
  private record Event(double at, long seq, boolean arrives, int host, int chunk)
      implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      int c = Double.compare(at, o.at);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }
}
