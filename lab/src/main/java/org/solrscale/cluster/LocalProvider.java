package org.solrscale.cluster;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleJar;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.SolrscaleException;

/** Runs nodes as processes on this machine: files, command line, start, signals, log tails. */
public final class LocalProvider implements Provider {
  private final StateStore store;
  private final LocalProcesses processes = new LocalProcesses();

  public LocalProvider(StateStore store) {
    this.store = store;
  }

  @Override
  public Path nodeDir(ClusterState cluster, NodeState node) {
    return store.nodeDir(cluster.name(), node.id());
  }

  @Override
  public String solrHome(ClusterState cluster, NodeState node) {
    return nodeDir(cluster, node).resolve("home").toAbsolutePath().toString();
  }

  @Override
  public List<String> solrscaleCommand(ClusterState cluster, NodeState node, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Jdk.running().java().toString());
    cmd.add("-jar");
    cmd.add(SolrscaleJar.path("this command").toString());
    cmd.addAll(args);
    return cmd;
  }

  /**
   * jcmd from the JDK the node's JVM runs on (beside its java, found through /proc), so that its
   * version matches; with a time limit, as a frozen JVM never answers.
   */
  @Override
  public String jcmd(ClusterState cluster, NodeState node, List<String> args) {
    if (processes.state(node.pid(), LocalProcesses.marker(cluster.name(), node.id()))
        != ProcessState.RUNNING) {
      throw SolrscaleException.environment(
          node.id() + " is not running; start it (solrscale node start) or leave --profile out");
    }
    Path java;
    try {
      java = Files.readSymbolicLink(Path.of("/proc/" + node.pid() + "/exe"));
    } catch (IOException e) {
      throw SolrscaleException.environment(
          node.id() + " (pid " + node.pid() + ") is not running; start it (solrscale node start)");
    }
    Path jcmd = java.resolveSibling("jcmd");
    if (!Files.isExecutable(jcmd)) {
      throw SolrscaleException.environment(
          node.id()
              + " runs on a Java without jcmd ("
              + java
              + "); run the cluster on a full JDK (SOLRSCALE_JAVA_HOME)");
    }
    List<String> cmd = new ArrayList<>(List.of(jcmd.toString(), Long.toString(node.pid())));
    cmd.addAll(args);
    return LocalProcesses.output(cmd, Duration.ofSeconds(60), node.id());
  }

  @Override
  public String readFile(ClusterState cluster, NodeState node, String path) {
    try {
      Path p = Path.of(path);
      return Files.isRegularFile(p) ? Files.readString(p) : null;
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read " + path + ": " + e.getMessage());
    }
  }

  /** Writes the node's files and starts its JVM; returns the node with its new pid. */
  @Override
  public NodeState start(
      ClusterState cluster, NodeState node, SolrRuntime runtime, Jdk jdk, Path nodeJar) {
    Path dir = nodeDir(cluster, node);
    try {
      Files.createDirectories(dir.resolve("logs"));
      Files.createDirectories(dir.resolve("tmp"));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot create " + dir + ": " + e.getMessage());
    }
    List<String> cmd;
    if (node.isZk()) {
      NodeFiles.writeZk(dir, node, cluster);
      cmd = NodeCommand.zk(jdk, runtime, cluster, node, dir);
    } else {
      NodeFiles.writeSolr(dir, runtime.launcher().solrMajor());
      cmd = NodeCommand.solr(jdk, runtime, nodeJar, cluster, node, dir);
    }
    try {
      // one argument per line: what exactly ran, for people and for scripts
      Files.write(dir.resolve("command.txt"), cmd);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + dir.resolve("command.txt"));
    }
    Map<String, String> env =
        node.isSolr() && cluster.spec().tls()
            ? Map.of(
                NodeCommand.TLS_PASSWORD_ENV,
                ClusterTls.load(dir.getParent()).secretForEnvironment())
            : Map.of();
    long pid = processes.start(cmd, dir, dir.resolve("logs").resolve("console.log"), env);
    return node.withPid(pid);
  }

  @Override
  public ProcessState state(ClusterState cluster, NodeState node) {
    return processes.state(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  /** Graceful stop (SIGTERM, then SIGKILL after the grace period). */
  @Override
  public boolean stop(ClusterState cluster, NodeState node, Duration grace) {
    return processes.stop(node.pid(), LocalProcesses.marker(cluster.name(), node.id()), grace);
  }

  @Override
  public boolean kill(ClusterState cluster, NodeState node) {
    return processes.kill(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  @Override
  public void pause(ClusterState cluster, NodeState node) {
    processes.pause(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  @Override
  public void resume(ClusterState cluster, NodeState node) {
    processes.resume(node.pid(), LocalProcesses.marker(cluster.name(), node.id()));
  }

  /** The last lines of the node's console and main logs, to show why it failed. */
  @Override
  public String logTail(ClusterState cluster, NodeState node, int lines) {
    Path dir = nodeDir(cluster, node);
    StringBuilder sb = new StringBuilder();
    for (Path f : List.of(NodeLogs.console(dir), NodeLogs.main(dir, node))) {
      List<String> tail = NodeLogs.tail(f, lines * 2).stream().filter(l -> !l.isBlank()).toList();
      tail = tail.subList(Math.max(0, tail.size() - lines), tail.size());
      if (!tail.isEmpty()) {
        sb.append("--- last lines of ").append(f).append('\n');
        tail.forEach(l -> sb.append("  ").append(l).append('\n'));
      }
    }
    return sb.toString();
  }

  @Override
  public void deleteData(ClusterState cluster, NodeState node) {
    Path dir = nodeDir(cluster, node);
    for (String sub : List.of("data", "home", "tmp")) {
      FileTrees.delete(dir.resolve(sub));
    }
  }

  @Override
  public void deleteNode(ClusterState cluster, NodeState node) {
    FileTrees.delete(nodeDir(cluster, node));
  }

  @Override
  public Ports ports(ClusterSpec spec, String ssh, List<ClusterState> others) {
    return new Ports(spec.host(), others);
  }

  @Override
  public String address(ClusterSpec spec, String ssh) {
    return spec.host();
  }

  @Override
  public void dropCaches(ClusterState cluster, NodeState node) {
    Path file = Path.of("/proc/sys/vm/drop_caches");
    if (!Files.isWritable(file)) {
      throw SolrscaleException.usage(
          "drop_caches needs root on this machine (it writes "
              + file
              + "); run as root or leave drop_caches out");
    }
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
      Files.writeString(file, "3\n");
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot drop the page cache: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while dropping the page cache");
    }
  }

  @Override
  public HostFacts facts(ClusterState cluster, NodeState node) {
    return thisMachine();
  }

  /** The facts of the machine solrscale runs on. */
  public static HostFacts thisMachine() {
    return new HostFacts(
        cpuModel(),
        Runtime.getRuntime().availableProcessors(),
        memory(),
        os(),
        System.getProperty("os.version"));
  }

  private static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).strip())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long memory() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return -1;
  }

  private static String os() {
    try {
      return Files.readAllLines(Path.of("/etc/os-release")).stream()
          .filter(l -> l.startsWith("PRETTY_NAME="))
          .map(l -> l.substring(12).replace("\"", ""))
          .findFirst()
          .orElse(System.getProperty("os.name"));
    } catch (IOException e) {
      return System.getProperty("os.name");
    }
  }
}
