package org.solrscale.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.LiveStatus;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.ProcessState;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.cluster.ShardStatus;
import org.solrscale.cluster.SolrAdmin;
import org.solrscale.cluster.SolrHttp;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.JsonLines;
import org.solrscale.results.LinkFault;
import org.solrscale.spec.Durations;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * Injects faults into a running cluster on a schedule (each {@code at} after the step started,
 * healed after its {@code duration}), one thread per fault so they may overlap. Every fault is
 * healed before {@link #finish} returns, even when the step ended first. Faults append their start
 * and end to the history when there is one.
 */
public final class FaultRunner {
  static final Duration HEAL_TIMEOUT = Duration.ofMinutes(5);

  private final Cluster cluster;
  private final String collection;
  private final Set<String> recovering = ConcurrentHashMap.newKeySet(); // also awaited healthy
  private final History history;
  private final Consumer<String> progress;
  private final Set<String> down = ConcurrentHashMap.newKeySet();
  private final List<FaultRecord> records = Collections.synchronizedList(new ArrayList<>());
  private final List<Thread> threads = new ArrayList<>();
  private final CountDownLatch stopping = new CountDownLatch(1);
  private final SolrHttp http;
  private String howUnsafe = Targets.SCENARIO_UNSAFE;
  private long t0;

  public FaultRunner(
      Cluster cluster, String collection, History history, Consumer<String> progress) {
    this.cluster = cluster;
    this.http = new SolrHttp(cluster.access());
    this.collection = collection;
    this.history = history;
    this.progress = progress;
  }

  /**
   * A collection whose replicas must be active too before a fault counts as recovered (the one the
   * workload writes into, when it is not the one the faults target).
   */
  void alsoAwait(String other) {
    if (other != null && !other.equals(collection)) {
      recovering.add(other);
    }
  }

  /**
   * Says the way to let an unsafe fault through as the command line does ({@code --unsafe}) in its
   * refusals, instead of as a scenario does ({@code unsafe: true}).
   */
  public FaultRunner onCommandLine() {
    howUnsafe = Targets.CLI_UNSAFE;
    return this;
  }

  /**
   * Refuses, before any load starts, a fault that the cluster as it is now already tells will not
   * be injected: one the safety rules refuse, or a target that names no node, shard or host. A
   * target that names nothing only at this moment (a shard between leaders, an unknown overseer) is
   * left to be resolved when the fault fires. A monkey is refused when every kind it may draw is.
   */
  public void preflight(List<StepSpec.Fault> faults) {
    preflight(faults, topology(), howUnsafe);
  }

  /** {@link #preflight(List)} on topology {@code t}; refusals name the fix as {@code howUnsafe}. */
  static void preflight(List<StepSpec.Fault> faults, Topology t, String howUnsafe) {
    for (StepSpec.Fault f : faults) {
      validate(f);
      FaultAction action = FaultActions.of(f.fault());
      if (action instanceof NodeFault node) {
        String why = refusal(node, f.target(), t, f, howUnsafe);
        if (why != null) {
          throw SolrscaleException.usage("fault '" + f.name() + "': " + why);
        }
      } else if (action instanceof MonkeyFault) {
        List<String> whys = new ArrayList<>();
        for (String kind : f.faults()) {
          FaultAction a = FaultActions.of(kind);
          whys.add(
              a instanceof NodeFault node
                  ? refusal(node, "random", t, f, howUnsafe)
                  : "the monkey cannot draw " + kind);
        }
        if (!whys.isEmpty() && whys.stream().allMatch(w -> w != null)) {
          throw SolrscaleException.usage(
              "fault '"
                  + f.name()
                  + "': every fault the monkey may draw is refused: "
                  + whys.get(0));
        }
      }
    }
  }

  /** Why {@code node} at {@code target} would not be injected now, or null (it may be). */
  private static String refusal(
      NodeFault node, String target, Topology t, StepSpec.Fault f, String howUnsafe) {
    try {
      if (node.kind().inherentlyUnsafe()
          && !f.unsafe()
          && FaultActions.of(f.fault()) instanceof MonkeyFault) {
        return "a monkey's " + node.kind().id() + " needs " + fix(howUnsafe);
      }
      Targets.resolve(node, target, t, Set.of(), new Random(f.seed()), f.unsafe());
      return null;
    } catch (Targets.NoTarget e) {
      return e.onlyNow() ? null : e.say(howUnsafe);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  /** The way to let an unsafe fault through, in the words of where the fault was written. */
  String unsafeFix() {
    return fix(howUnsafe);
  }

  private static String fix(String howUnsafe) {
    return howUnsafe.equals(Targets.CLI_UNSAFE) ? "--unsafe" : "unsafe: true";
  }

  /** Checks every fault's fields before anything runs (a bad duration must not surface mid-run). */
  public static void validate(StepSpec.Fault f) {
    String problem = f.problem();
    if (problem != null) {
      throw SolrscaleException.usage("fault '" + f.name() + "': " + problem);
    }
  }

  /** Starts the faults' clock now. */
  public void start(List<StepSpec.Fault> faults) {
    start(faults, System.nanoTime());
  }

  /** Starts the faults, their offsets counting from {@code t0Nanos} (a System.nanoTime()). */
  public void start(List<StepSpec.Fault> faults, long t0Nanos) {
    t0 = t0Nanos;
    for (StepSpec.Fault f : faults) {
      validate(f);
      Thread t = new Thread(() -> runScheduled(f), "fault-" + f.name());
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  /** Seconds since {@link #start}. */
  double now() {
    return (System.nanoTime() - t0) / 1e9;
  }

  /**
   * Waits until every fault has run its course by itself; false if some still lasts after {@code
   * ms}.
   */
  public boolean awaitDone(long ms) {
    long deadline = System.currentTimeMillis() + ms;
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, deadline - System.currentTimeMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return threads.stream().noneMatch(Thread::isAlive);
  }

  /**
   * Ends every fault (healing at once those still injected), waits for them, returns what they did.
   */
  public List<FaultRecord> finish() {
    stopping.countDown();
    for (Thread t : threads) {
      try {
        t.join(HEAL_TIMEOUT.toMillis() * 2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw SolrscaleException.failed("interrupted while healing faults");
      }
    }
    List<FaultRecord> out = new ArrayList<>(records);
    out.sort(
        (a, b) ->
            Double.compare(
                a.startS() == null ? Double.MAX_VALUE : a.startS(),
                b.startS() == null ? Double.MAX_VALUE : b.startS()));
    return out;
  }

  /** Sleeps until {@code seconds} after the start; false when the step ended first. */
  boolean awaitUntil(double seconds) {
    long waitMs = Math.round((seconds - now()) * 1000);
    try {
      return waitMs <= 0 ? stopping.getCount() > 0 : !stopping.await(waitMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void runScheduled(StepSpec.Fault f) {
    double at = Durations.parse(f.at()).toMillis() / 1000.0;
    if (!awaitUntil(at)) {
      notInjected(f.name(), f.fault(), f.target(), "the step ended before " + f.at());
      return;
    }
    FaultActions.of(f.fault()).run(this, f, at);
  }

  /** Records a fault that was not injected, and why. */
  void notInjected(String name, String kind, String target, String why) {
    records.add(
        new FaultRecord(
            name, kind, target, List.of(), null, null, null, null, "not injected: " + why));
  }

  /** Injects one fault, holds it for {@code durationMs} (or until the step ends), heals it. */
  void inject(
      String name, NodeFault action, String target, long durationMs, Random rnd, boolean unsafe) {
    String kind = action.kind().id();
    List<String> nodes;
    try {
      nodes = Targets.resolve(action, target, topology(), down, rnd, unsafe);
    } catch (Targets.NoTarget e) {
      String why =
          e.safety()
              ? "refused by a safety rule: " + e.say(howUnsafe)
              : String.format(Locale.ROOT, "no target at %.1f s: %s", now(), e.getMessage());
      progress.accept("fault " + name + " not injected: " + why);
      notInjected(name, kind, target, why);
      return;
    } catch (IllegalArgumentException | SolrscaleException e) {
      String why = String.format(Locale.ROOT, "no target at %.1f s: %s", now(), e.getMessage());
      progress.accept("fault " + name + " not injected: " + why);
      notInjected(name, kind, target, why);
      return;
    }
    if (action.takesDown()) {
      down.addAll(nodes);
    }
    double start = now();
    event(name, start, "start", kind, target, nodes);
    progress.accept(String.format("%.1f s: %s %s", start, kind, String.join(",", nodes)));
    String note = null;
    double heal;
    Double injectSeconds = null;
    Double healSeconds = null;
    LinkFault[] link = {null};
    Thread probe = null;
    try {
      action.inject(cluster, nodes, HEAL_TIMEOUT);
      injectSeconds = now() - start;
      if (action.measures()) {
        // an independent probe across the slowed link while it holds, fit into the duration
        double seconds = Math.max(1, Math.min(5, durationMs / 1000.0 - 3));
        probe = new Thread(() -> link[0] = measure(name, action, seconds), "probe-" + name);
        probe.setDaemon(true);
        probe.start();
      }
      if (action.holds()) {
        if (!awaitUntil(start + durationMs / 1000.0)) {
          note = "healed early: the step ended";
        }
        if (probe != null) {
          Thread p = probe;
          Interruption.cleanUp(() -> join(p));
        }
        heal = now();
        event(name, heal, "heal", kind, target, nodes);
        action.heal(cluster, nodes, HEAL_TIMEOUT);
        healSeconds = now() - heal;
      } else {
        heal = now();
      }
    } catch (SolrscaleException e) {
      heal = now();
      note = "failed: " + e.getMessage().lines().findFirst().orElse("");
      progress.accept("fault " + name + " " + note);
    } finally {
      if (action.takesDown()) {
        down.removeAll(nodes);
      }
    }
    Double recovery = awaitRecovered() ? now() - heal : null;
    if (recovery == null) {
      note =
          (note == null ? "" : note + "; ")
              + "not recovered within "
              + HEAL_TIMEOUT.toMinutes()
              + " min";
    }
    event(name, now(), "end", kind, target, nodes);
    progress.accept(
        String.format(
            "%.1f s: %s %s healed, recovered in %s",
            now(),
            kind,
            String.join(",", nodes),
            recovery == null ? "-" : String.format("%.1f s", recovery)));
    if (link[0] != null) {
      progress.accept("fault " + name + ": " + link[0].describe());
    }
    records.add(
        new FaultRecord(
            name,
            kind,
            target,
            nodes,
            start,
            heal,
            now(),
            recovery,
            note,
            link[0],
            injectSeconds,
            healSeconds));
  }

  private LinkFault measure(String name, NodeFault action, double seconds) {
    try {
      LinkFault l = action.measure(cluster, seconds);
      if (l != null) {
        event(name, now(), "measured", action.kind().id(), l.describe(), l.hosts());
      }
      return l;
    } catch (SolrscaleException e) {
      progress.accept("fault " + name + ": the link probe failed: " + e.getMessage());
      return null;
    }
  }

  private static void join(Thread t) {
    try {
      t.join(120_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Also appends each fault's start, heal, end and measurement as it happens to {@code file} (one
   * JSON object a line, with its wall-clock time), for the live view.
   */
  public FaultRunner recordEventsTo(Path file) {
    this.events = file;
    return this;
  }

  private Path events;

  private void event(
      String name, double t, String phase, String kind, String target, List<String> nodes) {
    if (events != null) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("at_ms", System.currentTimeMillis() - Math.round((now() - t) * 1000));
      line.put("phase", phase);
      line.put("name", name);
      line.put("fault", kind);
      line.put("target", target);
      line.put("nodes", nodes);
      synchronized (this) {
        try {
          JsonLines.append(events, line);
        } catch (IOException e) {
          progress.accept("warning: cannot write " + events + ": " + e.getMessage());
        }
      }
    }
    if (history != null) {
      history.append(
          new HistoryEvent(
              Math.round(t * 1000),
              "fault",
              nodes,
              kind + (target == null ? "" : " " + target),
              phase,
              null,
              null,
              null));
    }
  }

  /**
   * Polls until every replica of the collection (and of those also awaited) is active on a live
   * node; false on timeout.
   */
  boolean awaitRecovered() {
    long deadline = System.nanoTime() + HEAL_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        LiveStatus s = liveStatus();
        if (s != null
            && s.collection(collection).map(c -> c.healthy(s.liveNodes())).orElse(true)
            && recovering.stream()
                .allMatch(
                    other -> s.collection(other).map(c -> c.healthy(s.liveNodes())).orElse(true))
            && allSolrRunning()) {
          return true;
        }
      } catch (SolrscaleException e) {
        // a node is still coming up: ask again
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  private boolean allSolrRunning() {
    ClusterState state = cluster.requireState();
    return state.solrNodes().stream()
        .allMatch(n -> down.contains(n.id()) || cluster.hosts().state(n) == ProcessState.RUNNING);
  }

  private LiveStatus liveStatus() {
    ClusterState state = cluster.requireState();
    List<NodeState> running =
        state.solrNodes().stream()
            .filter(n -> !down.contains(n.id()) && cluster.hosts().state(n) == ProcessState.RUNNING)
            .toList();
    if (running.isEmpty()) {
      return null;
    }
    try (SolrAdmin admin = new SolrAdmin(running, state.solrNodes(), cluster.access())) {
      return admin.clusterStatus();
    }
  }

  /** Where every replica, leader and the overseer are now. */
  Topology topology() {
    ClusterState state = cluster.requireState();
    Map<String, List<String>> replicas = new LinkedHashMap<>();
    Map<String, String> leaders = new HashMap<>();
    LiveStatus s = liveStatus();
    if (s != null) {
      for (CollectionStatus c : s.collections()) {
        if (collection != null && !c.name().equals(collection)) {
          continue;
        }
        for (ShardStatus sh : c.shards()) {
          if (!"active".equals(sh.state())) {
            continue;
          }
          String key = collection != null ? sh.name() : c.name() + "/" + sh.name();
          List<String> nodes = new ArrayList<>();
          for (ReplicaStatus r : sh.replicas()) {
            nodes.add(r.nodeId());
            if (r.leader() && s.liveNodes().contains(r.node())) {
              leaders.put(key, r.nodeId());
            }
          }
          replicas.put(key, nodes);
        }
      }
    }
    Map<String, String> hostOf = new HashMap<>();
    for (NodeState n : state.nodes()) {
      if (n.remote()) {
        hostOf.put(n.id(), n.ssh());
      }
    }
    Map<String, Map<String, String>> hostLabels = new HashMap<>();
    state.spec().hosts().forEach(h -> hostLabels.put(h.ssh(), h.labels()));
    return new Topology(
        replicas,
        leaders,
        state.solrNodes().stream().map(NodeState::id).toList(),
        state.zkNodes().stream().map(NodeState::id).toList(),
        overseer(state),
        hostOf,
        hostLabels);
  }

  private String overseer(ClusterState state) {
    for (NodeState n : state.solrNodes()) {
      if (down.contains(n.id())) {
        continue;
      }
      SolrHttp.Reply r =
          http.get(
              n.baseUrl() + "/admin/collections?action=OVERSEERSTATUS&wt=json",
              Duration.ofSeconds(5));
      if (r.ok()) {
        String leader = r.body().path("leader").asText("");
        return state.solrNodes().stream()
            .filter(x -> x.solrNodeName().equals(leader))
            .map(NodeState::id)
            .findFirst()
            .orElse(null);
      }
    }
    return null;
  }
}
