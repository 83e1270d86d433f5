package org.solrscale.net;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.solrscale.spec.SolrscaleException;

/** iproute2's ip and tc: what namespaces, links and routes there are, and changes to them. */
final class Ip {
  private Ip() {}

  static String ip() {
    return Commands.which("ip")
        .orElseThrow(
            () ->
                SolrscaleException.environment(
                    "lab networks need the ip command (iproute2); install it "
                        + "(e.g. apt-get install iproute2)"));
  }

  static String tc() {
    return Commands.which("tc")
        .orElseThrow(
            () ->
                SolrscaleException.environment(
                    "a bandwidth cap needs the tc command (iproute2); install it "
                        + "(e.g. apt-get install iproute2)"));
  }

  /** Runs ip with {@code args}; on failure an environment error saying what could not be done. */
  static String ip(String what, String... args) {
    return Commands.check(what, command(ip(), args));
  }

  static String tc(String what, String... args) {
    return Commands.check(what, command(tc(), args));
  }

  static Commands.Result tryIp(String... args) {
    return Commands.run(command(ip(), args));
  }

  static Commands.Result tryTc(String... args) {
    return Commands.run(command(tc(), args));
  }

  private static List<String> command(String program, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(program);
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** The named network namespaces (`ip netns list`). */
  static Set<String> namespaces() {
    Set<String> names = new LinkedHashSet<>();
    for (String line : ip("list network namespaces", "netns", "list").lines().toList()) {
      String name = line.strip().split("\\s+")[0];
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }

  /** The interfaces of this machine's own namespace (`ip -o link show`). */
  static Set<String> links() {
    return linkNames(ip("list network interfaces", "-o", "link", "show"));
  }

  /** Interface names in `ip -o link show` output: "5: sv-lab-1@if2: <...> ...". */
  static Set<String> linkNames(String output) {
    Set<String> names = new LinkedHashSet<>();
    for (String line : output.lines().toList()) {
      String[] parts = line.split(":\\s+", 3);
      if (parts.length >= 2) {
        String name = parts[1].strip();
        int at = name.indexOf('@');
        names.add(at > 0 ? name.substring(0, at) : name);
      }
    }
    return names;
  }

  /** Every IPv4 route of every table, one per line. */
  static List<String> routes() {
    return ip("list routes", "-4", "route", "show", "table", "all").lines().toList();
  }

  /** The pids of the processes in namespace {@code ns} (none when it is gone). */
  static List<Long> pids(String ns) {
    Commands.Result r = tryIp("netns", "pids", ns);
    if (!r.ok()) {
      return List.of();
    }
    return r.output()
        .lines()
        .map(String::strip)
        .filter(l -> l.matches("\\d+"))
        .map(Long::parseLong)
        .toList();
  }

  /** The rate of the tbf qdisc at the root of {@code dev} (in namespace ns, or null for ours). */
  static String tbfRate(String ns, String dev) {
    Commands.Result r =
        ns == null
            ? tryTc("qdisc", "show", "dev", dev, "root")
            : tryTc("-n", ns, "qdisc", "show", "dev", dev, "root");
    return r.ok() ? tbfRate(r.output()) : null;
  }

  /**
   * The rate in `tc qdisc show` output of a tbf qdisc ("... tbf 8001: root ... rate 50Mbit ...").
   */
  static String tbfRate(String output) {
    for (String line : output.lines().toList()) {
      String[] w = line.strip().split("\\s+");
      if (w.length > 1 && w[0].equals("qdisc") && w[1].equals("tbf")) {
        for (int i = 2; i < w.length - 1; i++) {
          if (w[i].equals("rate")) {
            return w[i + 1].toLowerCase(Locale.ROOT);
          }
        }
      }
    }
    return null;
  }
}
