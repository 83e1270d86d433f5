package org.solrscale.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.runtime.SolrscaleJar;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * What only hosts reached over SSH need, for {@link HostOps}: each host's facts asked once ({@link
 * HostProbe}), whether it is fit to run nodes, the runtime and node jar copied to it once,
 * content-addressed, under its solrscale directory ({@code dir} in the spec, else {@code
 * $SOLRSCALE_HOST_DIR} there, else {@code ~/.solrscale-host}), its ports and address, the cgroup
 * the cluster's nodes share on it, and its {@link SshRemote}.
 */
final class SshHosts {
  private static final Duration QUICK = Duration.ofSeconds(60);

  /** A host needs at least this much free disk for a runtime and a node's data. */
  static final long MIN_FREE_MB = 1024;

  private final Ssh ssh;
  private final Consumer<String> progress;
  private final Predicate<NodeState> alive;
  private final Map<String, HostProbe.Info> hosts = new ConcurrentHashMap<>();
  private final Map<String, HostProbe.Where> wheres = new ConcurrentHashMap<>();
  private final Map<String, SshRemote> remotes = new ConcurrentHashMap<>();

  /**
   * Where prepare put a Solr version's runtime, the node jar and the class-data archive (null:
   * none), under each host's directory, and the hosts whose nodes take that archive.
   */
  private record OnHosts(String runtime, String nodeJar, String archive, Set<String> archived) {}

  private final Map<String, OnHosts> onHosts = new ConcurrentHashMap<>();

  /** {@code alive}: whether a node's process runs (asked for the ports of stopped nodes). */
  SshHosts(
      SolrscaleHome home,
      StateStore store,
      String cluster,
      Consumer<String> progress,
      Predicate<NodeState> alive) {
    this.ssh = new Ssh(home, store.clusterDir(cluster));
    this.progress = progress;
    this.alive = alive;
  }

  /** The remote of {@code host}, made once. */
  SshRemote remote(HostSpec host) {
    return remotes.computeIfAbsent(
        host.ssh(), k -> new SshRemote(ssh, host, () -> where(host).rsync()));
  }

  /** The one-line error of a failed command on a host. */
  SolrscaleException failure(HostSpec host, Remote.Result r, String what) {
    return ssh.failure(host, r, what);
  }

  /** The host's solrscale directory. */
  String dir(HostSpec host) {
    return where(host).dir();
  }

  /** The host's directory and rsync: from its full probe when there was one, else a light one. */
  private HostProbe.Where where(HostSpec host) {
    HostProbe.Info known = hosts.get(host.ssh());
    if (known != null) {
      return new HostProbe.Where(known.dir(), known.rsync());
    }
    return wheres.computeIfAbsent(host.ssh(), k -> HostProbe.where(ssh, host));
  }

  /** What the host is, with the limits its nodes run under. */
  HostFacts facts(HostSpec host) {
    return info(host, 0).facts().limitedBy(host.limitsText());
  }

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
   * Checks every host the cluster's nodes run on (reachable, Java of at least the runtime's, disk,
   * the recorded ports free: one line per host that is not) and puts the runtime and node jar
   * there.
   */
  void prepare(ClusterState cluster, NodeOps.Launch launch) {
    SolrRuntime runtime = launch.runtime();
    Path nodeJar = launch.nodeJar();
    ClassArchives.Archive archive = launch.archive();
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
            "jars/" + ContentDigest.ofFile(nodeJar) + "/" + nodeJar.getFileName(),
            archive == null || archive.making() ? null : "archives/" + archive.key(),
            ConcurrentHashMap.newKeySet());
    java.util.concurrent.atomic.AtomicInteger done =
        new java.util.concurrent.atomic.AtomicInteger();
    Parallel.map(
        used,
        h -> {
          HostProbe.Info info = info(h, minimumJava);
          long sent = 0;
          String rt = info.dir() + "/" + where.runtime();
          String jar = info.dir() + "/" + where.nodeJar();
          String arch = where.archive() == null ? null : info.dir() + "/" + where.archive();
          List<String> there =
              ssh.agentOk(
                      h,
                      QUICK,
                      "has",
                      rt + "/.complete",
                      jar,
                      arch == null ? "-" : arch + "/.complete")
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
          if (arch != null && !archive.jdkBuild().equals(info.javaBuild())) {
            progress.accept(
                h.ssh()
                    + ": its Java ("
                    + (info.javaBuild() == null ? "build unknown" : info.javaBuild())
                    + ") is not the one the class-data archive was made with ("
                    + archive.jdkBuild()
                    + "): its nodes start without it");
          } else if (arch != null) {
            if (!"yes".equals(there.get(2))) {
              ssh.agentOk(h, QUICK, "mkdir", info.dir() + "/archives");
              sent += ssh.copy(h, archive.dir(), arch + ".partial", info.rsync());
              // the archive takes jars of the time they had when it was made: the fixed one
              Remote.Result r =
                  ssh.run(
                      h,
                      List.of(
                          "sh",
                          "-c",
                          "touch -m -d @\"$1\" \"$2\"/*.jar \"$3\"",
                          "sh",
                          Long.toString(ClassArchives.FIXED_MTIME_SECONDS),
                          rt,
                          jar),
                      null,
                      QUICK);
              if (!r.ok()) {
                throw ssh.failure(h, r, "setting the times of the runtime's jars");
              }
              ssh.agentOk(h, QUICK, "commit", arch + ".partial", arch);
            }
            where.archived().add(h.ssh());
          }
          progress.accept(
              h.ssh()
                  + ": "
                  + (sent == 0
                      ? "Solr " + runtime.version() + " runtime already there, nothing copied"
                      : String.format(
                          "copied %,d bytes (Solr %s runtime%s)",
                          sent,
                          runtime.version(),
                          where.archived().contains(h.ssh()) ? ", class-data archive" : ""))
                  + " ("
                  + done.incrementAndGet()
                  + " of "
                  + used.size()
                  + " hosts)");
          return null;
        });
    onHosts.put(runtime.version(), where);
  }

  /** A one-line error for each recorded port of a node not running that is busy on its host. */
  private List<String> busyPorts(ClusterState cluster, List<HostSpec> used) {
    // the nodes' states asked through the ops written over Remote
    List<String> problems = new ArrayList<>();
    for (HostSpec h : used) {
      Set<Integer> busy = info(h, 0).listening();
      for (NodeState n : cluster.nodes()) {
        if (!h.ssh().equals(n.ssh()) || alive.test(n)) {
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

  Ports ports(ClusterSpec spec, String host, List<ClusterState> others) {
    HostSpec h = spec.hostNamed(host);
    // the probe's list: a new cluster's ports are chosen and checked in one round trip per host
    return new Ports(address(spec, host), host, info(h, 0).listening(), others);
  }

  String address(ClusterSpec spec, String host) {
    HostSpec h = spec.hostNamed(host);
    return h.address() != null ? h.address() : ssh.hostName(h);
  }

  // ---------------------------------------------------------------- nodes

  /**
   * A node's java and classpath (the node jar last) as its host has them, the runtime put there.
   */
  Installed installed(ClusterState cluster, HostSpec h, NodeOps.Launch launch) {
    SolrRuntime runtime = launch.runtime();
    if (!onHosts.containsKey(runtime.version())) {
      prepare(cluster, launch);
    }
    OnHosts where = onHosts.get(runtime.version());
    HostProbe.Info info = info(h, runtime.minimumJava());
    return new Installed(
        info.java(),
        info.dir() + "/" + where.runtime(),
        info.dir() + "/" + where.nodeJar(),
        where.archived().contains(h.ssh()) ? info.dir() + "/" + where.archive() : null);
  }

  /** The java and the solrscale jar (put there once) that run solrscale itself on the host. */
  List<String> solrscale(HostSpec h) {
    HostProbe.Info info = info(h, 17); // solrscale's jar needs Java 17
    if (info.java() == null) {
      throw SolrscaleException.environment(
          "host " + h.ssh() + " has no Java 17 or newer to run solrscale's jar");
    }
    Ssh.Put jar = ssh.putOnce(h, info.dir(), SolrscaleJar.path("this command"), info.rsync());
    return List.of(info.java(), "-jar", jar.path());
  }

  /**
   * The cgroup the cluster's nodes on a host share, as the agent's cgroup-exec takes it (NAME QUOTA
   * CORES MEMORY RECORD), or null when the host limits nothing.
   */
  List<String> cgroup(ClusterState cluster, HostSpec h) {
    if (!h.limited()) {
      return null;
    }
    String name = cgroupName(cluster, h);
    return List.of(
        name,
        h.cpus() == null ? "-" : Long.toString(Math.round(h.cpus() * 100_000)),
        h.cores() == null ? "-" : h.cores(),
        h.memory() == null ? "-" : Long.toString(h.memoryBytes()),
        dir(h) + "/cgroups/" + name);
  }

  /** solrscale-CLUSTER-HOST: lab hosts share one kernel, so the host is part of the name. */
  private static String cgroupName(ClusterState cluster, HostSpec h) {
    return "solrscale-" + cluster.name() + "-" + h.ssh().replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  /** Removes the cgroups of the cluster's limited hosts, then ends every SSH connection. */
  void close(ClusterState cluster) {
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
            Remote.Result r =
                ssh.agent(h, QUICK, "cgroup-rm", dir(h) + "/cgroups/" + cgroupName(cluster, h));
            if (!r.ok()) {
              throw ssh.failure(h, r, "removing the cluster's cgroups");
            }
          } catch (SolrscaleException e) {
            progress.accept("warning: " + e.getMessage());
          }
          return null;
        });
    Parallel.map( // each an `ssh -O exit`: at once, as everything else on all hosts
        cluster.spec().hosts(),
        h -> {
          Remote r = remotes.get(h.ssh());
          if (r != null) {
            r.close();
          } else {
            ssh.close(h); // a host probed but never reached through its remote
          }
          return null;
        });
    remotes.clear();
  }
}
