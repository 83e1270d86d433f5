package org.solrscale.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.solrscale.net.LabNet;
import org.solrscale.net.LinkRate;
import org.solrscale.results.LinkProbe;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.runtime.SolrscaleJar;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.Slowness;
import org.solrscale.spec.SolrscaleException;

/**
 * What the hosts of one cluster do for it, each operation written once over {@link Remote},
 * whichever the host: start a node, check and signal it by pid (only while the pid carries the
 * node's marker), jcmd, log tails, files, recordings, the relay, the page cache and network faults.
 * A node without a host runs on this machine ({@link LocalRemote}); one with a host over SSH
 * ({@link SshRemote}, prepared by {@link SshHosts}). Most operations run the host agent script
 * ({@code host-agent.sh}), on this machine as on a host. Obtained from {@link Cluster#hosts()}.
 */
public final class HostOps {
  private static final Duration QUICK = Duration.ofSeconds(60);

  /** Runs the JDK's jcmd beside the java of pid $1: exit 3 when the pid is gone, 4 without jcmd. */
  private static final String JCMD =
      "exe=$(readlink /proc/$1/exe) || exit 3; j=$(dirname \"$exe\")/jcmd; "
          + "[ -x \"$j\" ] || { echo \"$exe\"; exit 4; }; exec \"$j\" \"$@\"";

  private final SolrscaleHome home;
  private final StateStore store;
  private final String cluster;
  private final Consumer<String> progress;
  private final LocalRemote local = new LocalRemote();
  private final Map<String, HostSpec> hostSpecs = new ConcurrentHashMap<>();
  private SshHosts ssh;

  HostOps(SolrscaleHome home, StateStore store, String cluster, Consumer<String> progress) {
    this.home = home;
    this.store = store;
    this.cluster = cluster;
    this.progress = progress;
  }

  // ---------------------------------------------------------------- where a node runs

  private synchronized SshHosts ssh() {
    if (ssh == null) {
      ssh = new SshHosts(home, store, cluster, progress, n -> state(n).alive());
    }
    return ssh;
  }

  /** The spec's entry of host {@code ssh} (the cluster's recorded spec, when none was given). */
  private HostSpec host(String ssh) {
    return hostSpecs.computeIfAbsent(ssh, h -> store.load(cluster).spec().hostNamed(h));
  }

  private void know(ClusterSpec spec) {
    spec.hosts().forEach(h -> hostSpecs.putIfAbsent(h.ssh(), h));
  }

  /** How solrscale reaches the host {@code node} runs on. */
  Remote remoteOf(NodeState node) {
    return remote(node);
  }

  private Remote remote(NodeState node) {
    return node.remote() ? ssh().remote(host(node.ssh())) : local;
  }

  /** The node's folder on its host. */
  private String dir(NodeState node) {
    return node.remote()
        ? ssh().dir(host(node.ssh())) + "/clusters/" + cluster + "/" + node.id()
        : nodeDir(node).toAbsolutePath().toString();
  }

  /** The folder on the node's host solrscale may delete under. */
  String base(NodeState node) {
    return node.remote()
        ? ssh().dir(host(node.ssh()))
        : store.clusterDir(cluster).toAbsolutePath().toString();
  }

  /** " on host H" for a node on a host, "" for one on this machine, for messages. */
  private static String onHost(NodeState node) {
    return node.remote() ? " on host " + node.ssh() : "";
  }

  private Remote.Result agent(NodeState node, Duration timeout, String op, String... args) {
    return agent(remote(node), timeout, op, args);
  }

  private static Remote.Result agent(Remote remote, Duration timeout, String op, String... args) {
    return remote.run(HostAgent.command(op, args), HostAgent.SCRIPT, timeout);
  }

  private String agentOk(NodeState node, Duration timeout, String op, String... args) {
    Remote.Result r = agent(node, timeout, op, args);
    if (!r.ok()) {
      throw failure(node, r, op);
    }
    return r.out();
  }

  /** The one-line error of a command that failed where {@code node} runs. */
  private SolrscaleException failure(NodeState node, Remote.Result r, String what) {
    if (node.remote()) {
      return ssh().failure(host(node.ssh()), r, what);
    }
    String[] lines = r.err().strip().split("\n");
    String last = lines[lines.length - 1].strip();
    return SolrscaleException.environment(
        what
            + " failed on this machine (exit "
            + r.exit()
            + "): "
            + (last.isEmpty() ? "no message" : last));
  }

  /** The system property that marks a process as a given node of a given cluster. */
  static String marker(String cluster, String nodeId) {
    return "-Dsolrscale.node=" + cluster + "/" + nodeId;
  }

  private String marker(NodeState node) {
    return marker(cluster, node.id());
  }

  // ---------------------------------------------------------------- planning and preparing

  /** Free ports where a node of {@code spec} runs: on host {@code host}, or this machine (null). */
  Ports ports(ClusterSpec spec, String host, List<ClusterState> others) {
    know(spec);
    return host == null ? new Ports(spec.host(), others) : ssh().ports(spec, host, others);
  }

  /** The address nodes on host {@code host} (null: this machine) bind to and are reached at. */
  String address(ClusterSpec spec, String host) {
    know(spec);
    return host == null ? spec.host() : ssh().address(spec, host);
  }

  /**
   * Before nodes start: checks every host the cluster's nodes run on and puts the runtime and node
   * jar there (nothing for nodes on this machine, which run the runtime where it is).
   */
  void prepare(ClusterState state, NodeOps.Launch launch) {
    know(state.spec());
    if (state.nodes().stream().anyMatch(NodeState::remote)) {
      ssh().prepare(state, launch);
    }
  }

  /** Lets go of what the hosts hold for the cluster (SSH connections, the cgroups of its nodes). */
  void close(ClusterState state) {
    SshHosts s;
    synchronized (this) {
      s = ssh;
    }
    if (s != null) {
      s.close(state);
    }
  }

  // ---------------------------------------------------------------- one node's process

  /** Writes the node's files, puts them on its host and starts it; the node with its new pid. */
  NodeState start(ClusterState state, NodeState node, NodeOps.Launch launch) {
    know(state.spec());
    SolrRuntime runtime = launch.runtime();
    ClassArchives.Archive archive = launch.archive();
    Installed at =
        node.remote()
            ? ssh().installed(state, host(node.ssh()), launch)
            : new Installed(
                launch.jdk().java().toString(),
                runtime.dir().resolve("lib").toString(),
                launch.nodeJar().toString(),
                archive == null ? null : archive.dir().toString());
    String there = dir(node);
    Path here = nodeDir(node);
    Path stage = node.remote() ? here.resolve("files") : here; // here, the files are where they run
    if (node.remote()) {
      FileTrees.delete(stage);
    }
    List<String> cmd;
    try {
      Files.createDirectories(stage.resolve("logs"));
      Files.createDirectories(stage.resolve("tmp"));
      // the jars through links in the node's directory: the same classpath on every host, as a
      // class-data archive needs
      link(stage.resolve(RUNTIME_LINK), at.runtimeDir());
      String classpath = classpath(runtime, node.role());
      List<String> archived =
          archive == null || at.archiveDir() == null
              ? List.of()
              : List.of(archive.option(node.role(), at.archiveDir()));
      if (node.isZk()) {
        NodeFiles.writeZk(stage, Path.of(there), node, state);
        cmd = NodeCommand.zk(at.java(), classpath, archived, state, node, Path.of(there));
      } else {
        NodeFiles.writeSolr(stage, runtime.launcher().solrMajor());
        link(stage.resolve(NODE_JAR_LINK), at.nodeJar());
        cmd =
            NodeCommand.solr(
                at.java(),
                classpath,
                archived,
                runtime.launcher().mainClass(),
                state,
                node,
                Path.of(there));
      }
      // one argument per line: what exactly ran, for people and for scripts
      Files.write(stage.resolve("command.txt"), cmd);
      Files.write(here.resolve("command.txt"), cmd);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + stage + ": " + e.getMessage());
    }
    Remote remote = remote(node);
    remote.upload(stage, there);
    List<String> run = new ArrayList<>();
    List<String> cgroup = node.remote() ? ssh().cgroup(state, host(node.ssh())) : null;
    if (cgroup != null) { // the agent enters the cgroup, then becomes the node
      run.addAll(List.of("sh", "-c", HostAgent.SCRIPT, "sh", "cgroup-exec"));
      run.addAll(cgroup);
    }
    run.addAll(cmd);
    Map<String, String> env =
        node.isSolr() && state.spec().tls()
            ? Map.of(
                NodeCommand.TLS_PASSWORD_ENV,
                ClusterTls.load(store.clusterDir(cluster)).secretForEnvironment())
            : Map.of();
    long pid = remote.start(run, there, there + "/logs/console.log", env);
    return node.withPid(pid);
  }

  /** The link in a node's directory to the runtime's jars, and the one to the node jar. */
  static final String RUNTIME_LINK = "runtime";

  static final String NODE_JAR_LINK = "node.jar";

  /**
   * The classpath of a node of {@code role}: the runtime's jars through {@link #RUNTIME_LINK} and,
   * for a Solr node, the node jar through {@link #NODE_JAR_LINK}; relative to the node's directory.
   */
  static String classpath(SolrRuntime runtime, NodeRole role) {
    String jars =
        runtime.classpath().stream()
            .map(p -> RUNTIME_LINK + "/" + p.getFileName())
            .collect(java.util.stream.Collectors.joining(":"));
    return role == NodeRole.ZK ? jars : jars + ":" + NODE_JAR_LINK;
  }

  /** A symbolic link at {@code link} to {@code target} (a path where the node runs). */
  private static void link(Path link, String target) throws IOException {
    Files.deleteIfExists(link);
    Files.createSymbolicLink(link, Path.of(target));
  }

  /** Whether the node's process runs, is paused, or is gone (checked by its recorded pid). */
  public ProcessState state(NodeState node) {
    if (node.pid() <= 0) {
      return ProcessState.STOPPED;
    }
    Remote.Result r = agent(node, QUICK, "state", Long.toString(node.pid()), marker(node));
    if (!r.ok()) {
      throw failure(node, r, "checking " + node.id());
    }
    return switch (r.out().strip()) {
      case "running" -> ProcessState.RUNNING;
      case "paused" -> ProcessState.PAUSED;
      case "stopped" -> ProcessState.STOPPED;
      default -> ProcessState.DEAD;
    };
  }

  /** Graceful stop (SIGTERM, then SIGKILL after {@code grace}); true if it was running. */
  public boolean stop(NodeState node, Duration grace) {
    if (node.pid() <= 0) {
      return false;
    }
    String out =
        agentOk(
            node,
            grace.plusSeconds(30),
            "stop",
            Long.toString(node.pid()),
            marker(node),
            Long.toString(Math.max(1, grace.toSeconds())));
    return "yes".equals(out.strip());
  }

  private boolean signal(NodeState node, String signal) {
    if (node.pid() <= 0) {
      return false;
    }
    String out = agentOk(node, QUICK, "signal", signal, Long.toString(node.pid()), marker(node));
    return "yes".equals(out.strip());
  }

  /** SIGKILL, returning once the process is gone; true if it was running. */
  public boolean kill(NodeState node) {
    return signal(node, "KILL");
  }

  /** SIGSTOP (a frozen JVM), returning once the process shows stopped. */
  public void pause(NodeState node) {
    requireSignalled(node, signal(node, "STOP"));
  }

  /** SIGCONT, returning once the process no longer shows stopped. */
  public void resume(NodeState node) {
    requireSignalled(node, signal(node, "CONT"));
  }

  private void requireSignalled(NodeState node, boolean was) {
    if (!was) {
      throw SolrscaleException.failed(
          "process " + node.pid() + " (" + marker(node).substring(2) + ") is not running");
    }
  }

  /**
   * Runs the JDK's jcmd (beside the java the node's JVM runs on, so that its version matches)
   * against the node with {@code args}; returns what it printed; with a time limit, as a frozen JVM
   * never answers.
   */
  public String jcmd(NodeState node, List<String> args) {
    if (state(node) != ProcessState.RUNNING) {
      throw SolrscaleException.environment(
          node.id() + " is not running; start it (solrscale node start) or leave --profile out");
    }
    List<String> cmd = new ArrayList<>(List.of("sh", "-c", JCMD, "sh", Long.toString(node.pid())));
    cmd.addAll(args);
    Duration timeout = Duration.ofSeconds(60);
    Remote.Result r = remote(node).run(cmd, null, timeout);
    return switch (r.exit()) {
      case 0 -> r.out();
      case 3 ->
          throw SolrscaleException.environment(
              node.id()
                  + " (pid "
                  + node.pid()
                  + ") is not running; start it (solrscale node start)");
      case 4 ->
          throw SolrscaleException.environment(
              node.id()
                  + " runs on a Java without jcmd ("
                  + r.out().strip()
                  + "); run the cluster on a full JDK (SOLRSCALE_JAVA_HOME)");
      case 124 ->
          throw SolrscaleException.environment(
              "jcmd for "
                  + node.id()
                  + onHost(node)
                  + " gave no answer in "
                  + timeout.toSeconds()
                  + " s");
      default ->
          throw SolrscaleException.environment(
              "jcmd for "
                  + node.id()
                  + onHost(node)
                  + " failed: "
                  + (r.out() + " " + r.err()).strip().replace('\n', ' '));
    };
  }

  // ---------------------------------------------------------------- one node's files

  /** The node's folder (its logs, command line and data), as this machine reaches it. */
  public Path nodeDir(NodeState node) {
    return store.nodeDir(cluster, node.id());
  }

  /** The absolute path of the node's Solr home on its host (where its cores and seeds go). */
  public String solrHome(NodeState node) {
    return dir(node) + "/home";
  }

  /**
   * A folder on the node's host its JVM may write a recording into, or null when the node runs on
   * this machine (it writes straight into the results directory then).
   */
  public String scratchDir(NodeState node) {
    return node.remote() ? dir(node) + "/tmp" : null;
  }

  /**
   * Brings the folder {@code from} on the node's host to {@code to} here, then deletes it there.
   */
  public void collect(NodeState node, String from, Path to) {
    remote(node).download(from, to);
    agentOk(node, QUICK, "rm", base(node), from);
  }

  /** The text of a file on the node's host (absolute, under its folder), or null when absent. */
  public String readFile(NodeState node, String path) {
    Remote.Result r =
        remote(node)
            .run(
                List.of("sh", "-c", "[ -f \"$1\" ] || exit 3; cat \"$1\"", "sh", path),
                null,
                QUICK);
    if (r.exit() == 3) {
      return null;
    }
    if (!r.ok()) {
      throw failure(node, r, "reading " + path);
    }
    return r.out();
  }

  /** The last lines of the node's console and main logs, to show why it failed. */
  public String logTail(NodeState node, int lines) {
    String there = dir(node);
    StringBuilder sb = new StringBuilder();
    String main = there + "/logs/" + (node.isZk() ? "zookeeper.log" : "solr.log");
    for (String f : List.of(there + "/logs/console.log", main)) {
      Remote.Result r = agent(node, QUICK, "tail", f, Integer.toString(lines * 2));
      List<String> tail = r.out().lines().filter(l -> !l.isBlank()).toList();
      tail = tail.subList(Math.max(0, tail.size() - lines), tail.size());
      if (!tail.isEmpty()) {
        sb.append("--- last lines of ")
            .append(node.remote() ? node.ssh() + ":" : "")
            .append(f)
            .append('\n');
        tail.forEach(l -> sb.append("  ").append(l).append('\n'));
      }
    }
    return sb.toString();
  }

  /**
   * The lines of the node's main log (solr.log, zookeeper.log), rolled-over copies included, that
   * hold any of the fixed {@code texts}, read on its host; none when the log is missing.
   */
  public List<String> logLines(NodeState node, List<String> texts) {
    String main = dir(node) + "/logs/" + (node.isZk() ? "zookeeper.log" : "solr.log");
    List<String> args = new ArrayList<>(List.of(main));
    args.addAll(texts);
    return agentOk(node, QUICK, "grep", args.toArray(String[]::new)).lines().toList();
  }

  /**
   * Brings the node's logs to {@link #nodeDir} on this machine (nothing where they already are).
   */
  public void fetchLogs(NodeState node) {
    remote(node).download(dir(node) + "/logs", nodeDir(node).resolve("logs"));
  }

  /** Deletes what a node that never served keeps besides its logs (data, home, tmp). */
  void deleteData(NodeState node) {
    String there = dir(node);
    agentOk(node, QUICK, "rm", base(node), there + "/data", there + "/home", there + "/tmp");
  }

  /** Deletes everything the node has on its host, and its folder here. */
  void deleteNode(NodeState node) {
    agentOk(node, QUICK, "rm", base(node), dir(node));
    FileTrees.delete(nodeDir(node));
  }

  // ---------------------------------------------------------------- hosts

  /** What the host a node runs on is: CPU, cores, memory, OS. */
  public HostFacts facts(NodeState node) {
    return node.remote() ? ssh().facts(host(node.ssh())) : HostFacts.thisMachine();
  }

  /** What the host of the cluster's first node is, for a run's environment. */
  public HostFacts facts() {
    return facts(store.load(cluster).nodes().get(0));
  }

  /**
   * The command (to run here) that runs solrscale itself with {@code args} on the node's host: this
   * JVM's java and jar here, or over ssh with the jar put on the host once.
   */
  public List<String> solrscaleCommand(NodeState node, List<String> args) {
    List<String> cmd =
        new ArrayList<>(
            node.remote()
                ? ssh().solrscale(host(node.ssh()))
                : List.of(
                    Jdk.running().java().toString(),
                    "-jar",
                    SolrscaleJar.path("this command").toString()));
    cmd.addAll(args);
    return remote(node).command(cmd);
  }

  /**
   * Drops the OS page cache on the hosts of these nodes, each host once (cold-cache measurements);
   * returns the hosts ("local" for this machine).
   */
  public List<String> dropCaches(List<String> nodeIds) {
    ClusterState state = store.load(cluster);
    Map<String, NodeState> byHost = new LinkedHashMap<>();
    for (String id : nodeIds) {
      NodeState n = state.node(id);
      byHost.putIfAbsent(n.where(), n);
    }
    for (NodeState n : byHost.values()) {
      Remote.Result r = agent(n, QUICK, "drop-caches");
      if (r.exit() == 5 && !n.remote()) {
        throw SolrscaleException.usage(
            "drop_caches needs root on this machine (it writes /proc/sys/vm/drop_caches); run as"
                + " root or leave drop_caches out");
      }
      if (!r.ok()) {
        throw SolrscaleException.environment(problem(n, r, "drop_caches"));
      }
      progress.accept("dropped the page cache on " + n.where());
    }
    return List.copyOf(byHost.keySet());
  }

  /** Why an agent operation on a host failed, in one line; null when it did not. */
  String problem(NodeState node, Remote.Result r, String what) {
    if (r.ok()) {
      return null;
    }
    if (r.exit() == 5) {
      return what
          + " needs root on host "
          + node.ssh()
          + " (it changes the host's network); reach it as root, e.g. ssh: root@"
          + node.ssh().replaceFirst("^.*@", "");
    }
    return failure(node, r, what).getMessage();
  }

  // ---------------------------------------------------------------- network faults

  /** The cluster's nodes on hosts, one per host; a fault on hosts needs some. */
  private static Map<String, NodeState> onHosts(ClusterState state, String needs) {
    Map<String, NodeState> out = new LinkedHashMap<>();
    for (NodeState n : state.nodes()) {
      if (n.remote()) {
        out.putIfAbsent(n.ssh(), n);
      }
    }
    if (out.isEmpty()) {
      throw SolrscaleException.usage(needs);
    }
    return out;
  }

  /** Runs one agent operation on each host at once; every host is tried, then failures reported. */
  private void onEach(Map<NodeState, List<String>> argsByNode, String what) {
    List<String> problems =
        Parallel.map(
                new ArrayList<>(argsByNode.entrySet()),
                t -> {
                  List<String> a = t.getValue();
                  String[] rest = a.subList(1, a.size()).toArray(String[]::new);
                  return problem(t.getKey(), agent(t.getKey(), QUICK, a.get(0), rest), what);
                })
            .stream()
            .filter(e -> e != null)
            .distinct()
            .toList();
    if (!problems.isEmpty()) {
      throw SolrscaleException.environment(String.join("\n", problems));
    }
  }

  /**
   * Cuts the hosts off from the cluster's other hosts, both ways ({@code cut}), or joins them
   * again; this machine keeps its way to every host.
   */
  public void partition(List<String> hosts, boolean cut) {
    Map<String, NodeState> nodes =
        onHosts(
            store.load(cluster),
            "partition needs a cluster on hosts (up --hosts); this one runs on this machine");
    List<String> others = nodes.keySet().stream().filter(h -> !hosts.contains(h)).toList();
    if (others.isEmpty()) {
      throw SolrscaleException.usage(
          "a partition of every host of the cluster cuts nothing off; name some of its hosts");
    }
    String how = cut ? "block" : "unblock";
    Map<NodeState, List<String>> args = new LinkedHashMap<>();
    for (String h : hosts) {
      List<String> a = new ArrayList<>(List.of("routes", how));
      others.forEach(o -> a.add(nodes.get(o).host()));
      args.put(nodes.get(h), a);
    }
    for (String o : others) {
      List<String> a = new ArrayList<>(List.of("routes", how));
      hosts.forEach(h -> a.add(nodes.get(h).host()));
      args.put(nodes.get(o), a);
    }
    onEach(args, "partition");
  }

  /** Caps what the hosts send to {@code rate} (e.g. 1mbit); null lifts the cap. */
  public void capBandwidth(List<String> hosts, String rate) {
    Map<String, NodeState> nodes =
        onHosts(
            store.load(cluster),
            "bandwidth needs a cluster on hosts (up --hosts); this one runs on this machine");
    Map<NodeState, List<String>> args = new LinkedHashMap<>();
    for (String h : hosts) {
      NodeState n = nodes.get(h);
      String dir = base(n);
      args.put(
          n,
          rate == null
              ? List.of("cap", dir, n.host(), "-")
              // a token bucket of 10 ms at the rate, as the lab network's caps have
              : List.of(
                  "cap", dir, n.host(), rate, Long.toString(LinkRate.parse(rate).burstBytes())));
    }
    onEach(args, "bandwidth");
  }

  /** Takes the links of lab-network hosts down, or up again (from this machine). */
  public void link(List<String> hosts, boolean up) {
    onHosts(
        store.load(cluster),
        "link-down needs a cluster on lab-network hosts (net up, then up --hosts)");
    for (String h : hosts) {
      LabNet.link(home, h, up);
    }
  }

  // ---------------------------------------------------------------- memory, page cache

  /** The hosts' memory limits, huge pages, swap and page cache, for the cluster as it is now. */
  public HostLimits limits() {
    return new HostLimits(this, store.load(cluster));
  }

  /** The cgroup of the cluster's nodes on a limited host: name, quota, cores, memory, record. */
  List<String> cgroupOf(HostSpec h) {
    return ssh().cgroup(store.load(cluster), h);
  }

  // ---------------------------------------------------------------- slow links

  /** Runs one agent operation where the node runs, with the quick timeout. */
  Remote.Result agentOn(NodeState node, String op, String... args) {
    return agent(node, QUICK, op, args);
  }

  /** The java and jar that run solrscale itself on a node's host (put there once). */
  List<String> solrscaleOn(NodeState node) {
    return node.remote()
        ? ssh().solrscale(host(node.ssh()))
        : List.of(
            Jdk.running().java().toString(), "-jar", SolrscaleJar.path("a slow link").toString());
  }

  /**
   * Slows what crosses between {@code hosts} and {@code peers} (null: the cluster's other hosts) as
   * {@code slowness} says, until {@link #heal(SlowLink)}.
   */
  public SlowLink slow(List<String> hosts, List<String> peers, Slowness slowness) {
    ClusterState state = store.load(cluster);
    Map<String, NodeState> nodes =
        onHosts(
            state,
            "latency and loss need a cluster on hosts (up --hosts); this one runs on this machine");
    List<String> others =
        peers != null ? peers : nodes.keySet().stream().filter(h -> !hosts.contains(h)).toList();
    return new SlowLinks(this).slow(cluster, nodes, hosts, others, slowness);
  }

  /** Removes a slow link: its rules, then its delayers (held packets go on). */
  public void heal(SlowLink link) {
    new SlowLinks(this).heal(onHosts(store.load(cluster), "no hosts"), link);
  }

  /** What an independent probe measures across the link for {@code seconds}. */
  public LinkProbe probe(SlowLink link, double seconds) {
    return new SlowLinks(this).probe(onHosts(store.load(cluster), "no hosts"), link, seconds);
  }

  /**
   * Removes every slow link recorded on the cluster's hosts (left by a run that was killed);
   * returns the chains removed.
   */
  public List<String> healAllSlowLinks() {
    ClusterState state = store.load(cluster);
    // every host at once: one after another, 32 hosts held down up for 15 s before a node stopped
    List<Remote.Result> asked =
        Parallel.map(
            List.copyOf(onHostsOrNone(state).values()),
            n -> agent(n, QUICK, "unslow", base(n), "all", cluster));
    List<String> removed = new ArrayList<>();
    for (Remote.Result r : asked) {
      if (r.ok()) {
        removed.addAll(r.out().strip().lines().filter(l -> !l.isBlank()).toList());
      }
    }
    return removed;
  }

  /** The cluster's nodes on hosts, one per host (none for a cluster on this machine). */
  static Map<String, NodeState> onHostsOrNone(ClusterState state) {
    Map<String, NodeState> out = new LinkedHashMap<>();
    for (NodeState n : state.nodes()) {
      if (n.remote()) {
        out.putIfAbsent(n.ssh(), n);
      }
    }
    return out;
  }
}
