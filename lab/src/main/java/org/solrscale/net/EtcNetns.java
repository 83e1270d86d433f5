package org.solrscale.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.solrscale.spec.SolrscaleException;

/**
 * /etc/netns/NAMESPACE/{resolv.conf,hosts}: what {@code ip netns exec} binds over /etc for the sshd
 * of a lab host and so for everything started over SSH there. Without them a lab host asks the
 * machine's DNS server, which it cannot reach, and every name lookup (a JVM's own host name,
 * ZooKeeper's and Solr's) waits for DNS timeouts: Solr then missed its 15 s to connect to
 * ZooKeeper. The hosts file names the net's hosts, so they reach each other by name.
 */
final class EtcNetns {
  static final Path ROOT = Path.of("/etc/netns");
  private static final String MARK = ".made-by-solrscale";

  private EtcNetns() {}

  static void write(NetState net, NetHost host) {
    Path dir = ROOT.resolve(host.namespace());
    StringBuilder hosts =
        new StringBuilder("# written by solrscale for lab host " + host.name() + "\n")
            .append("127.0.0.1\tlocalhost\n")
            .append("::1\tlocalhost ip6-localhost ip6-loopback\n");
    // the machine's host name is the lab host's too (the UTS namespace is shared): like a real
    // machine's, it resolves to the host's own address (a JVM's getLocalHost() asks)
    hosts.append(host.address()).append('\t').append(machineName()).append('\n');
    for (NetHost h : net.hosts()) {
      hosts.append(h.address()).append('\t').append(h.name()).append('\n');
    }
    try {
      if (!Files.isDirectory(ROOT)) { // made here: marked, so that the last net down removes it
        Files.createDirectories(ROOT);
        Files.writeString(ROOT.resolve(MARK), "made by solrscale's net up\n");
      }
      Files.createDirectories(dir);
      Files.writeString(
          dir.resolve("resolv.conf"),
          "# written by solrscale: lab host "
              + host.name()
              + " has no DNS server; its names are in /etc/hosts\n");
      Files.writeString(dir.resolve("hosts"), hosts.toString());
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + dir + ": " + e.getMessage());
    }
  }

  private static String machineName() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      return "localhost";
    }
  }

  /** Removes what {@link #write} made for the namespace; nothing else. */
  static void delete(String namespace) {
    Path dir = ROOT.resolve(namespace);
    try {
      Files.deleteIfExists(dir.resolve("resolv.conf"));
      Files.deleteIfExists(dir.resolve("hosts"));
      if (Files.isDirectory(dir)) {
        try (var rest = Files.list(dir)) {
          if (rest.findAny().isEmpty()) {
            Files.delete(dir);
          }
        }
      }
      // /etc/netns itself, when solrscale made it and nothing else is left in it
      if (Files.isRegularFile(ROOT.resolve(MARK))) {
        try (var rest = Files.list(ROOT)) {
          if (rest.allMatch(f -> f.getFileName().toString().equals(MARK))) {
            Files.delete(ROOT.resolve(MARK));
            Files.delete(ROOT);
          }
        }
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot remove " + dir + ": " + e.getMessage());
    }
  }
}
