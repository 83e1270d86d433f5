package org.solrscale.diagnose;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.solrscale.results.DoctorReport;
import org.solrscale.results.DoctorReport.Finding;

/**
 * The doctor's checks: each reads {@link DoctorFacts} and says what is a known trap, with its
 * evidence and a one-line fix, at level error (will break or lose data), warning (likely hurts) or
 * info (worth knowing). A fix names what the user can change in the cluster's layout (the cluster
 * spec for one solrscale started, the servers' own files otherwise), and a load-based finding says
 * over what window its figure was taken. Pure functions, so each is tried on planted facts.
 */
public final class DoctorChecks {
  /** Solr's start script warns below this many open files and processes. */
  static final long SOLR_LIMIT = 65000;

  /** Solr's default zkClientTimeout (solr.xml), when a node sets none. */
  static final long DEFAULT_ZK_CLIENT_TIMEOUT_MS = 30000;

  /** A GC pause longer than this stalls requests and can expire a ZooKeeper session. */
  static final double LONG_GC_PAUSE_MS = 1000;

  /** Past this share of the window in collections, a node's requests wait on GC noticeably. */
  static final double GC_SHARE = 0.1;

  /** A host whose sampled CPU is busier than this share is loaded (ZooKeeper waits for a core). */
  static final double LOADED = 0.8;

  private final List<Finding> out = new ArrayList<>();
  private final DoctorFacts.Layout layout;

  private DoctorChecks(DoctorFacts.Layout layout) {
    this.layout = layout == null ? DoctorFacts.Layout.EXTERNAL : layout;
  }

  /** Every finding for these facts, errors first. */
  public static List<Finding> of(DoctorFacts f) {
    DoctorChecks c = new DoctorChecks(f.layout());
    if (f.clusterStateUnread() != null) {
      c.add(
          DoctorReport.ERROR,
          "cluster-state",
          "SolrCloud",
          f.clusterStateUnread()
              + ": Solr cannot read its state from ZooKeeper, so nodes, collections and"
              + " known defects were not checked",
          "bring ZooKeeper back to a quorum the nodes can reach (see the ZooKeeper findings),"
              + " then run the doctor again");
    }
    c.zookeeper(f);
    c.nodes(f);
    c.collections(f);
    c.knownDefects(f);
    List<Finding> sorted = new ArrayList<>();
    for (String level : List.of(DoctorReport.ERROR, DoctorReport.WARNING, DoctorReport.INFO)) {
      c.out.stream().filter(x -> x.level().equals(level)).forEach(sorted::add);
    }
    return sorted;
  }

  private void add(String level, String check, String subject, String evidence, String fix) {
    out.add(new Finding(level, check, subject, evidence, fix));
  }

  /** Whether solrscale laid the cluster out, so that its cluster spec is where a fix goes. */
  private boolean ours() {
    return layout != DoctorFacts.Layout.EXTERNAL;
  }

  private boolean oneMachine() {
    return layout == DoctorFacts.Layout.ONE_MACHINE;
  }

  private void zookeeper(DoctorFacts f) {
    int n = f.zookeeper().size();
    if (n == 0) {
      return;
    }
    String ensemble = "ZooKeeper ensemble";
    if (n % 2 == 0) {
      add(
          DoctorReport.WARNING,
          "zk-even-ensemble",
          ensemble,
          n
              + " servers: a quorum needs "
              + (n / 2 + 1)
              + ", so it survives no more failures than "
              + (n - 1)
              + " would",
          ours()
              ? "run an odd number of ZooKeeper servers: zookeeper: {servers: 3} in the cluster spec"
              : "run an odd number of ZooKeeper servers (3 or 5)");
    } else if (n > 7) {
      add(
          DoctorReport.WARNING,
          "zk-large-ensemble",
          ensemble,
          n + " servers: every write waits for a majority of them",
          ours()
              ? "run 3 or 5: zookeeper: {servers: 5} in the cluster spec"
              : "run 3 or 5 voting servers; add observers for more read capacity");
    } else if (n == 1) {
      add(
          DoctorReport.INFO,
          "zk-single",
          ensemble,
          "1 server: when it stops, SolrCloud can no longer change state or elect leaders",
          switch (layout) {
            case ONE_MACHINE ->
                "expected for a lab on one machine; in production run 3 ZooKeeper"
                    + " servers on separate hosts";
            case HOSTS ->
                "for production run 3: zookeeper: {servers: 3} and 3 hosts that may"
                    + " take zk in the cluster spec";
            case EXTERNAL -> "run 3 ZooKeeper servers on separate hosts for production";
          });
    }
    for (DoctorFacts.Zk zk : f.zookeeper()) {
      if (zk.conf() == null && (zk.roundTripMs() == null || zk.roundTripMs().isEmpty())) {
        // silent to ruok as well: not a whitelist matter, the server is not there
        add(
            DoctorReport.WARNING,
            "zk-unreachable",
            "ZooKeeper " + zk.address(),
            "it answers no four-letter word (conf, ruok) within 3 s from this machine",
            ours()
                ? "check that it runs (solrscale status) and that this machine reaches it"
                : "check that it runs and that this machine reaches " + zk.address());
        continue;
      }
      if (zk.conf() == null) {
        add(
            DoctorReport.INFO,
            "zk-conf-unreadable",
            "ZooKeeper " + zk.address(),
            "it answers, but not the four-letter word conf (outside 4lw.commands.whitelist?)",
            "allow it: 4lw.commands.whitelist=mntr,conf,ruok in zoo.cfg");
        continue;
      }
      if (n > 1) { // a standalone server has no followers: syncLimit and initLimit do not apply
        limits(zk);
      }
      sessionTimeout(f, zk);
      sharedHost(f, zk);
    }
  }

  /**
   * The doctor's level for a ZooKeeper limit ({@code syncLimit} or {@code initLimit} x tickTime,
   * ms) against the longest round trip between the servers (ms): an error below one round trip (the
   * leader drops such a follower), a warning below 2 s or 20 round trips (a follower's GC pause or
   * slow disk then drops it), else null. The report sets it against what ZooKeeper did.
   */
  public static String limitLevel(long limitMs, double roundTripMs) {
    if (limitMs < roundTripMs) {
      return DoctorReport.ERROR;
    }
    return limitMs < Math.max(2000, 20 * roundTripMs) ? DoctorReport.WARNING : null;
  }

  /** tickTime x syncLimit and x initLimit against the round trips measured to the server. */
  private void limits(DoctorFacts.Zk zk) {
    Long tick = zk.confLong("tickTime");
    if (tick == null) {
      return;
    }
    // what a follower syncs over is the way between servers; this machine's way to one is a
    // stand-in only when those were not measured (a cluster solrscale did not start on hosts)
    double here = zk.maxRoundTripMs();
    double peers = zk.maxPeerRoundTripMs();
    double rtt = Math.max(here, peers);
    String where =
        peers >= here
            ? "longest round trip measured between this server's host and the others"
            : "longest round trip measured from this machine";
    for (String limit : List.of("syncLimit", "initLimit")) {
      Long ticks = zk.confLong(limit);
      if (ticks == null) {
        continue;
      }
      long ms = ticks * tick;
      String evidence =
          String.format(
              Locale.ROOT,
              "tickTime %d ms x %s %d = %,d ms; %s %.1f ms",
              tick,
              limit,
              ticks,
              ms,
              where,
              rtt);
      String key = limit.equals("syncLimit") ? "sync_limit" : "init_limit";
      String fix =
          (ours()
                  ? "raise zookeeper: {" + key + ": N} (or tick_time) in the cluster spec so that "
                  : "raise " + limit + " (or tickTime) in zoo.cfg so that ")
              + limit
              + " x tickTime is at least "
              + Math.max(10000, Math.round(20 * rtt))
              + " ms";
      // ZooKeeper's leader drops a follower whose acknowledgement of a ping or proposal comes
      // later than limit x tickTime, so the limit below one round trip is what cannot work.
      // (Until 2026-11-29 this said twice the round trip; SlowNetIT measured 3 servers at
      // tickTime 500 x syncLimit 2 = 1 s: at a 600 ms round trip the follower stayed in sync for
      // 15 s, at 1.4 s it was dropped within a second; docs/findings/zk-wan.md)
      String level = limitLevel(ms, rtt);
      if (DoctorReport.ERROR.equals(level)) {
        add(
            DoctorReport.ERROR,
            "zk-" + limit,
            "ZooKeeper " + zk.address(),
            evidence + ": a follower cannot keep up within it",
            fix);
      } else if (DoctorReport.WARNING.equals(level)) {
        add(
            DoctorReport.WARNING,
            "zk-" + limit,
            "ZooKeeper " + zk.address(),
            evidence + ": a GC pause or a slow disk on a follower drops it from the quorum",
            fix);
      }
    }
  }

  /** zkClientTimeout of each node against the session timeouts the server allows. */
  private void sessionTimeout(DoctorFacts f, DoctorFacts.Zk zk) {
    Long tick = zk.confLong("tickTime");
    Long min = zk.confLong("minSessionTimeout");
    Long max = zk.confLong("maxSessionTimeout");
    if (tick == null) {
      return;
    }
    long lo = min != null && min > 0 ? min : 2 * tick;
    long hi = max != null && max > 0 ? max : 20 * tick;
    Map<Long, List<String>> byTimeout = new LinkedHashMap<>();
    for (DoctorFacts.Node n : f.nodes()) {
      long t = n.zkClientTimeoutMs() == null ? DEFAULT_ZK_CLIENT_TIMEOUT_MS : n.zkClientTimeoutMs();
      byTimeout.computeIfAbsent(t, k -> new ArrayList<>()).add(n.name());
    }
    byTimeout.forEach(
        (t, nodes) -> {
          if (t < lo || t > hi) {
            long negotiated = Math.max(lo, Math.min(hi, t));
            add(
                DoctorReport.WARNING,
                "zk-session-timeout",
                "ZooKeeper " + zk.address(),
                String.format(
                    Locale.ROOT,
                    "zkClientTimeout %,d ms of %s is outside the server's %,d..%,d ms (tickTime %d"
                        + " ms), so the session gets %,d ms",
                    t,
                    String.join(", ", nodes),
                    lo,
                    hi,
                    tick,
                    negotiated),
                sessionFix(t, lo, hi));
          }
        });
  }

  /** solrscale's tickTime caps sessions at 20 ticks (it writes no maxSessionTimeout). */
  private String sessionFix(long t, long lo, long hi) {
    if (t > hi) {
      return ours()
          ? "raise zookeeper: {tick_time: "
              + (t + 19) / 20
              + "} in the cluster spec, or lower zkClientTimeout (jvm_args: [-DzkClientTimeout="
              + hi
              + "])"
          : "raise tickTime or maxSessionTimeout in zoo.cfg to at least "
              + t
              + " ms, or lower zkClientTimeout";
    }
    return ours()
        ? "raise zkClientTimeout: jvm_args: [-DzkClientTimeout=" + lo + "] in the cluster spec"
        : "raise zkClientTimeout to at least " + lo + " ms";
  }

  /**
   * ZooKeeper beside Solr nodes: a warning only when the host was busy in the doctor's window (a
   * 1-minute load average still carries the bench that ran before), and on one machine solrscale
   * laid out, sharing is the layout itself, so the fix is for real hosts.
   */
  private void sharedHost(DoctorFacts f, DoctorFacts.Zk zk) {
    List<DoctorFacts.Node> beside =
        f.nodes().stream().filter(n -> n.host() != null && n.host().equals(zk.host())).toList();
    if (beside.isEmpty()) {
      return;
    }
    Load load = load(f, beside);
    boolean loaded = load != null && load.loaded();
    boolean allHere =
        f.nodes().stream().allMatch(n -> zk.host().equals(n.host()))
            && f.zookeeper().stream().allMatch(z -> zk.host().equals(z.host()));
    String evidence =
        "shares host "
            + zk.host()
            + " with "
            + beside.size()
            + " Solr node(s)"
            + (oneMachine()
                ? ", as every node of a cluster solrscale runs on one machine does"
                : "")
            + (load == null ? "" : "; " + load.evidence());
    String fix =
        switch (layout) {
          case ONE_MACHINE ->
              (loaded
                      ? "expected on one machine, but ZooKeeper's heartbeats wait for CPU here: if"
                          + " sessions expire, leave it cores (fewer Solr nodes or less load)"
                      : "nothing to do on one machine, where sharing is expected")
                  + "; on real hosts give ZooKeeper hosts of its own (hosts: with roles: [zk])";
          case HOSTS ->
              allHere
                  ? "every node runs on this one host: add hosts to the cluster spec, roles: [zk]"
                      + " on some, roles: [solr] on the others"
                  : "give ZooKeeper hosts of its own: roles: [zk] on some hosts of the cluster"
                      + " spec, roles: [solr] on the others";
          case EXTERNAL ->
              allHere
                  ? "expected when every node runs on one host (a test setup); in production give"
                      + " ZooKeeper hosts of its own"
                  : "give ZooKeeper hosts of its own (Solr's CPU and GC delay its heartbeats)";
        };
    add(
        loaded ? DoctorReport.WARNING : DoctorReport.INFO,
        "zk-shares-host",
        "ZooKeeper " + zk.address(),
        evidence,
        fix);
  }

  /** How busy a host was, in words that say over what, and whether that is loaded. */
  record Load(boolean loaded, String evidence) {}

  /**
   * The host's CPU over the doctor's window (this machine's /proc/stat), else the CPU its Solr
   * nodes used over it; without a window only the 1-minute load average, said as such and not
   * judged, since it includes whatever ran before the doctor started.
   */
  static Load load(DoctorFacts f, List<DoctorFacts.Node> onHost) {
    DoctorFacts.Node any = onHost.get(0);
    String average =
        any.loadAverage() == null || any.loadAverage() < 0
            ? ""
            : String.format(
                Locale.ROOT,
                "1-minute load average %.1f on %d cores, which includes the minute before the"
                    + " doctor started",
                any.loadAverage(),
                any.processors() == null ? 0 : any.processors());
    String window =
        String.format(Locale.ROOT, "over the doctor's %.1f s window", f.windowSeconds());
    Double busy =
        onHost.stream()
            .map(DoctorFacts.Node::window)
            .filter(w -> w != null && w.hostCpuBusyPercent() != null)
            .map(DoctorFacts.Window::hostCpuBusyPercent)
            .findFirst()
            .orElse(null);
    if (f.sampled() && busy != null) {
      return new Load(
          busy > 100 * LOADED,
          String.format(Locale.ROOT, "this machine's CPU %.0f %% busy %s", busy, window)
              + (average.isEmpty() ? "" : " (" + average + ")"));
    }
    List<DoctorFacts.Window> used =
        onHost.stream()
            .map(DoctorFacts.Node::window)
            .filter(w -> w != null && w.cpuCores() != null)
            .toList();
    if (f.sampled() && !used.isEmpty() && any.processors() != null && any.processors() > 0) {
      double cores = used.stream().mapToDouble(DoctorFacts.Window::cpuCores).sum();
      return new Load(
          cores > LOADED * any.processors(),
          String.format(
                  Locale.ROOT,
                  "its Solr node(s) used %.1f of %d cores %s",
                  cores,
                  any.processors(),
                  window)
              + (average.isEmpty() ? "" : " (" + average + ")"));
    }
    return average.isEmpty() ? null : new Load(false, average + "; not sampled (--window 0)");
  }

  private void nodes(DoctorFacts f) {
    String w = f.sampled() ? String.format(Locale.ROOT, "%.1f s", f.windowSeconds()) : null;
    Map<String, List<DoctorFacts.Node>> byHost = new LinkedHashMap<>();
    for (DoctorFacts.Node n : f.nodes()) {
      byHost.computeIfAbsent(n.host(), k -> new ArrayList<>()).add(n);
    }
    byHost.forEach(this::memory);
    for (DoctorFacts.Node n : f.nodes()) {
      if (n.maxOpenFiles() != null && n.maxOpenFiles() < SOLR_LIMIT) {
        add(
            DoctorReport.WARNING,
            "node-open-files",
            n.name(),
            "open-file limit "
                + n.maxOpenFiles()
                + " (Solr's start script asks for "
                + SOLR_LIMIT
                + ")",
            limitFix("ulimit -n", "LimitNOFILE= in a systemd unit"));
      }
      if (n.maxProcesses() != null && n.maxProcesses() < SOLR_LIMIT) {
        add(
            DoctorReport.WARNING,
            "node-processes",
            n.name(),
            "process limit "
                + n.maxProcesses()
                + " (Solr's start script asks for "
                + SOLR_LIMIT
                + ")",
            limitFix("ulimit -u", "LimitNPROC= in a systemd unit"));
      }
      gcTime(f, n);
      if (n.longestGcPauseMs() != null && n.longestGcPauseMs() > LONG_GC_PAUSE_MS) {
        add(
            DoctorReport.WARNING,
            "node-gc-pause",
            n.name(),
            String.format(
                    Locale.ROOT,
                    "a GC pause of %,.0f ms in %s: requests stall, and past zkClientTimeout the"
                        + " node loses its ZooKeeper session",
                    n.longestGcPauseMs(),
                    n.gcLog())
                + (w == null || n.window() == null || n.window().gcCount() == null
                    ? ""
                    : String.format(
                        Locale.ROOT,
                        "; over the doctor's %s window: %d collection(s), %,d ms",
                        w,
                        n.window().gcCount(),
                        n.window().gcMs())),
            (ours()
                    ? "give the heap more room (heap: in the cluster spec)"
                    : "give the heap more room")
                + " or fewer caches; a run's or index's --profile shows what allocates");
      }
    }
  }

  /** For a cluster solrscale started: the collection property its default configset reads. */
  private String property(String setting) {
    return ours()
        ? " (solrscale's default configset reads properties: {"
            + setting
            + "} of the collection in the cluster spec)"
        : "";
  }

  /** Time in collections over the doctor's window: GC now, on any node, GC log or not. */
  private void gcTime(DoctorFacts f, DoctorFacts.Node n) {
    if (!f.sampled() || n.window() == null || n.window().gcMs() == null) {
      return;
    }
    double share = n.window().gcMs() / (1000 * f.windowSeconds());
    if (share > GC_SHARE) {
      add(
          DoctorReport.WARNING,
          "node-gc-time",
          n.name(),
          String.format(
              Locale.ROOT,
              "%,d ms of the doctor's %.1f s window in %d collection(s) (%.0f %%): requests wait"
                  + " while it collects",
              n.window().gcMs(),
              f.windowSeconds(),
              n.window().gcCount(),
              100 * share),
          (ours()
                  ? "give the heap more room (heap: in the cluster spec)"
                  : "give the heap more room")
              + " or fewer caches, or lower the load; a run's or index's --profile shows what"
              + " allocates");
    }
  }

  /** Where a process limit is raised, for whoever starts the nodes. */
  private String limitFix(String ulimit, String systemd) {
    String to = "raise it to " + SOLR_LIMIT + " or more ";
    return switch (layout) {
      case ONE_MACHINE ->
          to
              + "in the shell that starts the nodes ("
              + ulimit
              + " "
              + SOLR_LIMIT
              + ", within the hard limit of /etc/security/limits.conf), then solrscale node restart";
      case HOSTS ->
          to
              + "for the SSH user on each host (/etc/security/limits.conf), then solrscale node"
              + " restart";
      case EXTERNAL -> to + "(" + ulimit + ", " + systemd + ")";
    };
  }

  /** Heaps against the host's memory, and the index against what is left for the page cache. */
  private void memory(String host, List<DoctorFacts.Node> nodes) {
    DoctorFacts.Node first = nodes.get(0);
    if (first.physicalBytes() == null) {
      return;
    }
    long ram = first.physicalBytes();
    long heaps =
        nodes.stream().mapToLong(n -> n.heapMaxBytes() == null ? 0 : n.heapMaxBytes()).sum();
    long index = nodes.stream().mapToLong(n -> n.indexBytes() == null ? 0 : n.indexBytes()).sum();
    String subject = "host " + host;
    String evidence =
        String.format(
            Locale.ROOT,
            "%d Solr node(s) with %s of heap on %s of memory; %s of index",
            nodes.size(),
            gb(heaps),
            gb(ram),
            gb(index));
    if (heaps > 0.9 * ram) {
      add(
          DoctorReport.ERROR,
          "node-heap-memory",
          subject,
          evidence + ": nothing is left for the OS and the page cache; the kernel may kill a node",
          (ours() ? "lower the heaps (heap: in the cluster spec)" : "lower the heaps")
              + (oneMachine()
                  ? " or run fewer nodes on this machine"
                  : " or run fewer nodes per host")
              + ", keeping half the memory for the page cache");
    } else if (heaps > 0.6 * ram) {
      add(
          DoctorReport.WARNING,
          "node-heap-memory",
          subject,
          evidence + ": little is left for the page cache the index is read through",
          ours()
              ? "keep heaps under half the host's memory (heap: in the cluster spec)"
              : "keep heaps under half the host's memory");
    }
    long cache = ram - heaps;
    if (index > cache && index > 0) {
      add(
          DoctorReport.WARNING,
          "node-page-cache",
          subject,
          evidence
              + ": the index does not fit in the "
              + gb(Math.max(0, cache))
              + " left for the page cache, so searches read from disk",
          switch (layout) {
            // more nodes on the one machine share the same memory: no help there
            case ONE_MACHINE ->
                "lower the heaps (heap: in the cluster spec) or index less here;"
                    + " on real hosts spread the index over more hosts";
            case HOSTS ->
                "lower the heaps (heap: in the cluster spec), or give the index more"
                    + " memory: more hosts, or a larger memory: on a lab host";
            case EXTERNAL -> "add memory or hosts, or lower the heaps";
          });
    }
    for (DoctorFacts.Node n : nodes) {
      if (n.heapMaxBytes() != null
          && n.indexBytes() != null
          && n.indexBytes() > 0
          && n.heapMaxBytes() > 4L * (1L << 30)
          && n.heapMaxBytes() > 10 * n.indexBytes()) {
        add(
            DoctorReport.INFO,
            "node-heap-index",
            n.name(),
            "heap "
                + gb(n.heapMaxBytes())
                + " for "
                + gb(n.indexBytes())
                + " of index: a large heap means long full collections",
            ours()
                ? "a heap of a few GB serves this index (heap: in the cluster spec); leave the rest"
                    + " to the page cache"
                : "a heap of a few GB serves this index; leave the rest to the page cache");
      }
    }
    if (first.swapTotalBytes() != null
        && first.swapFreeBytes() != null
        && first.swapTotalBytes() - first.swapFreeBytes() > 0) {
      add(
          DoctorReport.WARNING,
          "node-swap",
          subject,
          gb(first.swapTotalBytes() - first.swapFreeBytes())
              + " of swap in use (by any process, since the host started): a JVM whose heap is"
              + " swapped out pauses for seconds",
          oneMachine()
              ? "leave this machine free memory (smaller heaps, fewer nodes) so nothing swaps;"
                  + " with root, vm.swappiness=1"
              : "turn swap off on Solr hosts (swapoff -a) or set vm.swappiness=1");
    }
  }

  private void collections(DoctorFacts f) {
    long hosts = f.nodes().stream().map(DoctorFacts.Node::host).distinct().count();
    Map<String, DoctorFacts.Node> nodes = new HashMap<>();
    f.nodes().forEach(n -> nodes.put(n.name(), n));
    Map<String, Integer> leads = new LinkedHashMap<>();
    int shards = 0;
    for (DoctorFacts.Collection c : f.collections()) {
      commits(
          c,
          f.sampled()
              ? String.format(Locale.ROOT, "over the doctor's %.1f s window", f.windowSeconds())
              : "at Solr's 1-minute rate, which includes the minute before the doctor started");
      autowarm(c);
      if (c.numVersionBuckets() != null && c.numVersionBuckets() < 1024) {
        boolean used = versionBefore(f.solrVersion(), 9, 8);
        add(
            used ? DoctorReport.WARNING : DoctorReport.INFO,
            "coll-version-buckets",
            "collection " + c.name(),
            "numVersionBuckets "
                + c.numVersionBuckets()
                + (used
                    ? ": updates of a core queue on so few locks (SOLR-6820)"
                    : ": ignored since Solr 9.8 (SOLR-17102)"),
            used ? "leave numVersionBuckets at its default (65536)" : "remove the setting");
      }
      for (DoctorFacts.Shard s : c.shards()) {
        shards++;
        placement(c, s, nodes, hosts);
        s.replicas().stream()
            .filter(DoctorFacts.Replica::leader)
            .forEach(r -> leads.merge(r.node(), 1, Integer::sum));
      }
    }
    leaders(f, leads, shards);
  }

  private void commits(DoctorFacts.Collection c, String rateWindow) {
    String subject = "collection " + c.name();
    Long hard = c.autoCommitMs();
    if (Boolean.TRUE.equals(c.openSearcher()) && hard != null && hard > 0 && hard < 60000) {
      add(
          hard < 1000 ? DoctorReport.ERROR : DoctorReport.WARNING,
          "coll-autocommit-opensearcher",
          subject,
          "autoCommit every "
              + hard
              + " ms opens a new searcher each time (openSearcher=true)"
              + (hard < 1000
                  ? ": faster than searchers warm, so they pile up (maxWarmingSearchers errors)"
                  : ""),
          "set autoCommit openSearcher=false and make documents visible with autoSoftCommit instead"
              + property("solr.autoCommit.openSearcher: false"));
    }
    Long soft = c.autoSoftCommitMs();
    if (soft != null && soft > 0 && soft < 1000) {
      boolean indexing = c.updatesPerSecond() != null && c.updatesPerSecond() > 0;
      add(
          indexing ? DoctorReport.WARNING : DoctorReport.INFO,
          "coll-soft-commit",
          subject,
          "autoSoftCommit every "
              + soft
              + " ms"
              + (indexing
                  ? String.format(
                      Locale.ROOT,
                      " while indexing (%.1f update requests/s %s)",
                      c.updatesPerSecond(),
                      rateWindow)
                  : "")
              + ": each soft commit throws the caches away and opens a searcher",
          "soft-commit no more often than the application needs documents visible (1000 ms or more)"
              + property("solr.autoSoftCommit.maxTime: 1000"));
    }
  }

  private void autowarm(DoctorFacts.Collection c) {
    c.cacheAutowarm()
        .forEach(
            (cache, count) -> {
              String v = count.strip();
              boolean large;
              if (v.endsWith("%")) {
                large = parse(v.substring(0, v.length() - 1)) >= 50;
              } else {
                large = parse(v) > 256;
              }
              if (large) {
                add(
                    DoctorReport.WARNING,
                    "coll-autowarm",
                    "collection " + c.name(),
                    cache
                        + " autowarmCount "
                        + v
                        + ": every new searcher re-runs that many entries before it serves",
                    "autowarm "
                        + cache
                        + " with 32..128 entries (or 0 with frequent commits)"
                        + property("solr." + cache + ".autowarm: 64"));
              }
            });
  }

  private static double parse(String v) {
    try {
      return Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Replicas of a shard on one host, or all in one dc or rack when the nodes span several. */
  private void placement(
      DoctorFacts.Collection c,
      DoctorFacts.Shard s,
      Map<String, DoctorFacts.Node> nodes,
      long hostCount) {
    boolean oneHost = hostCount <= 1;
    if (s.replicas().size() < 2) {
      return;
    }
    Map<String, Integer> hosts = new LinkedHashMap<>();
    for (DoctorFacts.Replica r : s.replicas()) {
      DoctorFacts.Node n = nodes.get(r.node());
      hosts.merge(n == null ? r.node() : n.host(), 1, Integer::sum);
    }
    hosts.forEach(
        (host, count) -> {
          if (count > 1) {
            add(
                oneHost ? DoctorReport.INFO : DoctorReport.WARNING,
                "coll-replicas-host",
                "collection " + c.name() + " " + s.name(),
                count
                    + " of its "
                    + s.replicas().size()
                    + " replicas are on host "
                    + host
                    + (oneHost ? " (every node runs on it)" : "")
                    + ": losing the host loses them together",
                oneHost
                    ? "on real hosts, put a shard's replicas on different hosts"
                    // no move can part more replicas than there are hosts
                    : s.replicas().size() > hostCount
                        ? "add hosts (its "
                            + s.replicas().size()
                            + " replicas need as many; the nodes are on "
                            + hostCount
                            + ") or keep fewer replicas"
                        : "move a replica to another host (MOVEREPLICA) or use a placement plugin with host affinity");
          }
        });
    for (String label : List.of("dc", "rack")) {
      Set<String> all = new LinkedHashSet<>();
      nodes
          .values()
          .forEach(
              n -> {
                if (n.labels() != null && n.labels().get(label) != null) {
                  all.add(n.labels().get(label));
                }
              });
      if (all.size() < 2) {
        continue;
      }
      Set<String> used = new LinkedHashSet<>();
      for (DoctorFacts.Replica r : s.replicas()) {
        DoctorFacts.Node n = nodes.get(r.node());
        used.add(n == null || n.labels() == null ? "?" : String.valueOf(n.labels().get(label)));
      }
      if (used.size() == 1) {
        add(
            DoctorReport.WARNING,
            "coll-replicas-" + label,
            "collection " + c.name() + " " + s.name(),
            "all "
                + s.replicas().size()
                + " replicas are in "
                + label
                + " "
                + used.iterator().next()
                + " of "
                + all,
            "spread the shard's replicas over "
                + label
                + "s (placement plugin, or ADDREPLICA on a node in another "
                + label
                + ")");
      }
    }
  }

  private void leaders(DoctorFacts f, Map<String, Integer> leads, int shards) {
    int nodes = f.nodes().size();
    if (nodes < 2 || shards < 2) {
      return;
    }
    double fair = (double) shards / nodes;
    leads.forEach(
        (node, n) -> {
          if (n >= 2 && n > Math.ceil(fair) + 1 && n >= 2 * fair) {
            add(
                DoctorReport.WARNING,
                "coll-leader-heavy",
                node,
                String.format(
                    Locale.ROOT,
                    "leads %d of %d shards (%.1f would be even over %d nodes): it does every shard's indexing work first",
                    n,
                    shards,
                    fair,
                    nodes),
                "spread leaders: set preferredLeader on replicas elsewhere and call REBALANCELEADERS");
          }
        });
  }

  /** Solr defects known to bite in the running version, with the conditions they need. */
  private void knownDefects(DoctorFacts f) {
    if (f.solrVersion() == null) {
      return;
    }
    List<String> replicated =
        f.collections().stream()
            .filter(c -> c.shards().stream().anyMatch(s -> s.replicas().size() > 1))
            .map(DoctorFacts.Collection::name)
            .toList();
    if (!replicated.isEmpty()) {
      add(
          DoctorReport.WARNING,
          "SOLR-5939",
          "Solr " + f.solrVersion(),
          "collections with more than one replica per shard ("
              + String.join(", ", replicated)
              + "): when a leader is lost while a batch is forwarded, Solr can acknowledge the batch"
              + " although some of its documents reached no replica (solrscale's chaos runs"
              + " reproduce it on 9.10)",
          "after a leader change, verify counts (solrscale chaos measures it); send small batches and check the rf Solr answers with min_rf");
    }
  }

  static boolean versionBefore(String version, int major, int minor) {
    if (version == null) {
      return false;
    }
    String[] p = version.split("[.-]");
    try {
      int ma = Integer.parseInt(p[0]);
      int mi = p.length > 1 ? Integer.parseInt(p[1]) : 0;
      return ma < major || ma == major && mi < minor;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String gb(long bytes) {
    return String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30));
  }
}
