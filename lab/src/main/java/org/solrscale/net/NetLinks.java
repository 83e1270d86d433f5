package org.solrscale.net;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrscaleJar;
import org.solrscale.spec.Slowness;
import org.solrscale.spec.SolrscaleException;

/**
 * A lab network's permanent link profiles ({@code net up --link 'dc=east<->dc=west:40ms±5ms,
 * 100mbit'}): on each host at either end, a packet delayer (solrscale's {@code net-delayer}) and an
 * iptables chain in the host's namespace that queues to it what arrives from the other end; the
 * same mechanism as the latency fault's, started from this machine. They are recorded in net.json
 * and go with the net: {@code net down} stops the delayers by pid and marker, and the namespaces
 * take their rules with them.
 */
final class NetLinks {
  private static final Pattern READY = Pattern.compile("ready queue (\\d+)");

  private NetLinks() {}

  /** One link as a user wrote it, resolved to hosts. */
  record Planned(String text, List<String> hosts, List<String> peers, Slowness slowness) {}

  /**
   * Parses {@code --label HOSTS:KEY=VALUE} options into host name -> labels; a usage error names
   * what is wrong.
   */
  static Map<String, Map<String, String>> labels(List<String> texts, List<String> names) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (String t : texts) {
      int colon = t.lastIndexOf(':');
      String kv = colon < 0 ? "" : t.substring(colon + 1);
      if (colon <= 0 || !kv.matches("[A-Za-z0-9_.-]+=[A-Za-z0-9_.-]+")) {
        throw SolrscaleException.usage(
            "--label '" + t + "' is not HOSTS:KEY=VALUE, e.g. lab-h1,lab-h2:dc=east");
      }
      for (String h : t.substring(0, colon).split(",")) {
        String name = h.strip();
        if (!names.contains(name)) {
          throw SolrscaleException.usage(
              "--label '" + t + "': no host '" + name + "'; the hosts are " + names);
        }
        out.computeIfAbsent(name, x -> new LinkedHashMap<>())
            .put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    return out;
  }

  /** Parses {@code --link A<->B:PROFILE} options against the hosts and their labels. */
  static List<Planned> plan(
      List<String> texts, List<String> hosts, Map<String, Map<String, String>> labels) {
    List<Planned> out = new ArrayList<>();
    for (String t : texts) {
      int arrow = t.indexOf("<->");
      int colon = t.indexOf(':', Math.max(arrow, 0));
      if (arrow <= 0 || colon < 0) {
        throw SolrscaleException.usage(
            "--link '" + t + "' is not A<->B:PROFILE, e.g. 'dc=east<->dc=west:40ms±5ms,100mbit'");
      }
      List<String> a = group(t, t.substring(0, arrow), hosts, labels);
      List<String> b = group(t, t.substring(arrow + 3, colon), hosts, labels);
      if (a.stream().anyMatch(b::contains)) {
        throw SolrscaleException.usage(
            "--link '" + t + "': a host is on both sides; a link joins two groups of hosts");
      }
      List<String> rest = new ArrayList<>();
      Slowness s;
      try {
        s = Slowness.parseProfile(t.substring(colon + 1), rest);
        long rate = 0;
        for (String r : rest) {
          if (rate > 0) {
            throw new IllegalArgumentException("'" + r + "' is a second rate or not understood");
          }
          rate = LinkRate.parse(r).bitsPerSecond();
        }
        if (s == null && rate == 0) {
          throw new IllegalArgumentException("it says neither a delay, a loss nor a rate");
        }
        s = s == null ? Slowness.rateOnly(rate) : s.withRate(rate);
      } catch (IllegalArgumentException | SolrscaleException e) {
        throw SolrscaleException.usage(
            "--link '"
                + t
                + "': "
                + e.getMessage()
                + " (a profile is a delay with optional jitter, a loss and a rate:"
                + " 40ms±5ms,0.1%,100mbit)");
      }
      out.add(new Planned(t, a, b, s));
    }
    return out;
  }

  private static List<String> group(
      String link, String text, List<String> hosts, Map<String, Map<String, String>> labels) {
    Set<String> out = new LinkedHashSet<>();
    for (String part : text.split(",")) {
      String p = part.strip();
      if (p.contains("=")) {
        String key = p.substring(0, p.indexOf('='));
        String value = p.substring(p.indexOf('=') + 1);
        hosts.stream()
            .filter(h -> value.equals(labels.getOrDefault(h, Map.of()).get(key)))
            .forEach(out::add);
        if (out.isEmpty()) {
          throw SolrscaleException.usage(
              "--link '" + link + "': no host has the label " + p + " (give it with --label)");
        }
      } else if (hosts.contains(p)) {
        out.add(p);
      } else {
        throw SolrscaleException.usage(
            "--link '" + link + "': no host '" + p + "'; the hosts are " + hosts);
      }
    }
    return List.copyOf(out);
  }

  /** The marker of a net's delayer in its command line. */
  static String marker(String net, String id) {
    return "-Dsolrscale.slow=net-" + net + "/" + id;
  }

  /** Puts each planned link in place; returns the links as recorded (delayer pids and chains). */
  static List<NetLink> apply(
      NetState net, List<Planned> planned, Path dir, Consumer<String> progress) {
    List<NetLink> out = new ArrayList<>();
    for (Planned p : planned) {
      String id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
      // each end holds what arrives from the other (INPUT): held on its way out, a packet would
      // still belong to its socket, and TCP's small-queue limit would stall at a few per delay
      Map<String, List<String>> from = new LinkedHashMap<>();
      p.hosts().forEach(h -> from.put(h, p.peers()));
      p.peers().forEach(h -> from.put(h, p.hosts()));
      List<NetLink.Delayer> delayers = new ArrayList<>();
      NetLink link =
          new NetLink(p.text(), p.hosts(), p.peers(), p.slowness().describe(), id, delayers);
      try {
        for (Map.Entry<String, List<String>> e : from.entrySet()) {
          NetHost host = net.host(e.getKey());
          long pid = startDelayer(net, host, id, 7, p.slowness(), dir);
          delayers.add(new NetLink.Delayer(e.getKey(), pid, 7));
          rules(host, id, 7, e.getValue().stream().map(h -> net.host(h).address()).toList(), true);
        }
      } catch (RuntimeException e) {
        remove(net.name(), List.of(link), net);
        throw e;
      }
      progress.accept(
          "link "
              + p.text()
              + ": "
              + p.slowness().describe()
              + " ("
              + p.hosts()
              + " <-> "
              + p.peers()
              + ")");
      out.add(link);
    }
    return out;
  }

  private static long startDelayer(
      NetState net, NetHost h, String id, int queue, Slowness s, Path dir) {
    Path log = dir.resolve("delayer-" + h.name() + "-" + id + ".log");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Sshd.setsid(),
                Ip.ip(),
                "netns",
                "exec",
                h.namespace(),
                Jdk.running().java().toString(),
                marker(net.name(), id),
                "-Xmx64m",
                "-XX:+UseSerialGC",
                "-jar",
                SolrscaleJar.path("net up --link").toString(),
                "net-delayer",
                "--queue",
                Integer.toString(queue)));
    cmd.addAll(s.args());
    cmd.addAll(List.of("--seed", Long.toString(ThreadLocalRandom.current().nextLong())));
    Process p;
    try {
      Files.createDirectories(dir);
      p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot start the packet delayer of " + h.name() + ": " + e.getMessage());
    }
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      String said = read(log);
      Matcher m = READY.matcher(said);
      if (m.find()) {
        return p.pid();
      }
      if (!p.isAlive() || said.contains("solrscale:")) {
        p.destroy();
        throw SolrscaleException.environment(
            "the packet delayer of "
                + h.name()
                + " did not start: "
                + said.strip().lines().reduce((a, b) -> b).orElse("no message"));
      }
      Sshd.sleep(100);
    }
    p.destroy();
    throw SolrscaleException.environment(
        "the packet delayer of " + h.name() + " was not ready within 60 s (its log: " + log + ")");
  }

  private static String read(Path log) {
    try {
      return Files.isRegularFile(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Adds ({@code add}) or removes the chain sslow-ID-i of a link in a host's namespace: what
   * arrives from {@code sources} goes to the queue.
   */
  private static void rules(NetHost h, String id, int queue, List<String> sources, boolean add) {
    String chain = "sslow-" + id + "-i";
    if (add) {
      ipt(h, true, "-N", chain);
      for (String a : sources) {
        ipt(
            h,
            true,
            "-A",
            chain,
            "-s",
            a + "/32",
            "-j",
            "NFQUEUE",
            "--queue-num",
            Integer.toString(queue),
            "--queue-bypass");
      }
      ipt(h, true, "-I", "INPUT", "-j", chain);
    } else {
      while (ipt(h, false, "-D", "INPUT", "-j", chain)) {}
      if (ipt(h, false, "-F", chain)) {
        ipt(h, false, "-X", chain);
      }
    }
  }

  private static boolean ipt(NetHost h, boolean must, String... args) {
    List<String> cmd =
        new ArrayList<>(List.of(Ip.ip(), "netns", "exec", h.namespace(), iptables(), "-w"));
    cmd.addAll(List.of(args));
    Commands.Result r = Commands.run(cmd, java.time.Duration.ofSeconds(30));
    if (!r.ok() && must) {
      throw SolrscaleException.environment("iptables in " + h.name() + " failed: " + r.firstLine());
    }
    return r.ok();
  }

  static String iptables() {
    return Commands.which("iptables")
        .orElseThrow(
            () ->
                SolrscaleException.environment(
                    "link profiles need iptables; install it (e.g. apt-get install iptables)"));
  }

  /** Removes links: their rules (while the namespace is there), then their delayers. */
  static void remove(String netName, List<NetLink> links, NetState net) {
    for (NetLink l : links) {
      for (NetLink.Delayer d : l.delayers()) {
        net.find(d.host()).ifPresent(h -> rules(h, l.id(), d.queue(), List.of(), false));
        String marker = marker(netName, l.id());
        if (List.of(Procs.cmdline(d.pid()).split(" ")).contains(marker)) {
          Sshd.stop(List.of(d.pid()));
        }
      }
    }
  }
}
