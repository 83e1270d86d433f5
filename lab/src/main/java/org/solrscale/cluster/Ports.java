package org.solrscale.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import org.solrscale.spec.SolrscaleException;

/**
 * Chooses free TCP ports: above a base, not bound by anyone now and not recorded by any other
 * solrscale cluster (stopped ones keep theirs), so clusters can run side by side.
 */
public final class Ports {
  private final String host;
  private final String ssh;
  private final Set<Integer> listening;
  private final Set<Integer> taken = new HashSet<>();

  /** Ports on this machine at {@code host}. */
  public Ports(String host, List<ClusterState> others) {
    this(host, null, null, others);
  }

  /**
   * Ports on host {@code ssh} (null: this machine), where {@code listening} are in use (null: ask
   * the OS here), avoiding what the {@code others} clusters recorded on that host.
   */
  Ports(String host, String ssh, Set<Integer> listening, List<ClusterState> others) {
    this.host = host;
    this.ssh = ssh;
    this.listening = listening;
    for (ClusterState c : others) {
      for (NodeState n : c.nodes()) {
        if (Objects.equals(n.ssh(), ssh)) {
          taken.add(n.port());
          taken.add(n.peerPort());
          taken.add(n.electionPort());
        }
      }
    }
  }

  private boolean free(int port) {
    return listening != null ? !listening.contains(port) : isFree(host, port);
  }

  private String where() {
    return ssh == null ? "" : " on host " + ssh;
  }

  /** The next free port at or above {@code from}. */
  public int next(int from) {
    for (int port = from; port < 65535; port++) {
      if (!taken.contains(port) && free(port)) {
        taken.add(port);
        return port;
      }
    }
    throw SolrscaleException.environment(
        "no free port above " + from + " on " + (ssh == null ? host : ssh));
  }

  /** Claims exactly {@code port}, or fails saying which process holds it. */
  public int exactly(int port, String flag) {
    if (taken.contains(port)) {
      throw SolrscaleException.environment(
          "port "
              + port
              + where()
              + " belongs to another solrscale cluster; pick another with "
              + flag);
    }
    if (!free(port)) {
      OptionalLong pid = ssh == null ? listeningPid(port) : OptionalLong.empty();
      throw SolrscaleException.environment(
          "port "
              + port
              + where()
              + " is in use"
              + (pid.isPresent() ? " by pid " + pid.getAsLong() : "")
              + "; pick another with "
              + flag);
    }
    taken.add(port);
    return port;
  }

  public static boolean isFree(String host, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Which process listens on a TCP port, from /proc (Linux); empty when it cannot be told. */
  static OptionalLong listeningPid(int port) {
    Set<String> inodes = new HashSet<>();
    String hexPort = String.format(":%04X", port);
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      try {
        for (String line : Files.readAllLines(Path.of(table))) {
          String[] f = line.trim().split("\\s+");
          if (f.length > 9 && f[1].endsWith(hexPort) && "0A".equals(f[3])) {
            inodes.add("socket:[" + f[9] + "]");
          }
        }
      } catch (IOException e) {
        // not Linux, or no IPv6
      }
    }
    if (inodes.isEmpty()) {
      return OptionalLong.empty();
    }
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : procs) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
          for (Path fd : fds) {
            if (inodes.contains(Files.readSymbolicLink(fd).toString())) {
              return OptionalLong.of(Long.parseLong(proc.getFileName().toString()));
            }
          }
        } catch (IOException | SecurityException e) {
          // another user's process, or it just exited
        }
      }
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    return OptionalLong.empty();
  }
}
