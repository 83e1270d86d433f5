package org.solrscale.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.solrscale.net.LabNet;
import org.solrscale.net.LinkRate;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.runtime.SolrscaleJar;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * Runs nodes on hosts reached over SSH ({@link Ssh}): the runtime and node jar are copied to each
 * host once, content-addressed, under the host's solrscale directory ({@code dir} in the spec, else
 * {@code $SOLRSCALE_HOST_DIR} there, else {@code ~/.solrscale-host}); a node's files are written
 * here and copied to {@code <dir>/clusters/<cluster>/<node>}; processes are started, checked and
 * signalled by the host agent script, by pid and only while the pid carries the node's marker.
 */
public final class SshProvider implements Provider {
  private static final Duration QUICK = Duration.ofSeconds(60);

  /** A host needs at least this much free disk for a runtime and a node's data. */
  static final long MIN_FREE_MB = 1024;

  private final SolrscaleHome home;
  private final StateStore store;
  private final Ssh ssh;
  private final Consumer<String> progress;
  private final Map<String, HostProbe.Info> hosts = new ConcurrentHashMap<>();

  /** Where prepare put a Solr version's runtime and the node jar, under each host's directory. */
  private record OnHosts(String runtime, String nodeJar) {}

  private final Map<String, OnHosts> onHosts = new ConcurrentHashMap<>();

  public SshProvider(
      SolrscaleHome home, StateStore store, String cluster, Consumer<String> progress) {
    this.home = home;
    this.store = store;
    this.ssh = new Ssh(home, store.clusterDir(cluster));
    this.progress = progress;
  }

  // ---------------------------------------------------------------- hosts

  private static HostSpec host(ClusterState cluster, NodeState node) {
    return cluster.spec().hostNamed(node.ssh());
  }

  /** The host's facts, asked once per process. */
  HostProbe.Info info(HostSpec host, int minimumJava) {
    HostProbe.Info known = hosts.get(host.ssh());
    if (known != null && (minimumJava == 0 || known.javaFeature() >= minimumJava)) {
      return known; // asked again only when a newer Java is needed than the one found
    }
    HostProbe.Info info = HostProbe.probe(ssh, host, minimumJava);
    hosts.put(host.ssh(), info);
    return info;
  }

  /** Why the host cannot run nodes that need Java {@code minimumJava}, or null when it can. */
  String unfit(HostSpec host, int minimumJava) {
    HostProbe.Info info;
    try {
      info = info(host, minimumJava);
    } catch (SolrscaleException e) {
      return e.getMessage();
    }
    if (info.java() == null) {
      return "host "
          + host.ssh()
          + " has no Java "
          + minimumJava
          + " or newer"
          + (info.tooOldJava() == null ? "" : " (found " + info.tooOldJava() + ")")
          + "; install one there or give its java_home in the host's entry of the spec";
    }
    if (host.limited() && !info.root()) {
      return "host "
          + host.ssh()
          + " limits its nodes ("
          + host.limitsText()
          + ") through cgroups, which needs root there; reach it as root (ssh: root@"
          + host.ssh().replaceFirst("^.*@", "")
          + ") or drop the limits";
    }
    if (host.cores() != null && highestCore(host.cores()) >= info.facts().cores()) {
      return "host "
          + host.ssh()
          + " has "
          + info.facts().cores()
          + " cores (0-"
          + (info.facts().cores() - 1)
          + "); its cores '"
          + host.cores()
          + "' name one it does not have";
    }
    if (info.freeMb() < MIN_FREE_MB) {
      return "host "
          + host.ssh()
          + " has "
          + info.freeMb()
          + " MB free under "
          + info.dir()
          + ", less than the "
          + MIN_FREE_MB
          + " MB a runtime and a node need; free some or give another dir";
    }
    return null;
  }

  private static int highestCore(String cores) {
    int max = 0;
    for (String part : cores.split("[,-]")) {
      max = Math.max(max, Integer.parseInt(part));
    }
    return max;
  }

  /**
   * The cgroup the cluster's nodes on a host share, as the agent's start takes it
   * (NAME/QUOTA/CORES/MEMORY), or "-" when the host limits nothing.
   */
  private static String cgroup(ClusterState cluster, HostSpec h) {
    if (!h.limited()) {
      return "-";
    }
    return cgroupName(cluster, h)
        + "/"
        + (h.cpus() == null ? "-" : Long.toString(Math.round(h.cpus() * 100_000)))
        + "/"
        + (h.cores() == null ? "-" : h.cores())
        + "/"
        + (h.memory() == null ? "-" : Long.toString(h.memoryBytes()));
  }

  /** solrscale-CLUSTER-HOST: lab hosts share one kernel, so the host is part of the name. */
  private static String cgroupName(ClusterState cluster, HostSpec h) {
    return "solrscale-" + cluster.name() + "-" + h.ssh().replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  /** The path of a node's folder on its host. */
  private String remoteDir(ClusterState cluster, NodeState node, int minimumJava) {
    return info(host(cluster, node), minimumJava).dir()
        + "/clusters/"
        + cluster.name()
        + "/"
        + node.id();
  }

  private String remoteDir(ClusterState cluster, NodeState node) {
    return remoteDir(cluster, node, 0);
  }

  // ---------------------------------------------------------------- preparing hosts

  @Override
  public void prepare(ClusterState cluster, SolrRuntime runtime, Path nodeJar) {
    List<HostSpec> used =
        cluster.nodes().stream()
            .filter(NodeState::remote)
            .map(NodeState::ssh)
            .distinct()
            .map(cluster.spec()::hostNamed)
            .toList();
    int minimumJava = runtime.minimumJava();
    List<String> problems =
        Parallel.map(used, h -> unfit(h, minimumJava)).stream().filter(p -> p != null).toList();
    problems = new ArrayList<>(problems);
    if (problems.isEmpty()) {
      problems.addAll(busyPorts(cluster, used));
    }
    if (!problems.isEmpty()) {
      throw SolrscaleException.environment(String.join("\n", problems));
    }
    OnHosts where =
        new OnHosts(
            "runtimes/" + ContentDigest.of(runtime),
            "jars/" + ContentDigest.ofFile(nodeJar) + "/" + nodeJar.getFileName());
    Parallel.map(
        used,
        h -> {
          HostProbe.Info info = info(h, minimumJava);
          long sent = 0;
          String rt = info.dir() + "/" + where.runtime();
          List<String> there =
              ssh.agentOk(h, QUICK, "has", rt + "/.complete", info.dir() + "/" + where.nodeJar())
                  .lines()
                  .toList();
          if (!"yes".equals(there.get(0))) {
            ssh.agentOk(h, QUICK, "mkdir", info.dir() + "/runtimes");
            String partial = rt + ".partial";
            sent += ssh.copy(h, runtime.dir().resolve("lib"), partial, info.rsync());
            ssh.run(h, List.of("touch", partial + "/.complete"), null, QUICK);
            ssh.agentOk(h, QUICK, "commit", partial, rt);
          }
          if (!"yes".equals(there.get(1))) {
            sent += ssh.putOnce(h, info.dir(), nodeJar, info.rsync()).bytes();
          }
          progress.accept(
              h.ssh()
                  + ": "
                  + (sent == 0
                      ? "Solr " + runtime.version() + " runtime already there, nothing copied"
                      : String.format(
                          "copied %,d bytes (Solr %s runtime)", sent, runtime.version())));
          return null;
        });
    onHosts.put(runtime.version(), where);
  }

  /** A one-line error for each recorded port of a node not running that is busy on its host. */
  private List<String> busyPorts(ClusterState cluster, List<HostSpec> used) {
    List<String> problems = new ArrayList<>();
    for (HostSpec h : used) {
      Set<Integer> busy = info(h, 0).listening();
      for (NodeState n : cluster.nodes()) {
        if (!h.ssh().equals(n.ssh()) || state(cluster, n).alive()) {
          continue;
        }
        for (int p : List.of(n.port(), n.peerPort(), n.electionPort())) {
          if (p > 0 && busy.contains(p)) {
            problems.add(
                "port "
                    + p
                    + " of "
                    + n.id()
                    + " is in use on host "
                    + h.ssh()
                    + "; stop what listens there or choose other ports (base_port)");
          }
        }
      }
    }
    return problems;
  }

  @Override
  public Ports ports(ClusterSpec spec, String host, List<ClusterState> others) {
    HostSpec h = spec.hostNamed(host);
    // the probe's list: a new cluster's ports are chosen and checked in one round trip per host
    return new Ports(address(spec, host), host, info(h, 0).listening(), others);
  }

  @Override
  public String address(ClusterSpec spec, String host) {
    HostSpec h = spec.hostNamed(host);
    return h.address() != null ? h.address() : ssh.hostName(h);
  }

  // ---------------------------------------------------------------- nodes

  @Override
  public Path nodeDir(ClusterState cluster, NodeState node) {
    return store.nodeDir(cluster.name(), node.id());
  }

  @Override
  public NodeState start(
      ClusterState cluster, NodeState node, SolrRuntime runtime, Jdk jdk, Path nodeJar) {
    HostSpec h = host(cluster, node);
    if (!onHosts.containsKey(runtime.version())) {
      prepare(cluster, runtime, nodeJar);
    }
    OnHosts where = onHosts.get(runtime.version());
    HostProbe.Info info = info(h, runtime.minimumJava());
    String rt = info.dir() + "/" + where.runtime();
    String jar = info.dir() + "/" + where.nodeJar();
    String there = remoteDir(cluster, node);
    Path stage = nodeDir(cluster, node).resolve("files");
    FileTrees.delete(stage);
    String classpath =
        runtime.classpath().stream()
            .map(p -> rt + "/" + p.getFileName())
            .collect(Collectors.joining(":"));
    List<String> cmd;
    try {
      Files.createDirectories(stage);
      if (node.isZk()) {
        NodeFiles.writeZk(stage, Path.of(there), node, cluster);
        cmd = NodeCommand.zk(info.java(), classpath, cluster, node, Path.of(there));
      } else {
        NodeFiles.writeSolr(stage, runtime.launcher().solrMajor());
        cmd =
            NodeCommand.solr(
                info.java(),
                classpath + ":" + jar,
                runtime.launcher().mainClass(),
                cluster,
                node,
                Path.of(there));
      }
      Files.write(stage.resolve("command.txt"), cmd);
      Files.write(nodeDir(cluster, node).resolve("command.txt"), cmd);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + stage + ": " + e.getMessage());
    }
    // one call: the node's small files go as arguments, then it starts
    List<String> args = new ArrayList<>();
    args.add(there);
    args.add(LocalProcesses.marker(cluster.name(), node.id()));
    args.add(cgroup(cluster, h));
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(stage)) {
      for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
        files.add(stage.relativize(f).toString());
        files.add(Files.readString(f));
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read " + stage + ": " + e.getMessage());
    }
    args.add(Integer.toString(files.size() / 2));
    args.addAll(files);
    args.addAll(cmd);
    String out = ssh.agentOk(h, QUICK, "start", args.toArray(String[]::new)).strip();
    try {
      return node.withPid(Long.parseLong(out));
    } catch (NumberFormatException e) {
      throw SolrscaleException.failed(
          "could not start " + node.id() + " on host " + h.ssh() + ": " + out);
    }
  }

  @Override
  public ProcessState state(ClusterState cluster, NodeState node) {
    if (node.pid() <= 0) {
      return ProcessState.STOPPED;
    }
    String marker = LocalProcesses.marker(cluster.name(), node.id());
    Ssh.Result r =
        ssh.agent(host(cluster, node), QUICK, "state", Long.toString(node.pid()), marker);
    if (!r.ok()) {
      throw ssh.failure(host(cluster, node), r, "checking " + node.id());
    }
    return switch (r.out().strip()) {
      case "running" -> ProcessState.RUNNING;
      case "paused" -> ProcessState.PAUSED;
      case "stopped" -> ProcessState.STOPPED;
      default -> ProcessState.DEAD;
    };
  }

  @Override
  public boolean stop(ClusterState cluster, NodeState node, Duration grace) {
    if (node.pid() <= 0) {
      return false;
    }
    String out =
        ssh.agentOk(
            host(cluster, node),
            grace.plusSeconds(30),
            "stop",
            Long.toString(node.pid()),
            LocalProcesses.marker(cluster.name(), node.id()),
            Long.toString(Math.max(1, grace.toSeconds())));
    return "yes".equals(out.strip());
  }

  private boolean signal(ClusterState cluster, NodeState node, String signal) {
    if (node.pid() <= 0) {
      return false;
    }
    String out =
        ssh.agentOk(
            host(cluster, node),
            QUICK,
            "signal",
            signal,
            Long.toString(node.pid()),
            LocalProcesses.marker(cluster.name(), node.id()));
    return "yes".equals(out.strip());
  }

  @Override
  public boolean kill(ClusterState cluster, NodeState node) {
    return signal(cluster, node, "KILL");
  }

  @Override
  public void pause(ClusterState cluster, NodeState node) {
    signal(cluster, node, "STOP");
  }

  @Override
  public void resume(ClusterState cluster, NodeState node) {
    signal(cluster, node, "CONT");
  }

  @Override
  public String logTail(ClusterState cluster, NodeState node, int lines) {
    HostSpec h = host(cluster, node);
    String there = remoteDir(cluster, node);
    StringBuilder sb = new StringBuilder();
    String main = there + "/logs/" + (node.isZk() ? "zookeeper.log" : "solr.log");
    for (String f : List.of(there + "/logs/console.log", main)) {
      Ssh.Result r = ssh.agent(h, QUICK, "tail", f, Integer.toString(lines * 2));
      List<String> tail = r.out().lines().filter(l -> !l.isBlank()).toList();
      tail = tail.subList(Math.max(0, tail.size() - lines), tail.size());
      if (!tail.isEmpty()) {
        sb.append("--- last lines of ").append(h.ssh()).append(':').append(f).append('\n');
        tail.forEach(l -> sb.append("  ").append(l).append('\n'));
      }
    }
    return sb.toString();
  }

  @Override
  public void fetchLogs(ClusterState cluster, NodeState node) {
    HostSpec h = host(cluster, node);
    ssh.fetch(
        h,
        remoteDir(cluster, node) + "/logs",
        nodeDir(cluster, node).resolve("logs"),
        info(h, 0).rsync());
  }

  @Override
  public void deleteData(ClusterState cluster, NodeState node) {
    HostSpec h = host(cluster, node);
    String there = remoteDir(cluster, node);
    ssh.agentOk(h, QUICK, "rm", info(h, 0).dir(), there + "/data", there + "/home", there + "/tmp");
  }

  @Override
  public void deleteNode(ClusterState cluster, NodeState node) {
    HostSpec h = host(cluster, node);
    ssh.agentOk(h, QUICK, "rm", info(h, 0).dir(), remoteDir(cluster, node));
    FileTrees.delete(nodeDir(cluster, node));
  }

  @Override
  public void dropCaches(ClusterState cluster, NodeState node) {
    onHosts(cluster, Map.of(node.ssh(), List.of("drop-caches")), "drop_caches");
  }

  @Override
  public String solrHome(ClusterState cluster, NodeState node) {
    return remoteDir(cluster, node) + "/home";
  }

  @Override
  public List<String> solrscaleCommand(ClusterState cluster, NodeState node, List<String> args) {
    HostSpec h = host(cluster, node);
    HostProbe.Info info = info(h, 17); // solrscale's jar needs Java 17
    if (info.java() == null) {
      throw SolrscaleException.environment(
          "host " + h.ssh() + " has no Java 17 or newer to run solrscale's jar");
    }
    Ssh.Put jar = ssh.putOnce(h, info.dir(), SolrscaleJar.path("this command"), info.rsync());
    List<String> remote = new ArrayList<>(List.of(info.java(), "-jar", jar.path()));
    remote.addAll(args);
    return ssh.command(h, remote);
  }

  /** jcmd beside the java the node runs on (found through /proc on its host), over SSH. */
  @Override
  public String jcmd(ClusterState cluster, NodeState node, List<String> args) {
    if (state(cluster, node) != ProcessState.RUNNING) {
      throw SolrscaleException.environment(
          node.id() + " is not running; start it (solrscale node start) or leave --profile out");
    }
    HostSpec h = host(cluster, node);
    List<String> remote =
        new ArrayList<>(
            List.of(
                "sh",
                "-c",
                "exec \"$(dirname \"$(readlink /proc/$1/exe)\")/jcmd\" \"$@\"",
                "sh",
                Long.toString(node.pid())));
    remote.addAll(args);
    Ssh.Result r = ssh.run(h, remote, null, Duration.ofSeconds(60));
    if (!r.ok()) {
      throw SolrscaleException.environment(
          "jcmd for "
              + node.id()
              + " on host "
              + h.ssh()
              + " failed: "
              + (r.out() + " " + r.err()).strip().replace('\n', ' '));
    }
    return r.out();
  }

  @Override
  public String scratchDir(ClusterState cluster, NodeState node) {
    return remoteDir(cluster, node) + "/tmp";
  }

  @Override
  public void collect(ClusterState cluster, NodeState node, String from, Path to) {
    HostSpec h = host(cluster, node);
    ssh.fetch(h, from, to, info(h, 0).rsync());
    ssh.agentOk(h, QUICK, "rm", info(h, 0).dir(), from);
  }

  @Override
  public String readFile(ClusterState cluster, NodeState node, String path) {
    HostSpec h = host(cluster, node);
    Ssh.Result r =
        ssh.run(
            h, List.of("sh", "-c", "[ -f \"$1\" ] && cat \"$1\" || true", "sh", path), null, QUICK);
    if (!r.ok()) {
      throw ssh.failure(h, r, "reading " + path);
    }
    return r.out().isEmpty() ? null : r.out();
  }

  @Override
  public HostFacts facts(ClusterState cluster, NodeState node) {
    HostSpec h = host(cluster, node);
    return info(h, 0).facts().limitedBy(h.limitsText());
  }

  // ---------------------------------------------------------------- network faults

  /** Each host of the cluster's nodes and the address its nodes listen on. */
  private static Map<String, String> addresses(ClusterState cluster) {
    Map<String, String> out = new LinkedHashMap<>();
    for (NodeState n : cluster.nodes()) {
      if (n.remote()) {
        out.putIfAbsent(n.ssh(), n.host());
      }
    }
    return out;
  }

  /** Runs one agent operation on each host at once; every host is tried, then failures reported. */
  private void onHosts(ClusterState cluster, Map<String, List<String>> argsByHost, String what) {
    List<Map.Entry<String, List<String>>> tasks = new ArrayList<>(argsByHost.entrySet());
    List<String> errors =
        Parallel.map(
            tasks,
            t -> {
              HostSpec h = cluster.spec().hostNamed(t.getKey());
              Ssh.Result r = ssh.agent(h, QUICK, t.getValue().get(0), tail(t.getValue()));
              if (r.ok()) {
                return null;
              }
              if (r.exit() == 5) {
                return what
                    + " needs root on host "
                    + h.ssh()
                    + " (it changes the host's network); reach it as root, e.g. ssh: root@"
                    + h.ssh().replaceFirst("^.*@", "");
              }
              return ssh.failure(h, r, what).getMessage();
            });
    List<String> problems = errors.stream().filter(e -> e != null).distinct().toList();
    if (!problems.isEmpty()) {
      throw SolrscaleException.environment(String.join("\n", problems));
    }
  }

  private static String[] tail(List<String> args) {
    return args.subList(1, args.size()).toArray(String[]::new);
  }

  @Override
  public void partition(ClusterState cluster, List<String> hosts, boolean cut) {
    Map<String, String> addr = addresses(cluster);
    List<String> others = addr.keySet().stream().filter(h -> !hosts.contains(h)).toList();
    if (others.isEmpty()) {
      throw SolrscaleException.usage(
          "a partition of every host of the cluster cuts nothing off; name some of its hosts");
    }
    String how = cut ? "block" : "unblock";
    Map<String, List<String>> args = new LinkedHashMap<>();
    for (String h : hosts) {
      List<String> a = new ArrayList<>(List.of("routes", how));
      others.forEach(o -> a.add(addr.get(o)));
      args.put(h, a);
    }
    for (String o : others) {
      List<String> a = new ArrayList<>(List.of("routes", how));
      hosts.forEach(h -> a.add(addr.get(h)));
      args.put(o, a);
    }
    onHosts(cluster, args, "partition");
  }

  @Override
  public void bandwidth(ClusterState cluster, List<String> hosts, String rate) {
    Map<String, String> addr = addresses(cluster);
    Map<String, List<String>> args = new LinkedHashMap<>();
    for (String h : hosts) {
      String dir = info(cluster.spec().hostNamed(h), 0).dir();
      args.put(
          h,
          rate == null
              ? List.of("cap", dir, addr.get(h), "-")
              : List.of("cap", dir, addr.get(h), rate, Long.toString(burstBytes(rate))));
    }
    onHosts(cluster, args, "bandwidth");
  }

  /** A token bucket of 10 ms at {@code rate} (e.g. 100mbit), as the lab network's caps have. */
  static long burstBytes(String rate) {
    return LinkRate.parse(rate).burstBytes(); // a bad rate is a one-line usage error there
  }

  @Override
  public void link(ClusterState cluster, List<String> hosts, boolean up) {
    for (String h : hosts) {
      LabNet.link(home, h, up);
    }
  }

  @Override
  public void close(ClusterState cluster) {
    // close follows stopping every node (down, or an up that failed): their cgroups go too
    List<HostSpec> limited =
        cluster.nodes().stream()
            .filter(NodeState::remote)
            .map(NodeState::ssh)
            .distinct()
            .map(cluster.spec()::hostNamed)
            .filter(HostSpec::limited)
            .toList();
    Parallel.map(
        limited,
        h -> {
          try {
            Ssh.Result r =
                ssh.agent(
                    h, QUICK, "cgroup-rm", info(h, 0).dir() + "/cgroups/" + cgroupName(cluster, h));
            if (!r.ok()) {
              throw ssh.failure(h, r, "removing the cluster's cgroups");
            }
          } catch (SolrscaleException e) {
            progress.accept("warning: " + e.getMessage());
          }
          return null;
        });
    for (HostSpec h : cluster.spec().hosts()) {
      ssh.close(h);
    }
  }
}
