package org.solrscale.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/**
 * Lab networks: Linux network namespaces on a bridge acting as hosts, each with its own address and
 * sshd, reachable by name through {@link SshConfig}. What solrscale creates is recorded in {@link
 * NetState} and only that is ever removed.
 */
public final class LabNet {
  /** The characters a path in sshd's and ssh's configuration may hold unquoted. */
  private static final Pattern PLAIN_PATH = Pattern.compile("[A-Za-z0-9._/+@,:=-]+");

  private LabNet() {}

  public static Optional<NetState> find(SolrscaleHome home, String name) {
    return NetStore.find(home, name);
  }

  /** Every net that is up (has a state file), by name. */
  public static List<NetState> all(SolrscaleHome home) {
    return NetStore.all(home);
  }

  /**
   * Brings net {@code name} up with {@code hosts} hosts, their links capped at {@code bandwidth}
   * (e.g. 100mbit; null for none), and returns it once every host lets ssh in. A net of that name
   * and size that is up already stays as it is (a dead sshd is restarted); one recorded whose
   * namespaces or bridge are gone (after a reboot) is made again.
   */
  public static NetState up(
      SolrscaleHome home, String name, int hosts, String bandwidth, Consumer<String> progress) {
    return up(home, name, hosts, bandwidth, null, null, null, progress);
  }

  /**
   * The same, each host given a CPU share ({@code cpus} cores, e.g. 0.5), {@code cores} of this
   * machine's to itself (round robin) and a memory limit that counts the page cache ({@code
   * memory}, e.g. 2g) through cgroups; null for none.
   */
  public static NetState up(
      SolrscaleHome home,
      String name,
      int hosts,
      String bandwidth,
      Double cpus,
      Integer cores,
      String memory,
      Consumer<String> progress) {
    return up(home, name, hosts, bandwidth, cpus, cores, memory, List.of(), List.of(), progress);
  }

  /**
   * The same, with hosts labelled ({@code labels}: HOSTS:KEY=VALUE) and permanent link profiles
   * between groups of them ({@code links}: A<->B:PROFILE); a net that is up keeps its links unless
   * other ones are given.
   */
  public static NetState up(
      SolrscaleHome home,
      String name,
      int hosts,
      String bandwidth,
      Double cpus,
      Integer cores,
      String memory,
      List<String> labels,
      List<String> links,
      Consumer<String> progress) {
    NetState net =
        upHosts(home, name, hosts, bandwidth, cpus, cores, memory, labels, links, progress);
    if (labels.isEmpty() && links.isEmpty()) {
      return net;
    }
    if (links.equals(List.of("none"))) { // the link profiles removed, the hosts kept
      try (NetStore.Lock lock = NetStore.lock(home)) {
        if (!net.links().isEmpty()) {
          NetLinks.remove(name, net.links(), net);
          progress.accept(
              "removed the link profiles " + net.links().stream().map(NetLink::link).toList());
        }
        List<String> names = net.hosts().stream().map(NetHost::name).toList();
        net =
            net.withLinks(
                labels.isEmpty() ? net.labels() : NetLinks.labels(labels, names), List.of());
        NetStore.save(home, net);
        return net;
      }
    }
    try (NetStore.Lock lock = NetStore.lock(home)) {
      List<String> names = net.hosts().stream().map(NetHost::name).toList();
      Map<String, Map<String, String>> l = NetLinks.labels(labels, names);
      List<NetLinks.Planned> planned = NetLinks.plan(links, names, l);
      List<String> wanted = planned.stream().map(NetLinks.Planned::text).toList();
      boolean same =
          l.equals(net.labels())
              && wanted.equals(net.links().stream().map(NetLink::link).toList())
              && net.links().stream()
                  .flatMap(k -> k.delayers().stream())
                  .allMatch(
                      d -> Procs.cmdline(d.pid()).contains("-Dsolrscale.slow=net-" + name + "/"));
      if (same) {
        return net;
      }
      if (!net.links().isEmpty()) {
        NetLinks.remove(name, net.links(), net);
        progress.accept(
            "removed the link profiles it had: "
                + net.links().stream().map(NetLink::link).toList());
      }
      net = net.withLinks(l, List.of());
      NetStore.save(home, net);
      List<NetLink> made = NetLinks.apply(net, planned, NetFiles.dir(home, name), progress);
      net = net.withLinks(l, made);
      NetStore.save(home, net);
      return net;
    }
  }

  /**
   * Puts net {@code name} (up) behind a bastion ({@code bastion}: one of its hosts, through which
   * ssh reaches the others; "none": reached directly) and sets its sshds' MaxStartups ({@code
   * maxStartups}: START or START:RATE:FULL as sshd takes it; "none": sshd's default); null keeps
   * what the net has.
   */
  public static NetState sshd(
      SolrscaleHome home,
      String name,
      String bastion,
      String maxStartups,
      Consumer<String> progress) {
    try (NetStore.Lock lock = NetStore.lock(home)) {
      NetState net =
          find(home, name)
              .orElseThrow(
                  () ->
                      SolrscaleException.usage(
                          "there is no lab network " + name + "; bring it up with net up"));
      String b = bastion == null ? net.bastion() : bastion.equals("none") ? null : bastion;
      if (b != null) {
        net.host(b); // a host of the net, or a one-line error naming them
      }
      String m =
          maxStartups == null
              ? net.maxStartups()
              : maxStartups.equals("none") ? null : checkMaxStartups(maxStartups);
      return new NetUp(home, progress).sshd(net, b, m);
    } catch (java.io.IOException e) {
      throw SolrscaleException.environment("cannot write a file: " + e.getMessage());
    }
  }

  /** sshd's MaxStartups, START or START:RATE:FULL (rate a percentage, START at most FULL). */
  public static String checkMaxStartups(String spec) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("([0-9]{1,4})(?::([0-9]{1,3}):([0-9]{1,4}))?")
            .matcher(spec);
    boolean ok = m.matches() && Integer.parseInt(m.group(1)) >= 1;
    if (ok && m.group(2) != null) {
      int rate = Integer.parseInt(m.group(2));
      ok = rate >= 1 && rate <= 100 && Integer.parseInt(m.group(1)) <= Integer.parseInt(m.group(3));
    }
    if (!ok) {
      throw SolrscaleException.usage(
          "--max-startups '"
              + spec
              + "' is not START or START:RATE:FULL as sshd takes it (e.g. 10:30:100, sshd's"
              + " default: from 10 connections waiting to log in, drop 30 % of new ones, all"
              + " from 100), or none");
    }
    return spec;
  }

  private static NetState upHosts(
      SolrscaleHome home,
      String name,
      int hosts,
      String bandwidth,
      Double cpus,
      Integer cores,
      String memory,
      List<String> labels,
      List<String> links,
      Consumer<String> progress) {
    if (!labels.isEmpty() || !links.isEmpty()) { // checked before anything is made
      NetPlan.checkName(name);
      NetPlan.checkHosts(hosts);
      List<String> names = new ArrayList<>();
      for (int i = 1; i <= hosts; i++) {
        names.add(NetPlan.hostName(name, i));
      }
      if (!links.equals(List.of("none"))) {
        NetLinks.plan(links, names, NetLinks.labels(labels, names));
      }
      if (!links.isEmpty() && !links.equals(List.of("none"))) {
        NetLinks.iptables();
      }
    }
    Cgroups.Limits limits =
        cpus == null && cores == null && memory == null
            ? null
            : new Cgroups.Limits(cpus, cores, memory);
    NetPlan.checkName(name);
    NetPlan.checkHosts(hosts);
    LinkRate rate = bandwidth == null ? null : LinkRate.parse(bandwidth);
    requireRoot("net up", "it creates network namespaces");
    Ip.ip();
    if (rate != null) {
      Ip.tc();
    }
    if (!Files.isExecutable(Sshd.BINARY)) {
      throw SolrscaleException.environment(
          "net up needs OpenSSH's server "
              + Sshd.BINARY
              + "; install it (e.g. apt-get install openssh-server)");
    }
    Ssh.ssh();
    Sshd.keygen();
    Sshd.setsid();
    requirePlainPath(home);
    try (NetStore.Lock lock = NetStore.lock(home)) {
      NetUp up = new NetUp(home, progress);
      Optional<NetState> existing = find(home, name);
      if (existing.isPresent()) {
        NetState net = existing.get();
        if (net.hosts().size() != hosts) {
          throw SolrscaleException.usage(
              "lab network "
                  + name
                  + " is up with "
                  + net.hosts().size()
                  + " host(s), not "
                  + hosts
                  + "; take it down first (solrscale net down --name "
                  + name
                  + ") or pick another --name");
        }
        List<String> gone = missing(net);
        if (gone.isEmpty()) {
          if (rate != null && !rate.text().equals(net.bandwidth())) {
            progress.accept(
                "its links stay "
                    + (net.bandwidth() == null ? "uncapped" : "capped at " + net.bandwidth())
                    + "; take it down and up again to change that");
          }
          return up.revive(net);
        }
        progress.accept(
            "lab network "
                + name
                + " is recorded but "
                + String.join(", ", gone)
                + " gone (after a reboot?): making it again");
        NetDown.run(home, net, progress);
        if (rate == null && net.bandwidth() != null) {
          rate = LinkRate.parse(net.bandwidth()); // made again as it was
        }
      }
      return up.create(
          name, hosts, rate, limits != null ? limits : existing.map(NetState::limits).orElse(null));
    }
  }

  /**
   * Takes net {@code name} down: its sshd processes, namespaces, links, bridge and files. Refuses,
   * naming them, while other processes run on its hosts (a solrscale cluster by its name).
   */
  public static void down(SolrscaleHome home, String name, Consumer<String> progress) {
    NetPlan.checkName(name);
    requireRoot("net down", "it removes network namespaces");
    try (NetStore.Lock lock = NetStore.lock(home)) {
      NetDown.run(home, require(home, name), progress);
    }
  }

  /** Caps {@code host}'s link at {@code rate} both ways, e.g. 10mbit (a bandwidth fault). */
  /** The lab network that has a host of this name, if one does. */
  public static Optional<NetState> netOf(SolrscaleHome home, String host) {
    return all(home).stream()
        .filter(n -> n.hosts().stream().anyMatch(h -> h.name().equals(host)))
        .findFirst();
  }

  /**
   * Takes a lab host's link to the bridge down (nothing in or out, this machine's way included) or
   * up again, on the veth this machine holds.
   */
  public static void link(SolrscaleHome home, String host, boolean up) {
    NetState net =
        netOf(home, host)
            .orElseThrow(
                () ->
                    SolrscaleException.usage(
                        "link-down works on lab-network hosts only (it takes the link down from"
                            + " this machine) and '"
                            + host
                            + "' is none; use partition on other hosts"));
    requireRoot("link-down", "it changes network interfaces");
    NetHost h = net.host(host);
    Ip.ip(
        (up ? "bring up " : "take down ") + h.veth(), "link", "set", h.veth(), up ? "up" : "down");
  }

  public static void limit(SolrscaleHome home, String net, String host, String rate) {
    LinkRate r = LinkRate.parse(rate);
    requireRoot("a bandwidth cap", "it changes network interfaces");
    Links.cap(require(home, net).host(host), r);
  }

  /** Gives {@code host}'s link back the net's own cap, or none when the net has none. */
  public static void unlimit(SolrscaleHome home, String net, String host) {
    requireRoot("a bandwidth cap", "it changes network interfaces");
    NetState state = require(home, net);
    NetHost h = state.host(host);
    if (state.bandwidth() != null) {
      Links.cap(h, LinkRate.parse(state.bandwidth()));
    } else {
      Links.uncap(h);
    }
  }

  /** The net as it is now: namespaces and bridge present, sshd processes alive, link caps. */
  public static NetStatus status(SolrscaleHome home, NetState net) {
    Set<String> namespaces = Ip.namespaces();
    Set<String> links = Ip.links();
    List<NetStatus.HostStatus> hosts = new ArrayList<>();
    for (NetHost h : net.hosts()) {
      hosts.add(
          new NetStatus.HostStatus(
              h.name(),
              h.address(),
              h.namespace(),
              namespaces.contains(h.namespace()),
              h.sshdPid(),
              Sshd.runs(h),
              links.contains(h.veth()) ? Ip.tbfRate(null, h.veth()) : null,
              net.limits() == null ? null : Cgroups.describe(h)));
    }
    return new NetStatus(
        net.name(),
        net.subnet(),
        net.bridge(),
        links.contains(net.bridge()),
        net.bandwidth(),
        SshConfig.file(home).toString(),
        hosts);
  }

  /** The net of that name, or a usage error naming the nets there are. */
  public static NetState require(SolrscaleHome home, String name) {
    return find(home, name)
        .orElseThrow(
            () -> {
              List<String> names = all(home).stream().map(NetState::name).toList();
              return SolrscaleException.usage(
                  "no lab network named '"
                      + name
                      + "' here ("
                      + (names.isEmpty()
                          ? "there is none"
                          : "there are " + String.join(", ", names))
                      + "); start one with: solrscale net up --name "
                      + name
                      + " --hosts N");
            });
  }

  /** What of a recorded net is no longer there: its bridge, its namespaces. */
  private static List<String> missing(NetState net) {
    List<String> gone = new ArrayList<>();
    if (!Ip.links().contains(net.bridge())) {
      gone.add("bridge " + net.bridge());
    }
    Set<String> namespaces = Ip.namespaces();
    net.hosts().stream()
        .filter(h -> !namespaces.contains(h.namespace()))
        .forEach(h -> gone.add("namespace " + h.namespace()));
    if (gone.size() > 1) {
      gone.set(gone.size() - 1, gone.get(gone.size() - 1) + " are");
    } else if (gone.size() == 1) {
      gone.set(0, gone.get(0) + " is");
    }
    return gone;
  }

  private static void requireRoot(String what, String why) {
    if (uid() != 0) {
      throw SolrscaleException.environment(
          what
              + " needs root: "
              + why
              + "; run it as root, and the clusters on the net from the same $SOLRSCALE_HOME");
    }
  }

  /** The effective user id, from /proc/self/status ("Uid: real effective saved fs"). */
  private static long uid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return Long.parseLong(line.substring(4).strip().split("\\s+")[1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: not Linux, where lab networks cannot be made anyway
    }
    return -1;
  }

  private static void requirePlainPath(SolrscaleHome home) {
    String dir = home.dir().toAbsolutePath().toString();
    if (!PLAIN_PATH.matcher(dir).matches()) {
      throw SolrscaleException.environment(
          "lab networks need a $SOLRSCALE_HOME without spaces, quotes or %, which sshd and ssh "
              + "configuration files cannot hold: "
              + dir
              + " is not; set SOLRSCALE_HOME to another directory");
    }
  }
}
