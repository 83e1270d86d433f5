package org.solrscale.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * What a host gives a cluster's nodes, changed while they run, and what of an index its page cache
 * holds: the memory limit of the cluster's cgroup on the host (the host spec's {@code memory}, set
 * when the nodes started), transparent huge pages and a swap file (both the host's kernel's, so on
 * lab hosts this machine's), and per core the bytes of a collection's index files and of them in
 * the page cache ({@code fincore}). Each through the host agent; changing anything needs root
 * there. Obtained from {@link HostOps#limits()}.
 */
public final class HostLimits {
  /** The memory of the cluster's cgroup on a host, in bytes ({@code limit} -1: none). */
  public record Memory(String host, long limit, long rss, long cache, long swap, long failcnt) {}

  /** A core's index files on a host: bytes in all, and of them in the page cache. */
  public record Cached(String host, String core, long cached, long size) {}

  private final HostOps ops;
  private final ClusterState state;
  private final Map<String, NodeState> onHosts;

  HostLimits(HostOps ops, ClusterState state) {
    this.ops = ops;
    this.state = state;
    this.onHosts = HostOps.onHostsOrNone(state);
  }

  /** The hosts the cluster's nodes run on, in the order of the spec. */
  public List<String> hosts() {
    return List.copyOf(onHosts.keySet());
  }

  /**
   * The memory of the cluster's cgroup on {@code host}, after setting its limit to {@code bytes}
   * first when not null. A limit below what runs there holds is refused by the kernel: one line.
   */
  public Memory memory(String host, Long bytes) {
    NodeState n = node(host);
    HostSpec spec = state.spec().hostNamed(host);
    if (spec == null || spec.memory() == null) {
      throw SolrscaleException.usage(
          "host "
              + host
              + " gives the cluster's nodes no memory limit to change; give it one in the cluster"
              + " spec, e.g. hosts: [{ssh: "
              + host
              + ", memory: 8g}]");
    }
    String name = ops.cgroupOf(spec).get(0);
    Remote.Result r =
        bytes == null
            ? ops.agentOn(n, "memory", name)
            : ops.agentOn(n, "memory", name, Long.toString(bytes));
    check(n, r, bytes == null ? "reading the memory of" : "setting the memory limit of");
    Map<String, String> kv = keyValues(r.out());
    String limit = kv.getOrDefault("limit", "max");
    return new Memory(
        host,
        limit.equals("max") ? -1 : Long.parseLong(limit),
        num(kv.get("rss")),
        num(kv.get("cache")),
        num(kv.get("swap")),
        num(kv.get("failcnt")));
  }

  /**
   * Sets transparent huge pages on {@code host} ({@code always}, {@code madvise}, {@code never};
   * null: leaves them); returns the mode before.
   */
  public String thp(String host, String mode) {
    NodeState n = node(host);
    Remote.Result r = ops.agentOn(n, "thp", mode == null ? "-" : mode);
    check(n, r, "setting transparent huge pages on");
    return r.out().strip();
  }

  /**
   * Throttles the reads of the cluster's nodes on {@code host} from the disk that holds solrscale's
   * folder there (their homes) to {@code iops} a second (a slower disk: each page the cache lost
   * costs a wait), or with null puts them back; the nodes running now are moved, so call it again
   * after a restart. Returns how many processes were moved.
   */
  public int readIops(String host, Integer iops) {
    NodeState n = node(host);
    HostSpec spec = state.spec().hostNamed(host);
    if (spec == null || !spec.limited()) {
      throw SolrscaleException.usage(
          "host "
              + host
              + " runs the cluster's nodes in no cgroup of their own; give it memory, cpus or"
              + " cores in the cluster spec for read_iops");
    }
    List<String> cgroup = ops.cgroupOf(spec); // name, quota, cores, memory, record
    Remote.Result r =
        ops.agentOn(
            n,
            "blkio",
            cgroup.get(0),
            ops.base(n), // solrscale's folder there, which holds the nodes' homes
            iops == null ? "-" : Integer.toString(iops),
            cgroup.get(4));
    check(n, r, iops == null ? "putting back the disk reads of" : "throttling the disk reads of");
    String[] f = r.out().strip().split(" ");
    return iops == null || f.length < 2 ? 0 : Integer.parseInt(f[1]);
  }

  /** The swap file of this cluster on {@code host}, under solrscale's directory there. */
  public String swapFile(String host) {
    return ops.base(node(host)) + "/swap/" + state.name() + ".swap";
  }

  /** Makes a swap file of {@code bytes} on {@code host} and switches it on. */
  public void swapOn(String host, long bytes) {
    NodeState n = node(host);
    check(n, ops.agentOn(n, "swap-on", swapFile(host), Long.toString(bytes)), "swap on");
  }

  /** Switches the cluster's swap file on {@code host} off and deletes it (none is fine). */
  public void swapOff(String host) {
    NodeState n = node(host);
    check(n, ops.agentOn(n, "swap-off", swapFile(host)), "swap off on");
  }

  /**
   * Per core of {@code collection} on every host (of every Solr node): the bytes of its index files
   * and of them in the page cache now.
   */
  public List<Cached> cached(String collection) {
    List<NodeState> solr = state.solrNodes();
    List<List<Cached>> per =
        Parallel.map(
            solr,
            n -> {
              Remote.Result r = ops.agentOn(n, "cached", ops.solrHome(n), collection);
              check(n, r, "reading the page cache on");
              List<Cached> out = new ArrayList<>();
              for (String line : r.out().strip().split("\n")) {
                String[] f = line.strip().split(" ", 3);
                if (f.length == 3) {
                  out.add(new Cached(n.where(), f[2], Long.parseLong(f[0]), Long.parseLong(f[1])));
                }
              }
              return out;
            });
    return per.stream().flatMap(List::stream).toList();
  }

  private NodeState node(String host) {
    NodeState n = onHosts.get(host);
    if (n == null) {
      throw SolrscaleException.usage(
          "'"
              + host
              + "' runs none of cluster "
              + state.name()
              + "'s nodes; give one of "
              + (onHosts.isEmpty()
                  ? "(none: its nodes run on this machine)"
                  : String.join(", ", hosts())));
    }
    return n;
  }

  private void check(NodeState n, Remote.Result r, String what) {
    if (r.ok()) {
      return;
    }
    if (r.exit() == 5) {
      throw SolrscaleException.usage(
          what
              + " host "
              + n.where()
              + " needs root there; reach it as root, e.g. ssh: root@"
              + n.where().replaceFirst("^.*@", ""));
    }
    String[] lines = r.err().strip().split("\n");
    throw SolrscaleException.environment(
        what + " host " + n.where() + ": " + lines[lines.length - 1].strip());
  }

  private static Map<String, String> keyValues(String out) {
    Map<String, String> kv = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        kv.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
      }
    }
    return kv;
  }

  private static long num(String s) {
    return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
  }
}
