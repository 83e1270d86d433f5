package org.solrscale.scenario;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.HostFacts;
import org.solrscale.cluster.NodeState;
import org.solrscale.results.RunEnvironment;

/** Gathers environment.json ({@link RunEnvironment}): what a run ran on. */
final class Environment {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Environment() {}

  static RunEnvironment of(Cluster cluster, Path clusterDir, String solrVersion, String version) {
    List<RunEnvironment.Node> nodes = new ArrayList<>();
    cluster
        .state()
        .ifPresent(
            s -> {
              for (NodeState n : s.nodes()) {
                nodes.add(
                    new RunEnvironment.Node(
                        n.id(),
                        n.role().toString().toLowerCase(),
                        n.where(),
                        commandLine(clusterDir.resolve(n.id()).resolve("command.txt"))));
              }
            });
    // the nodes' host when solrscale runs them, else (a SolrCloud of someone else's) this machine's
    // (on hosts over SSH: this machine, where the driver ran; the hosts are listed under hosts)
    HostFacts host =
        cluster.state().isPresent() && !cluster.state().get().spec().onHosts()
            ? cluster.hosts().facts()
            : HostFacts.thisMachine();
    List<RunEnvironment.Host> hosts = new ArrayList<>();
    cluster
        .state()
        .ifPresent(
            s -> {
              Map<String, List<NodeState>> byHost = new LinkedHashMap<>();
              s.nodes().stream()
                  .filter(NodeState::remote)
                  .forEach(n -> byHost.computeIfAbsent(n.ssh(), k -> new ArrayList<>()).add(n));
              byHost.forEach(
                  (ssh, onIt) ->
                      hosts.add(
                          new RunEnvironment.Host(
                              ssh,
                              onIt.get(0).host(),
                              onIt.stream().map(NodeState::id).toList(),
                              JSON.valueToTree(cluster.hosts().facts(onIt.get(0))))));
            });
    return new RunEnvironment(
        host.cpuModel(),
        host.cores(),
        host.memoryBytes(),
        host.os(),
        host.kernel(),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        solrVersion,
        version,
        readGitRevision(),
        nodes,
        hosts);
  }

  private static List<String> commandLine(Path f) {
    try {
      return Files.isRegularFile(f) ? Files.readAllLines(f) : List.of();
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The git revision of the checkout the solrscale jar was built in, if it is one. */
  private static String readGitRevision() {
    try {
      Path jar =
          Path.of(Environment.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path root = jar.getParent() == null ? null : jar.getParent().getParent();
      root = root == null ? null : root.getParent();
      if (root == null || !Files.isDirectory(root.resolve(".git"))) {
        return "unknown";
      }
      Process p =
          new ProcessBuilder("git", "-C", root.toString(), "rev-parse", "HEAD")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes()).strip();
      return p.waitFor() == 0 ? out : "unknown";
    } catch (Exception e) {
      return "unknown";
    }
  }
}
