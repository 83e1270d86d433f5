package org.solrscale.spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Checks a cluster spec once, before anything starts: errors and risky settings. */
public final class SpecValidator {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  private static final Pattern HEAP = Pattern.compile("[1-9][0-9]*[kKmMgG]");
  private static final Pattern VERSION = Pattern.compile("[0-9]+\\.[0-9]+\\.[0-9]+");
  private static final Pattern LABEL = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");
  private static final Pattern CORES = Pattern.compile("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

  /** ZooKeeper limits below this across data centres risk followers falling out of the quorum. */
  static final int CROSS_DC_MIN_MILLIS = 10_000;

  private SpecValidator() {}

  public static List<Problem> validate(ClusterSpec spec) {
    List<Problem> problems = new ArrayList<>();
    if (spec.name() == null || !NAME.matcher(spec.name()).matches()) {
      problems.add(
          Problem.error(
                  "cluster name '"
                      + spec.name()
                      + "' is not valid: use letters, digits, '-' or '_' (at most 64), e.g. --name lab")
              .at("/name"));
    }
    if (!VERSION.matcher(spec.solrVersion()).matches()) {
      problems.add(
          Problem.error(
                  "Solr version '" + spec.solrVersion() + "' is not a release number like 9.10.1")
              .at("/solr_version"));
    }
    if (!ClusterSpec.AUTH_KINDS.contains(spec.auth())) {
      problems.add(
          Problem.error(
                  "auth '"
                      + spec.auth()
                      + "' is not one of "
                      + String.join(", ", ClusterSpec.AUTH_KINDS))
              .at("/auth"));
    }
    if (spec.tls() && spec.onHosts()) {
      problems.add(
          Problem.error("tls runs on this machine's nodes only so far: leave out hosts or tls")
              .at("/tls"));
    }
    checkHeap(problems, "heap", spec.heap(), "/heap");
    checkNodes(problems, spec);
    checkZk(problems, spec);
    checkHosts(problems, spec);
    checkCollections(problems, spec);
    if (spec.basePort() != null && (spec.basePort() < 1024 || spec.basePort() > 65000)) {
      problems.add(
          Problem.error("base_port " + spec.basePort() + " must be within 1024-65000")
              .at("/base_port"));
    }
    return problems;
  }

  /** Validates and throws the first error as a usage error; returns the warnings. */
  public static List<String> check(ClusterSpec spec) {
    List<String> warnings = new ArrayList<>();
    for (Problem p : validate(spec)) {
      if (p.error()) {
        throw SolrscaleException.usage(p.message());
      }
      warnings.add(p.message());
    }
    return warnings;
  }

  private static void checkHeap(List<Problem> problems, String what, String heap, String path) {
    if (heap != null && !HEAP.matcher(heap).matches()) {
      problems.add(
          Problem.error(what + " '" + heap + "' is not a JVM heap size like 512m or 2g").at(path));
    }
  }

  private static void checkNodes(List<Problem> problems, ClusterSpec spec) {
    for (int i = 0; i < spec.nodes().size(); i++) {
      NodeGroup group = spec.nodes().get(i);
      String at = "/nodes/" + i;
      if (group.count() < 1) {
        problems.add(
            Problem.error("a node group has count " + group.count() + "; it must be >= 1").at(at));
      }
      checkHeap(problems, "node heap", group.heap(), at + "/heap");
      for (String label : group.labels().keySet()) {
        if (!LABEL.matcher(label).matches()) {
          problems.add(
              Problem.error(
                      "node label '"
                          + label
                          + "' is not valid: it becomes a Java system property, use letters, digits, '.', '_' or '-'")
                  .at(at + "/labels"));
        }
      }
    }
    if (spec.nodeCount() > 32 && !spec.onHosts()) {
      problems.add(
          Problem.error(
                  "nodes "
                      + spec.nodeCount()
                      + " is more than solrscale runs on this machine (32; give hosts for more)")
              .at("/nodes"));
    }
  }

  private static void checkZk(List<Problem> problems, ClusterSpec spec) {
    ZkSpec zk = spec.zookeeper();
    if (zk.servers() != 1 && zk.servers() != 3 && zk.servers() != 5) {
      problems.add(
          Problem.error(
                  "zookeeper servers "
                      + zk.servers()
                      + " is not supported: use 1, 3 or 5 (an even ensemble tolerates no more failures than the odd one below it)")
              .at("/zookeeper"));
    }
    if (zk.tickTime() < 100) {
      problems.add(
          Problem.error("zookeeper tick_time " + zk.tickTime() + " ms is below 100 ms")
              .at("/zookeeper/tick_time"));
    }
    if (zk.initLimit() < 1 || zk.syncLimit() < 1) {
      problems.add(
          Problem.error("zookeeper init_limit and sync_limit must be >= 1 (ticks)")
              .at("/zookeeper"));
    }
    checkHeap(problems, "zookeeper heap", zk.heap(), "/zookeeper/heap");
    Set<String> dcs = new HashSet<>();
    for (Map<String, String> labels : spec.nodeLabels()) {
      if (labels.containsKey("dc")) {
        dcs.add(labels.get("dc"));
      }
    }
    if (dcs.size() > 1) {
      long init = (long) zk.initLimit() * zk.tickTime();
      long sync = (long) zk.syncLimit() * zk.tickTime();
      if (init < CROSS_DC_MIN_MILLIS || sync < CROSS_DC_MIN_MILLIS) {
        problems.add(
            Problem.warning(
                "nodes span "
                    + dcs.size()
                    + " data centres but zookeeper allows "
                    + "init_limit*tick_time="
                    + init
                    + " ms and sync_limit*tick_time="
                    + sync
                    + " ms; below "
                    + CROSS_DC_MIN_MILLIS
                    + " ms followers across a WAN link may drop out"));
      }
    }
  }

  private static void checkHosts(List<Problem> problems, ClusterSpec spec) {
    if (!spec.onHosts()) {
      if (spec.solrPerHost() != null) {
        problems.add(
            Problem.error("solr_per_host needs hosts: list the hosts (hosts: or --hosts)")
                .at("/solr_per_host"));
      }
      return;
    }
    Set<String> seen = new HashSet<>();
    boolean unusable = false;
    for (int i = 0; i < spec.hosts().size(); i++) {
      HostSpec h = spec.hosts().get(i);
      String at = "/hosts/" + i;
      if (h.ssh() == null
          || h.ssh().isBlank()
          || h.ssh().startsWith("-")
          || h.ssh().contains(" ")) {
        problems.add(
            Problem.error(
                    "host "
                        + (i + 1)
                        + " has no valid ssh target: give user@host or a name from your ssh config")
                .at(at));
        unusable = true;
        continue;
      }
      if (!seen.add(h.ssh())) {
        problems.add(
            Problem.error(
                    "host '"
                        + h.ssh()
                        + "' is listed twice; a host runs several Solr nodes with solr_per_host")
                .at(at));
      }
      for (String role : h.roles()) {
        if (!HostSpec.ROLES.contains(role)) {
          problems.add(
              Problem.error(
                      "host '"
                          + h.ssh()
                          + "' has role '"
                          + role
                          + "'; roles are "
                          + String.join(", ", HostSpec.ROLES))
                  .at(at + "/roles"));
        }
      }
      for (String label : h.labels().keySet()) {
        if (!LABEL.matcher(label).matches()) {
          problems.add(
              Problem.error(
                      "host label '"
                          + label
                          + "' is not valid: it becomes a Java system property, use letters, digits, '.', '_' or '-'")
                  .at(at + "/labels"));
        }
      }
      if (h.port() != null && (h.port() < 1 || h.port() > 65535)) {
        problems.add(Problem.error("host '" + h.ssh() + "' has ssh port " + h.port()).at(at));
      }
      if (h.cpus() != null && (h.cpus() < 0.01 || h.cpus() > 1024)) {
        problems.add(
            Problem.error(
                    "host '"
                        + h.ssh()
                        + "' has cpus "
                        + h.cpus()
                        + "; give a share of CPU of 0.01 or more, e.g. 0.5 or 2")
                .at(at + "/cpus"));
      }
      if (h.cores() != null && !CORES.matcher(h.cores()).matches()) {
        problems.add(
            Problem.error(
                    "host '"
                        + h.ssh()
                        + "' has cores '"
                        + h.cores()
                        + "'; give CPU numbers like 0, 0-1 or 0,2")
                .at(at + "/cores"));
      }
      if (h.memory() != null && h.memoryBytes() < (1 << 20)) {
        problems.add(
            Problem.error(
                    "host '"
                        + h.ssh()
                        + "' has memory '"
                        + h.memory()
                        + "'; give a size of 1m or more like 512m or 2g")
                .at(at + "/memory"));
      }
    }
    if (unusable) {
      return; // placement is checked once every host has a target
    }
    long zkHosts = spec.hosts().stream().filter(h -> h.may("zk")).count();
    if (spec.zookeeper().servers() > zkHosts) {
      problems.add(
          Problem.error(
                  "zookeeper servers is "
                      + spec.zookeeper().servers()
                      + " but "
                      + (zkHosts == 1 ? "only 1 host" : zkHosts + " hosts")
                      + " may run ZooKeeper, and a host runs at most one ZooKeeper server "
                      + "(two on one host fail together); add hosts or lower zookeeper servers")
              .at("/zookeeper"));
    }
    long solrHosts = spec.hosts().stream().filter(h -> h.may("solr")).count();
    if (solrHosts == 0) {
      problems.add(
          Problem.error("no host may run Solr: give at least one host the role solr").at("/hosts"));
    } else if (spec.solrPerHost() != null) {
      if (spec.solrPerHost() < 1) {
        problems.add(
            Problem.error("solr_per_host " + spec.solrPerHost() + " must be at least 1")
                .at("/solr_per_host"));
      } else if (spec.nodeCount() != solrHosts * spec.solrPerHost()) {
        problems.add(
            Problem.error(
                    "nodes is "
                        + spec.nodeCount()
                        + " but "
                        + solrHosts
                        + " Solr hosts with solr_per_host "
                        + spec.solrPerHost()
                        + " make "
                        + solrHosts * spec.solrPerHost()
                        + "; give one or the other")
                .at("/solr_per_host"));
      }
    }
  }

  private static void checkCollections(List<Problem> problems, ClusterSpec spec) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < spec.collections().size(); i++) {
      CollectionSpec c = spec.collections().get(i);
      String at = "/collections/" + i;
      if (c.name() == null || !NAME.matcher(c.name()).matches()) {
        problems.add(
            Problem.error(
                    "collection name '"
                        + c.name()
                        + "' is not valid: use letters, digits, '-' or '_'")
                .at(at + "/name"));
        continue;
      }
      if (!names.add(c.name())) {
        problems.add(
            Problem.error("collection '" + c.name() + "' is listed twice").at(at + "/name"));
      }
      validateCollection(c, spec.nodeCount()).forEach(p -> problems.add(p.at(at)));
    }
  }

  /** The problems of one collection on a cluster of {@code nodes} Solr nodes. */
  public static List<Problem> validateCollection(CollectionSpec c, int nodes) {
    List<Problem> problems = new ArrayList<>();
    String name = "collection '" + c.name() + "'";
    if (c.shards() < 1) {
      problems.add(
          Problem.error(name + " has shards " + c.shards() + "; it needs at least 1")
              .at("/shards"));
    }
    ReplicaCounts r = c.replicas();
    if (r.nrt() < 0 || r.tlog() < 0 || r.pull() < 0) {
      problems.add(Problem.error(name + " has a negative replica count").at("/replicas"));
    } else if (r.nrt() + r.tlog() < 1) {
      problems.add(
          Problem.error(
                  name
                      + " needs at least one NRT or TLOG replica per shard (PULL replicas cannot lead)")
              .at("/replicas"));
    } else if (r.total() > nodes) {
      problems.add(
          Problem.warning(
              name
                  + " has "
                  + r.total()
                  + " replicas per shard but only "
                  + nodes
                  + " nodes: Solr's placement will put several replicas of one shard on the same node, "
                  + "which protects against nothing"));
    }
    if (CollectionSpec.IMPLICIT.equals(c.router())) {
      if (c.shardNames().isEmpty()) {
        problems.add(
            Problem.error(name + " uses router implicit, which needs shard_names (e.g. [a, b])")
                .at("/router"));
      } else if (c.shardNames().size() != c.shards()) {
        problems.add(
            Problem.error(
                    name
                        + " lists "
                        + c.shardNames().size()
                        + " shard_names but shards is "
                        + c.shards())
                .at("/shard_names"));
      }
    } else if (CollectionSpec.COMPOSITE_ID.equals(c.router())) {
      if (!c.shardNames().isEmpty()) {
        problems.add(
            Problem.error(name + " gives shard_names, which only router implicit uses")
                .at("/shard_names"));
      }
    } else {
      problems.add(
          Problem.error(name + " has router '" + c.router() + "'; use compositeId or implicit")
              .at("/router"));
    }
    if (!c.usesDefaultConfigset()) {
      checkConfigset(name, c.configset()).forEach(p -> problems.add(p.at("/configset")));
    }
    c.properties()
        .keySet()
        .forEach(
            k -> {
              if (!k.matches("[A-Za-z0-9_.-]+")) {
                problems.add(
                    Problem.error(
                            name
                                + " property '"
                                + k
                                + "' is not a name (letters, digits, '.', '_', '-')")
                        .at("/properties"));
              }
            });
    return problems;
  }

  private static List<Problem> checkConfigset(String name, String configset) {
    Path dir = Path.of(configset);
    if (!Files.isDirectory(dir)) {
      return List.of(
          Problem.error(
              name + " configset '" + configset + "' is neither 'default' nor a directory"));
    }
    if (!Files.isRegularFile(dir.resolve("solrconfig.xml"))
        && !Files.isRegularFile(dir.resolve("conf").resolve("solrconfig.xml"))) {
      return List.of(
          Problem.error(
              name
                  + " configset "
                  + dir
                  + " has no solrconfig.xml (looked in it and in its conf/ directory)"));
    }
    return List.of();
  }
}
