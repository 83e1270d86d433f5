package org.solrscale.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.SolrscaleException;

/**
 * Brings a lab network up: a bridge, a namespace per host linked to it, an sshd in each, keys and
 * the ssh configuration. Whatever it created is removed again, by name, when a step fails.
 */
final class NetUp {
  static final Duration READY = Duration.ofSeconds(30);
  private static final Path PRIVSEP = Path.of("/run/sshd");

  private final SolrscaleHome home;
  private final Consumer<String> progress;

  /** What undoes each thing created so far, the latest first. */
  private final Deque<Undo> undo = new ArrayDeque<>();

  private record Undo(String what, Runnable action) {}

  NetUp(SolrscaleHome home, Consumer<String> progress) {
    this.home = home;
    this.progress = progress;
  }

  /** Creates net {@code name}; nothing of a net of that name may exist. */
  NetState create(String name, int hosts, LinkRate rate, Cgroups.Limits limits) {
    Set<String> namespaces = Ip.namespaces();
    Set<String> links = Ip.links();
    Set<Integer> taken = new HashSet<>();
    NetStore.all(home).forEach(n -> taken.add(Subnets.k(n.subnet())));
    NetState net =
        NetPlan.plan(home, name, hosts, Subnets.choose(taken, Ip.routes()), rate, limits);
    refuseTaken(net, namespaces, links);
    try {
      undo.push(new Undo("rewrite " + SshConfig.file(home), () -> SshConfig.write(home)));
      Path dir = NetFiles.dir(home, name);
      FileTrees.delete(dir); // files of an earlier attempt that recorded nothing
      undo.push(new Undo("delete " + dir, () -> FileTrees.delete(dir)));
      NetStore.save(home, net);
      progress.accept(
          "lab network "
              + name
              + ": "
              + net.subnet()
              + " on bridge "
              + net.bridge()
              + (rate == null ? "" : ", links capped at " + rate.text()));
      keys(net);
      privilegeSeparationDir(name);
      bridge(net);
      for (NetHost h : net.hosts()) {
        link(net, h);
        if (rate != null) {
          Links.cap(h, rate);
        }
      }
      net = startSshds(net);
      SshConfig.write(home);
      awaitSsh(net);
      awaitEachOther(net);
      undo.clear();
      return net;
    } catch (IOException e) {
      throw rollBack(SolrscaleException.environment("cannot write a file: " + e.getMessage()));
    } catch (RuntimeException e) {
      throw rollBack(e);
    }
  }

  /** Starts each host's sshd, recording its pid as soon as it runs. */
  private NetState startSshds(NetState net) throws IOException {
    for (NetHost h : net.hosts()) {
      Files.writeString(
          NetFiles.sshdConfig(h),
          Sshd.config(h, NetFiles.authorizedKeys(home, net.name()), net.maxStartups()));
      long pid = Sshd.start(h);
      undo.push(new Undo("stop sshd pid " + pid, () -> Sshd.stop(List.of(pid))));
      if (net.limits() != null) {
        undo.push(new Undo("remove the cgroups of " + h.name(), () -> Cgroups.remove(h)));
        Cgroups.enter(h, net.limits(), net.hosts().indexOf(h), pid); // before any session
      }
      net = net.with(h.withSshdPid(pid));
      NetStore.save(home, net);
    }
    return net;
  }

  /**
   * Gives the net a bastion (ssh reaches every other host through it) and its sshds a MaxStartups
   * (each sshd rereads its configuration on SIGHUP, executing itself again in place: its pid
   * stays); null for none. Waits for ssh on each host when anything changed.
   */
  NetState sshd(NetState net, String bastion, String maxStartups) throws IOException {
    if (Objects.equals(bastion, net.bastion()) && Objects.equals(maxStartups, net.maxStartups())) {
      return net;
    }
    if (!Objects.equals(maxStartups, net.maxStartups())) {
      for (NetHost h : net.hosts()) {
        Files.writeString(
            NetFiles.sshdConfig(h),
            Sshd.config(h, NetFiles.authorizedKeys(home, net.name()), maxStartups));
        Commands.check(
            "reload the sshd of " + h.name(), List.of("kill", "-HUP", Long.toString(h.sshdPid())));
      }
      progress.accept(
          "sshd's MaxStartups on every host: "
              + (maxStartups == null ? "sshd's default" : maxStartups));
    }
    if (!Objects.equals(bastion, net.bastion())) {
      progress.accept(
          bastion == null
              ? "every host is reached directly"
              : "every host but " + bastion + " is reached through " + bastion + " (ProxyJump)");
    }
    net = net.withSshd(bastion, maxStartups);
    NetStore.save(home, net);
    SshConfig.write(home);
    Sshd.sleep(200); // each sshd executes itself again and listens anew
    awaitSsh(net);
    return net;
  }

  /** A net recorded and in place: restarts each sshd that is gone; waits for ssh on each host. */
  NetState revive(NetState net) {
    for (NetHost h : net.hosts()) {
      if (!Sshd.runs(h)) {
        long pid = Sshd.start(h);
        Cgroups.enter(h, net.limits(), net.hosts().indexOf(h), pid);
        progress.accept(
            "restarted the sshd of "
                + h.name()
                + " (pid "
                + h.sshdPid()
                + " was gone): pid "
                + pid);
        net = net.with(h.withSshdPid(pid));
        NetStore.save(home, net);
      }
    }
    SshConfig.write(home);
    awaitSsh(net);
    return net;
  }

  /** Refuses a net whose names belong to something already there that is not recorded. */
  private static void refuseTaken(NetState net, Set<String> namespaces, Set<String> links) {
    List<String> taken = new ArrayList<>();
    if (links.contains(net.bridge())) {
      taken.add("interface " + net.bridge());
    }
    for (NetHost h : net.hosts()) {
      if (namespaces.contains(h.namespace())) {
        taken.add("namespace " + h.namespace());
      }
      if (links.contains(h.veth())) {
        taken.add("interface " + h.veth());
      }
    }
    if (!taken.isEmpty()) {
      throw SolrscaleException.environment(
          String.join(", ", taken)
              + (taken.size() == 1 ? " exists" : " exist")
              + " but no lab network "
              + net.name()
              + " of this $SOLRSCALE_HOME made "
              + (taken.size() == 1 ? "it" : "them")
              + " (another home's, or someone else's): solrscale leaves "
              + (taken.size() == 1 ? "it" : "them")
              + " alone; pick another --name");
    }
  }

  private void keys(NetState net) throws IOException {
    Path key = NetFiles.clientKey(home, net.name());
    Sshd.generateKey(key, "solrscale lab network " + net.name());
    Files.writeString(NetFiles.authorizedKeys(home, net.name()), Sshd.publicKey(key) + "\n");
    StringBuilder known = new StringBuilder();
    for (NetHost h : net.hosts()) {
      Files.createDirectories(Path.of(h.dir()));
      Sshd.generateKey(NetFiles.hostKey(h), h.name());
      known
          .append(h.address())
          .append(' ')
          .append(Sshd.publicKey(NetFiles.hostKey(h)))
          .append('\n');
    }
    Files.writeString(NetFiles.knownHosts(home, net.name()), known);
  }

  /** sshd wants /run/sshd (privilege separation); made when missing, and recorded as ours. */
  private void privilegeSeparationDir(String net) throws IOException {
    if (Files.isDirectory(PRIVSEP)) {
      return;
    }
    Files.createDirectories(PRIVSEP);
    Files.writeString(NetFiles.privsepMarker(home), PRIVSEP + "\n");
    undo.push(new Undo("remove " + PRIVSEP, () -> NetDown.removePrivsepIfUnused(home, net)));
  }

  private void bridge(NetState net) {
    String b = net.bridge();
    Ip.ip("create bridge " + b, "link", "add", b, "type", "bridge");
    undo.push(new Undo("delete interface " + b, () -> NetDown.deleteLink(b)));
    Ip.ip("address bridge " + b, "addr", "add", net.bridgeAddress() + "/24", "dev", b);
    Ip.ip("bring up bridge " + b, "link", "set", b, "up");
  }

  /** The host's namespace and its link to the bridge: eth0 inside, the veth outside. */
  private void link(NetState net, NetHost h) {
    String ns = h.namespace();
    Ip.ip("create namespace " + ns, "netns", "add", ns);
    undo.push(new Undo("delete namespace " + ns, () -> NetDown.deleteNamespace(ns)));
    EtcNetns.write(net, h);
    Ip.ip(
        "link " + h.name() + " to the bridge",
        "link",
        "add",
        h.veth(),
        "type",
        "veth",
        "peer",
        "name",
        "eth0",
        "netns",
        ns);
    undo.push(new Undo("delete interface " + h.veth(), () -> NetDown.deleteLink(h.veth())));
    Ip.ip("attach " + h.veth(), "link", "set", h.veth(), "master", net.bridge());
    Ip.ip("bring up " + h.veth(), "link", "set", h.veth(), "up");
    Ip.ip("address " + h.name(), "-n", ns, "addr", "add", h.address() + "/24", "dev", "eth0");
    Ip.ip("bring up lo in " + ns, "-n", ns, "link", "set", "lo", "up");
    Ip.ip("bring up eth0 in " + ns, "-n", ns, "link", "set", "eth0", "up");
    Ip.ip(
        "route " + h.name() + " via the bridge",
        "-n",
        ns,
        "route",
        "add",
        "default",
        "via",
        net.bridgeAddress());
  }

  /** Waits until every host's sshd lets the net's key in: a real ssh through the config file. */
  private void awaitSsh(NetState net) {
    progress.accept("waiting for ssh on " + net.hosts().size() + " host(s)");
    long deadline = System.nanoTime() + READY.toNanos();
    for (NetHost h : net.hosts()) {
      while (true) {
        if (!Sshd.runs(h)) {
          throw SolrscaleException.environment(
              "the sshd of "
                  + h.name()
                  + " (pid "
                  + h.sshdPid()
                  + ") died: "
                  + Sshd.lastLine(NetFiles.sshdLog(h)));
        }
        Commands.Result r = Ssh.run(home, h.name(), "true");
        if (r.ok()) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw SolrscaleException.environment(
              h.name()
                  + " did not let ssh in within "
                  + READY.toSeconds()
                  + " s: "
                  + r.firstLine()
                  + " (its sshd's log: "
                  + NetFiles.sshdLog(h)
                  + ")");
        }
        Sshd.sleep(100);
      }
    }
  }

  /**
   * Checks that the first host reaches every other host's sshd over the bridge: a bridge whose
   * frames pass the machine's firewall (br_netfilter with a FORWARD policy of DROP, as Docker sets)
   * lets this machine reach each host but not one host another.
   */
  private static void awaitEachOther(NetState net) {
    if (net.hosts().size() < 2) {
      return;
    }
    String others =
        net.hosts().stream().skip(1).map(NetHost::address).collect(Collectors.joining(" "));
    String script =
        "for a in "
            + others
            + "; do timeout 5 bash -c \"exec 3<>/dev/tcp/$a/22\" 2>/dev/null"
            + " || echo $a; done";
    NetHost first = net.hosts().get(0);
    Commands.Result r =
        Commands.run(
            List.of(Ip.ip(), "netns", "exec", first.namespace(), "bash", "-c", script),
            Duration.ofSeconds(10 + 5L * net.hosts().size()));
    if (!r.ok() || !r.output().isBlank()) {
      throw SolrscaleException.environment(
          first.name()
              + " cannot reach "
              + (r.ok() ? String.join(", ", r.output().strip().split("\\s+")) : "the other hosts")
              + " over bridge "
              + net.bridge()
              + ": does a firewall drop bridged traffic? (bridge-nf-call-iptables with a FORWARD"
              + " policy of DROP; see docs/hosts.md)");
    }
  }

  /** Undoes everything created so far, latest first; says what could not be undone. */
  private RuntimeException rollBack(RuntimeException cause) {
    List<String> failed = new ArrayList<>();
    Interruption.cleanUp(
        () -> {
          while (!undo.isEmpty()) {
            Undo u = undo.pop();
            try {
              u.action().run();
            } catch (RuntimeException e) {
              failed.add(u.what() + " (" + e.getMessage() + ")");
            }
          }
        });
    if (failed.isEmpty()) {
      return cause;
    }
    return new SolrscaleException(
        cause instanceof SolrscaleException se ? se.exitCode() : ExitCode.ENVIRONMENT,
        cause.getMessage() + "; could not undo: " + String.join(", ", failed),
        cause);
  }
}
