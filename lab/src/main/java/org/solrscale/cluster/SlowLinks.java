package org.solrscale.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.results.LinkProbe;
import org.solrscale.results.RunDir;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.Slowness;
import org.solrscale.spec.SolrscaleException;

/**
 * Slow links between a cluster's hosts (latency, jitter, loss), without netem: on each slowed host,
 * iptables sends what crosses to or from the peer addresses to a netfilter queue, and solrscale's
 * own jar ({@code net-delayer}) holds each packet there and lets it go. Only those packets are
 * queued: a host's loopback, its traffic with other hosts and this machine's way to it keep their
 * speed. Everything is recorded on the host first (HOSTDIR/faults/slow-ID) and removed by that
 * record: the chains by their names, the delayer by its pid and marker.
 */
final class SlowLinks {
  private static final Pattern READY =
      Pattern.compile("ready queue (\\d+)(?: echo (\\S+) tcp (\\d+) udp (\\d+))?");
  private static final Duration READY_WAIT = Duration.ofSeconds(60);

  private final HostOps ops;

  SlowLinks(HostOps ops) {
    this.ops = ops;
  }

  /** The system property that marks a delayer of a given cluster and slow link. */
  static String marker(String cluster, String id) {
    return "-Dsolrscale.slow=" + cluster + "/" + id;
  }

  SlowLink slow(
      String cluster,
      Map<String, NodeState> byHost,
      List<String> hosts,
      List<String> peers,
      Slowness s) {
    if (peers.isEmpty()) {
      throw SolrscaleException.usage(
          "a slow link needs hosts on its other side; name some of the cluster's hosts, not all");
    }
    String id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    int queue = 20_000 + ThreadLocalRandom.current().nextInt(40_000);
    // every packet is held where it arrives (INPUT): a packet held on its sender's way out still
    // belongs to the sending socket, and TCP's small-queue limit would then stall the connection
    // at a few packets per delay; so "in" is held on the slowed hosts, "out" on their peers
    Map<String, List<String>> from = new java.util.LinkedHashMap<>();
    if (s.direction() != Slowness.Direction.OUT) {
      hosts.forEach(h -> from.put(h, peers));
    }
    if (s.direction() != Slowness.Direction.IN) {
      peers.forEach(p -> from.put(p, hosts));
    }
    List<SlowLink.Delayer> started = new ArrayList<>();
    try {
      List<String> where = new ArrayList<>(from.keySet());
      // the first slowed host echoes for the probe (with direction out: its first peer)
      List<SlowLink.Delayer> delayers =
          Parallel.map(
              where,
              h -> {
                SlowLink.Delayer d =
                    start(cluster, byHost.get(h), id, queue, s, h.equals(where.get(0)));
                synchronized (started) {
                  started.add(d);
                }
                return d;
              });
      Parallel.map(
          delayers,
          d -> {
            NodeState n = byHost.get(d.host());
            List<String> args =
                new ArrayList<>(
                    List.of(
                        ops.base(n),
                        id,
                        Integer.toString(queue),
                        Long.toString(d.pid()),
                        marker(cluster, id)));
            from.get(d.host()).forEach(o -> args.add(byHost.get(o).host()));
            Remote.Result r = ops.agentOn(n, "slow", args.toArray(String[]::new));
            String problem = ops.problem(n, r, "a slow link");
            if (problem != null) {
              throw SolrscaleException.environment(problem);
            }
            return d;
          });
      return new SlowLink(id, hosts, peers, s, delayers);
    } catch (RuntimeException e) {
      List<SlowLink.Delayer> undo;
      synchronized (started) {
        undo = List.copyOf(started);
      }
      Interruption.cleanUp(() -> heal(byHost, new SlowLink(id, hosts, peers, s, undo)));
      throw e;
    }
  }

  private SlowLink.Delayer start(
      String cluster, NodeState n, String id, int queue, Slowness s, boolean echo) {
    // refused at once without root or iptables, before a JVM is started for nothing
    Remote.Result check = ops.agentOn(n, "slow-check");
    String problem = ops.problem(n, check, "a slow link");
    if (problem != null) {
      throw SolrscaleException.environment(problem);
    }
    List<String> cmd = new ArrayList<>(ops.solrscaleOn(n));
    cmd.add(1, marker(cluster, id));
    cmd.add(2, "-Xmx64m");
    cmd.add(3, "-XX:+UseSerialGC");
    cmd.addAll(List.of("net-delayer", "--queue", Integer.toString(queue)));
    if (echo) {
      cmd.addAll(List.of("--echo", n.host()));
    }
    cmd.addAll(s.args());
    cmd.addAll(List.of("--seed", Long.toString(ThreadLocalRandom.current().nextLong())));
    String dir = ops.base(n) + "/faults";
    String console = dir + "/delayer-" + id + ".log";
    long pid = ops.remoteOf(n).start(cmd, dir, console, Map.of());
    long deadline = System.nanoTime() + READY_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      String said = ops.agentOn(n, "tail", console, "20").out();
      Matcher m = READY.matcher(said);
      if (m.find()) {
        return new SlowLink.Delayer(
            n.ssh(),
            pid,
            Integer.parseInt(m.group(1)),
            m.group(2),
            m.group(3) == null ? 0 : Integer.parseInt(m.group(3)),
            m.group(4) == null ? 0 : Integer.parseInt(m.group(4)));
      }
      if (said.contains("solrscale:")
          || !ops.agentOn(n, "state", Long.toString(pid), marker(cluster, id))
              .out()
              .strip()
              .equals("running")) {
        String last = said.strip().lines().reduce((a, b) -> b).orElse("no message");
        ops.agentOn(n, "stop", Long.toString(pid), marker(cluster, id), "5");
        throw SolrscaleException.environment(
            "the packet delayer did not start on host " + n.ssh() + ": " + last);
      }
      sleep(100);
    }
    ops.agentOn(n, "stop", Long.toString(pid), marker(cluster, id), "5");
    throw SolrscaleException.environment(
        "the packet delayer on host "
            + n.ssh()
            + " was not ready within "
            + READY_WAIT.toSeconds()
            + " s");
  }

  /** Removes the link's rules and stops its delayers, host by host, by the host's record. */
  void heal(Map<String, NodeState> byHost, SlowLink link) {
    List<String> problems = new ArrayList<>();
    for (String h : link.delayers().stream().map(SlowLink.Delayer::host).distinct().toList()) {
      NodeState n = byHost.get(h);
      if (n == null) {
        continue;
      }
      Remote.Result r = ops.agentOn(n, "unslow", ops.base(n), link.id());
      if (!r.ok()) {
        problems.add(ops.problem(n, r, "healing a slow link"));
      }
    }
    if (!problems.isEmpty()) {
      throw SolrscaleException.environment(String.join("\n", problems));
    }
  }

  /**
   * Measures the link from its first peer to its first slowed host's echo for {@code seconds}, with
   * solrscale's probe run on the peer; null when the link has no echo to probe.
   */
  LinkProbe probe(Map<String, NodeState> byHost, SlowLink link, double seconds) {
    SlowLink.Delayer d =
        link.delayers().stream().filter(x -> x.echo() != null).findFirst().orElse(null);
    if (d == null) {
      return null;
    }
    NodeState from =
        byHost.get(link.hosts().contains(d.host()) ? link.peers().get(0) : link.hosts().get(0));
    List<String> cmd = new ArrayList<>(ops.solrscaleOn(from));
    cmd.addAll(
        List.of(
            "net-probe",
            "--address",
            d.echo(),
            "--tcp-port",
            Integer.toString(d.tcpPort()),
            "--udp-port",
            Integer.toString(d.udpPort()),
            "--seconds",
            Double.toString(seconds),
            "--from",
            from.ssh()));
    Remote.Result r =
        ops.remoteOf(from).run(cmd, null, Duration.ofSeconds(Math.round(seconds) + 60));
    if (!r.ok()) {
      throw SolrscaleException.environment(
          "the link probe on host " + from.ssh() + " failed: " + r.err().strip());
    }
    try {
      return RunDir.JSON.readValue(
          r.out().strip().lines().reduce((a, b) -> b).orElse(""), LinkProbe.class);
    } catch (JsonProcessingException e) {
      throw SolrscaleException.environment(
          "the link probe on host " + from.ssh() + " printed no measurement: " + r.out().strip());
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while starting a packet delayer");
    }
  }
}
