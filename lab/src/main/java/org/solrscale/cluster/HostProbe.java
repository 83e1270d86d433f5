package org.solrscale.cluster;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * Asks a host over SSH what it is and has (its solrscale directory, a Java of at least a version,
 * free disk, rsync, CPU, memory, OS, kernel, its clock, the ports something listens on, whether it
 * is reached as root, the cgroup limits its sessions run under) in one round trip of the host
 * agent.
 */
public final class HostProbe {
  static final Duration QUICK = Duration.ofSeconds(60);

  private HostProbe() {}

  /** What a host told the probe. */
  public record Info(
      String dir,
      String java,
      int javaFeature,
      String javaBuild,
      String tooOldJava,
      long freeMb,
      boolean rsync,
      HostFacts facts,
      long clockOffsetMs,
      Set<Integer> listening,
      boolean root) {}

  /** Where solrscale's directory is on a host and whether it has rsync. */
  public record Where(String dir, boolean rsync) {}

  /**
   * The host's directory and rsync, in one cheap round trip: no Java started, no clock read, for
   * commands that only stop, ask and fetch (status, down, logs) on many hosts.
   */
  public static Where where(Ssh ssh, HostSpec host) {
    Remote.Result r = ssh.agent(host, QUICK, "where", host.dir() == null ? "-" : host.dir());
    if (!r.ok()) {
      throw ssh.failure(host, r, "probing");
    }
    String dir = null;
    boolean rsync = false;
    for (String line : r.out().split("\n")) {
      if (line.startsWith("error=")) {
        throw SolrscaleException.environment("host " + host.ssh() + ": " + line.substring(6));
      } else if (line.startsWith("dir=")) {
        dir = line.substring(4).strip();
      } else if (line.startsWith("rsync=")) {
        rsync = line.substring(6).strip().equals("yes");
      }
    }
    return new Where(dir, rsync);
  }

  public static Info probe(Ssh ssh, HostSpec host, int minimumJava) {
    Remote.Result r =
        ssh.agent(
            host,
            QUICK,
            "probe",
            host.dir() == null ? "-" : host.dir(),
            Integer.toString(minimumJava),
            host.javaHome() == null ? "-" : host.javaHome());
    if (!r.ok()) {
      throw ssh.failure(host, r, "probing");
    }
    Map<String, String> kv = new LinkedHashMap<>();
    for (String line : r.out().split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        kv.put(line.substring(0, eq), line.substring(eq + 1).strip());
      }
    }
    if (kv.containsKey("error")) {
      throw SolrscaleException.environment("host " + host.ssh() + ": " + kv.get("error"));
    }
    String java = kv.getOrDefault("java", "");
    String tooOld = null;
    String javaPath = null;
    int feature = 0;
    String build = null;
    if (java.startsWith("too-old ")) {
      tooOld = java.substring(8);
    } else if (!java.isBlank()) {
      String[] parts = java.split(" ");
      javaPath = parts[0];
      feature = Integer.parseInt(parts[1]);
      build = parts.length > 2 && !parts[2].equals("-") ? parts[2] : null;
    }
    Long offset = clockOffset(ssh, host);
    HostFacts facts =
        new HostFacts(
            kv.getOrDefault("cpu", "unknown"),
            (int) parseLong(kv.get("cores")),
            parseLong(kv.get("memory_kb")) * 1024,
            kv.getOrDefault("os", ""),
            kv.getOrDefault("kernel", ""),
            javaPath == null ? null : javaPath + " (Java " + feature + ")",
            offset,
            kv.getOrDefault("limits", "").isBlank() ? null : kv.get("limits"));
    return new Info(
        kv.get("dir"),
        javaPath,
        feature,
        build,
        tooOld,
        parseLong(kv.get("free_mb")),
        "yes".equals(kv.get("rsync")),
        facts,
        offset == null ? 0 : offset,
        ports(kv.getOrDefault("listening", "")),
        "yes".equals(kv.get("root")));
  }

  /**
   * The host's clock minus this machine's, from the fastest of three round trips of a bare {@code
   * date} over the connection the probe opened (the probe itself does too much between its start
   * and its clock reading for its midpoint to mean anything: 420 ms off on one lab host); null when
   * the host does not tell.
   */
  static Long clockOffset(Ssh ssh, HostSpec host) {
    Long best = null;
    long bestTrip = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      long before = System.currentTimeMillis();
      Remote.Result r = ssh.run(host, List.of("date", "+%s%3N"), null, QUICK);
      long after = System.currentTimeMillis();
      long there = parseLong(r.out().strip());
      if (r.ok() && there > 0 && after - before < bestTrip) {
        bestTrip = after - before;
        best = there - (before + after) / 2;
      }
    }
    return best;
  }

  private static long parseLong(String s) {
    try {
      return s == null ? 0 : Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Set<Integer> ports(String list) {
    Set<Integer> ports = new TreeSet<>();
    for (String p : list.split("[,\\s]+")) {
      if (!p.isBlank()) {
        ports.add(Integer.parseInt(p.strip()));
      }
    }
    return ports;
  }
}
