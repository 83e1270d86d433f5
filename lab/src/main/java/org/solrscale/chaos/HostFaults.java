package org.solrscale.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.SlowLink;
import org.solrscale.results.LinkFault;
import org.solrscale.results.LinkProbe;
import org.solrscale.spec.FaultKind;
import org.solrscale.spec.Slowness;
import org.solrscale.spec.StepSpec;

/**
 * Faults of the network of a cluster on hosts: their target is hosts (a host, {@code host-of:NODE},
 * a label {@code KEY=VALUE} such as {@code dc=east}, several comma-separated, or random) and the
 * nodes they take are the nodes on those hosts, so the safety rules see a partitioned host as down.
 */
final class HostFaults {
  private HostFaults() {}

  /** The hosts {@code target} names, or one at random whose nodes may go down. */
  static List<String> hosts(
      String target, Topology t, Set<String> down, Random rnd, boolean unsafe, FaultKind kind) {
    List<String> all = new ArrayList<>(new LinkedHashSet<>(orderedHosts(t)));
    if (all.isEmpty()) {
      throw new Targets.NoTarget(
          kind.id() + " needs a cluster on hosts (up --hosts); this one runs on this machine");
    }
    if (target == null || target.equals("random")) {
      List<String> ok = new ArrayList<>();
      SafetyRules.Violation first = null;
      for (String h : all) {
        List<String> nodes = nodesOn(t, List.of(h));
        if (nodes.stream().anyMatch(down::contains)) {
          continue;
        }
        SafetyRules.Violation v = unsafe ? null : SafetyRules.check(t, down, nodes);
        if (v == null) {
          ok.add(h);
        } else if (first == null) {
          first =
              new SafetyRules.Violation(
                  "no host's nodes can be taken down safely now (" + h + ": " + v.reason() + ")",
                  v.needs());
        }
      }
      if (ok.isEmpty()) {
        if (first != null) {
          throw Targets.NoTarget.refused(kind.id() + " random", kind.id(), first);
        }
        throw Targets.NoTarget.now("no host's nodes can be taken down now: all are down");
      }
      return List.of(ok.get(rnd.nextInt(ok.size())));
    }
    Set<String> out = new LinkedHashSet<>();
    for (String part : target.split(",")) {
      part = part.strip();
      if (part.startsWith("host-of:")) {
        String node = part.substring(8);
        String h = t.hostOf().get(node);
        if (h == null) {
          throw new Targets.NoTarget(
              "no node '" + node + "' on a host; the nodes on hosts are " + t.hostOf().keySet());
        }
        out.add(h);
      } else if (part.contains("=")) {
        String key = part.substring(0, part.indexOf('='));
        String value = part.substring(part.indexOf('=') + 1);
        int before = out.size();
        for (String h : all) {
          if (value.equals(t.hostLabels().getOrDefault(h, Map.of()).get(key))) {
            out.add(h);
          }
        }
        if (out.size() == before) {
          throw new Targets.NoTarget(
              "no host has the label " + part + "; the hosts' labels are " + t.hostLabels());
        }
      } else if (all.contains(part)) {
        out.add(part);
      } else {
        throw new Targets.NoTarget(
            "no host '" + part + "' runs nodes of the cluster; its hosts are " + all);
      }
    }
    return List.copyOf(out);
  }

  private static List<String> orderedHosts(Topology t) {
    List<String> hosts = new ArrayList<>();
    for (String n : t.zkNodes()) {
      if (t.hostOf().get(n) != null) {
        hosts.add(t.hostOf().get(n));
      }
    }
    for (String n : t.solrNodes()) {
      if (t.hostOf().get(n) != null) {
        hosts.add(t.hostOf().get(n));
      }
    }
    return hosts;
  }

  /** The nodes on {@code hosts}, ZooKeeper servers first. */
  static List<String> nodesOn(Topology t, List<String> hosts) {
    List<String> nodes = new ArrayList<>();
    for (String n : t.zkNodes()) {
      if (hosts.contains(t.hostOf().get(n))) {
        nodes.add(n);
      }
    }
    for (String n : t.solrNodes()) {
      if (hosts.contains(t.hostOf().get(n))) {
        nodes.add(n);
      }
    }
    return nodes;
  }

  /** The hosts the nodes run on. */
  static List<String> hostsOf(Cluster cluster, List<String> nodes) {
    Set<String> hosts = new LinkedHashSet<>();
    for (NodeState n : cluster.requireState().nodes()) {
      if (nodes.contains(n.id()) && n.ssh() != null) {
        hosts.add(n.ssh());
      }
    }
    return List.copyOf(hosts);
  }

  /** A fault whose targets are hosts. */
  abstract static class HostFault extends NodeFault {
    HostFault(FaultKind kind) {
      super(kind);
    }

    @Override
    List<String> targets(String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
      return nodesOn(t, hosts(target, t, down, rnd, unsafe, kind()));
    }
  }

  /**
   * partition: the hosts lose their way to the cluster's other hosts and back (this machine keeps
   * its way to all, so solrscale still observes and heals them).
   */
  static final class Partition extends HostFault {
    Partition() {
      super(FaultKind.PARTITION);
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      cluster.hosts().partition(hostsOf(cluster, nodes), true);
    }

    @Override
    void heal(Cluster cluster, List<String> nodes, Duration timeout) {
      cluster.hosts().partition(hostsOf(cluster, nodes), false);
    }
  }

  /** bandwidth: what the hosts send is capped to the fault's rate; their nodes stay up. */
  static final class Bandwidth extends HostFault {
    private String rate;

    Bandwidth() {
      super(FaultKind.BANDWIDTH);
    }

    @Override
    void configure(StepSpec.Fault f) {
      rate = f.rate();
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      cluster.hosts().capBandwidth(hostsOf(cluster, nodes), rate);
    }

    @Override
    void heal(Cluster cluster, List<String> nodes, Duration timeout) {
      cluster.hosts().capBandwidth(hostsOf(cluster, nodes), null);
    }

    @Override
    boolean guarded() {
      return false; // slower, not down
    }

    @Override
    boolean takesDown() {
      return false;
    }
  }

  /** link-down: a lab-network host's link is down, nothing goes in or out; up when healed. */
  static final class LinkDown extends HostFault {
    LinkDown() {
      super(FaultKind.LINK_DOWN);
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      cluster.hosts().link(hostsOf(cluster, nodes), false);
    }

    @Override
    void heal(Cluster cluster, List<String> nodes, Duration timeout) {
      cluster.hosts().link(hostsOf(cluster, nodes), true);
    }
  }

  /**
   * latency and loss: what crosses between the target's hosts and the cluster's other hosts (or,
   * for a link {@code A<->B}, B's hosts) is held or dropped by a delayer on each of the target's
   * hosts; their nodes stay up. An independent probe measures the link while it holds.
   */
  static final class Slow extends HostFault {
    private Slowness slowness;
    private List<String> peers; // null: the cluster's other hosts
    private SlowLink link;

    Slow(FaultKind kind) {
      super(kind);
    }

    @Override
    void configure(StepSpec.Fault f) {
      slowness = f.slowness();
    }

    @Override
    List<String> targets(String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
      // nothing goes down: any host will do, whatever the safety rules would say of its nodes
      if (target != null && target.contains("<->")) {
        String[] sides = target.split("<->", 2);
        List<String> near = hosts(sides[0].strip(), t, down, rnd, true, kind());
        List<String> far = hosts(sides[1].strip(), t, down, rnd, true, kind());
        List<String> both = near.stream().filter(far::contains).toList();
        if (!both.isEmpty()) {
          throw new Targets.NoTarget(
              "host(s) " + both + " are on both sides of " + target + "; a link joins two groups");
        }
        peers = far;
        return nodesOn(t, near);
      }
      peers = null;
      return nodesOn(t, hosts(target, t, down, rnd, true, kind()));
    }

    @Override
    void inject(Cluster cluster, List<String> nodes, Duration timeout) {
      link = cluster.hosts().slow(hostsOf(cluster, nodes), peers, slowness);
    }

    @Override
    void heal(Cluster cluster, List<String> nodes, Duration timeout) {
      if (link != null) {
        cluster.hosts().heal(link);
      }
    }

    @Override
    boolean measures() {
      return true;
    }

    @Override
    LinkFault measure(Cluster cluster, double seconds) {
      LinkProbe probe = link == null ? null : cluster.hosts().probe(link, seconds);
      return link == null ? null : LinkFault.of(link.hosts(), link.peers(), slowness, probe);
    }

    @Override
    boolean guarded() {
      return false; // slower, not down
    }

    @Override
    boolean takesDown() {
      return false;
    }
  }
}
