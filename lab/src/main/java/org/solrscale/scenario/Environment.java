package org.solrscale.scenario;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.HostFacts;
import org.solrscale.cluster.NodeState;
import org.solrscale.results.RanOn;
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
        gitRevision(),
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

  /**
   * Where a repeat starts ({@link RanOn}): this machine's boot id, {@code revision}, now, and a CPU
   * score measured here and now.
   */
  static RanOn ranOn(String revision) {
    return new RanOn(bootId(), revision, Instant.now().toString(), cpuScore());
  }

  /** Linux's id of this boot (new at every boot and on every machine), or null elsewhere. */
  static String bootId() {
    try {
      return Files.readString(BOOT_ID).strip();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

  /**
   * A short single-thread calibration: MiB/s of SHA-256 over 1 MiB, the best of three rounds of at
   * least 100 ms (about 0.3 s), rounded; a machine 20 % slower scores about 20 % less, and a busy
   * one less too. Not a benchmark: a way to tell machines and moments apart.
   */
  static double cpuScore() {
    byte[] block = new byte[1 << 20];
    new SplittableRandom(1).nextBytes(block);
    double best = 0;
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (int round = 0; round < 3; round++) {
        long t0 = System.nanoTime();
        long elapsed;
        int n = 0;
        do {
          sha.update(block);
          n++;
          elapsed = System.nanoTime() - t0;
        } while (elapsed < 100_000_000L);
        sha.digest();
        best = Math.max(best, n / (elapsed / 1e9));
      }
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every Java has SHA-256
    }
    return Math.round(best * 10) / 10.0;
  }

  /** The git revision of the checkout the solrscale jar was built in, if it is one. */
  static String gitRevision() {
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
