package org.solrscale.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/**
 * Takes a lab network down by the names and pids its state records: its sshd processes, namespaces,
 * links, bridge and files. Refuses while anything else runs on its hosts.
 */
final class NetDown {
  private static final Path PRIVSEP = Path.of("/run/sshd");
  private static final Pattern SLOW_MARKER = Pattern.compile("(^| )-Dsolrscale\\.slow=\\S+");
  private static final Pattern NODE_MARKER = Pattern.compile("-Dsolrscale\\.node=([^/\\s]+)/\\S+");

  private NetDown() {}

  static void run(SolrscaleHome home, NetState net, Consumer<String> progress) {
    Set<String> namespaces = Ip.namespaces();
    List<Long> own = new ArrayList<>();
    Map<String, List<Long>> others = new LinkedHashMap<>();
    for (NetHost h : net.hosts()) {
      if (!namespaces.contains(h.namespace())) {
        // its name was removed (by hand?); an sshd still in it keeps it alive, so it goes too
        own.addAll(Sshd.processes(h, List.of()));
        continue;
      }
      List<Long> pids = Ip.pids(h.namespace());
      List<Long> sshd = Sshd.processes(h, pids);
      own.addAll(sshd);
      // a packet delayer of a slow link (its run was killed) is solrscale's own, in its namespace
      List<Long> delayers =
          pids.stream().filter(p -> SLOW_MARKER.matcher(Procs.cmdline(p)).find()).toList();
      own.addAll(delayers);
      List<Long> rest =
          pids.stream().filter(p -> !sshd.contains(p) && !delayers.contains(p)).toList();
      if (!rest.isEmpty()) {
        others.put(h.name(), rest);
      }
    }
    if (!others.isEmpty()) {
      throw SolrscaleException.usage(busy(net.name(), others, Procs::cmdline));
    }
    Sshd.stop(own);
    progress.accept(
        "stopped " + own.size() + " sshd and delayer process(es) of lab network " + net.name());
    for (NetHost h : net.hosts()) {
      if (namespaces.contains(h.namespace())) {
        deleteNamespace(h.namespace());
      }
    }
    if (net.limits() != null) {
      net.hosts().forEach(Cgroups::remove);
    }
    Set<String> links = Ip.links();
    for (NetHost h : net.hosts()) {
      if (links.contains(h.veth())) {
        deleteLink(h.veth()); // usually gone with its peer in the namespace
      }
    }
    if (links.contains(net.bridge())) {
      deleteLink(net.bridge());
    }
    FileTrees.delete(NetFiles.dir(home, net.name()));
    removePrivsepIfUnused(home, net.name());
    SshConfig.write(home);
  }

  /**
   * One line naming what still runs on the net's hosts (pids by host name): a solrscale cluster by
   * the node marker in its command line, anything else by pid and program.
   */
  static String busy(String net, Map<String, List<Long>> others, LongFunction<String> cmdline) {
    Map<String, List<String>> clusters = new LinkedHashMap<>(); // cluster -> "lab-h1 (pids 1, 2)"
    List<String> plain = new ArrayList<>();
    for (Map.Entry<String, List<Long>> e : others.entrySet()) {
      Map<String, List<Long>> byCluster = new LinkedHashMap<>();
      List<String> rest = new ArrayList<>();
      for (long pid : e.getValue()) {
        String cmd = cmdline.apply(pid);
        Matcher m = NODE_MARKER.matcher(cmd);
        if (m.find()) {
          byCluster.computeIfAbsent(m.group(1), c -> new ArrayList<>()).add(pid);
        } else {
          String program =
              cmd.isEmpty() ? "?" : Path.of(cmd.split(" ")[0]).getFileName().toString();
          rest.add(pid + " " + program);
        }
      }
      byCluster.forEach(
          (c, pids) ->
              clusters
                  .computeIfAbsent(c, x -> new ArrayList<>())
                  .add(e.getKey() + " (pids " + join(pids) + ")"));
      if (!rest.isEmpty()) {
        plain.add(e.getKey() + " (" + String.join(", ", rest) + ")");
      }
    }
    List<String> parts = new ArrayList<>();
    clusters.forEach(
        (c, where) ->
            parts.add("solrscale cluster " + c + " still runs on " + String.join(", ", where)));
    if (!plain.isEmpty()) {
      parts.add("processes still run on " + String.join(", ", plain));
    }
    List<String> todo = new ArrayList<>();
    clusters.keySet().forEach(c -> todo.add("solrscale down --name " + c));
    String then = "then run solrscale net down --name " + net + " again";
    return String.join("; ", parts)
        + "; "
        + (todo.isEmpty()
            ? "stop them first, " + then
            : "run: "
                + String.join(", ", todo)
                + (plain.isEmpty() ? "" : "; stop the others")
                + ", "
                + then);
  }

  private static String join(List<Long> pids) {
    return pids.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }

  /** Deletes a namespace solrscale made; one already gone is fine. */
  static void deleteNamespace(String ns) {
    EtcNetns.delete(ns);
    Commands.Result r = Ip.tryIp("netns", "del", ns);
    if (!r.ok() && Ip.namespaces().contains(ns)) {
      throw SolrscaleException.environment("cannot delete namespace " + ns + ": " + r.firstLine());
    }
  }

  /** Deletes an interface solrscale made; one already gone is fine. */
  static void deleteLink(String name) {
    Commands.Result r = Ip.tryIp("link", "del", name);
    if (!r.ok() && Ip.links().contains(name)) {
      throw SolrscaleException.environment(
          "cannot delete interface " + name + ": " + r.firstLine());
    }
  }

  /**
   * Removes /run/sshd when solrscale made it and nothing needs it any more: no other lab network of
   * this home, no solrscale namespace of another home, no sshd running anywhere, nothing in it.
   */
  static void removePrivsepIfUnused(SolrscaleHome home, String leaving) {
    Path marker = NetFiles.privsepMarker(home);
    if (!Files.exists(marker)
        || NetStore.all(home).stream().anyMatch(n -> !n.name().equals(leaving))
        || Ip.namespaces().stream().anyMatch(ns -> ns.startsWith("solrscale-"))
        || anySshdRuns()) {
      return;
    }
    try {
      if (Files.isDirectory(PRIVSEP)) {
        try (Stream<Path> in = Files.list(PRIVSEP)) {
          if (in.findAny().isPresent()) {
            return;
          }
        }
        Files.delete(PRIVSEP);
      }
      Files.deleteIfExists(marker);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot remove " + PRIVSEP + ": " + e.getMessage());
    }
  }

  private static boolean anySshdRuns() {
    return ProcessHandle.allProcesses()
        .anyMatch(p -> Procs.exe(p.pid()).equals(Sshd.BINARY.toString()));
  }
}
