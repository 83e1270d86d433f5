package org.solrscale.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterReport;
import org.solrscale.cluster.ClusterState;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.NodeGroup;
import org.solrscale.spec.Sizes;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.SpecLoader;
import org.solrscale.spec.ZkSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `solrscale up`: brings a cluster to its spec and waits until every replica is active. */
@Command(
    name = "up",
    description = "Start a SolrCloud cluster (idempotent) and wait until it is healthy.")
final class UpCommand implements Callable<Integer> {
  @Option(names = "--name", description = "Cluster name (default: lab, or the spec's name).")
  String name;

  @Option(
      names = "--timeout",
      defaultValue = "300s",
      converter = DurationConverter.class,
      description = "How long to wait for nodes and replicas (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(names = "--spec", description = "Cluster spec YAML (flags given as well override it).")
  Path specFile;

  @Option(
      names = "--solr-version",
      description = "Solr release (default: " + ClusterSpec.DEFAULT_SOLR_VERSION + ").")
  String solrVersion;

  @Option(names = "--nodes", description = "Number of Solr nodes (default: 1).")
  Integer nodes;

  @Option(
      names = "--zookeepers",
      paramLabel = "N",
      description = "ZooKeeper servers: 1, 3 or 5 (default: 1).")
  Integer zookeepers;

  @Option(
      names = "--zk",
      paramLabel = "N",
      description =
          "Deprecated name of --zookeepers, "
              + "kept for one release (in index, bench and status --zk is a ZooKeeper address).")
  Integer zk;

  @Option(
      names = "--heap",
      description = "Heap of each Solr node (default: " + ClusterSpec.DEFAULT_HEAP + ").")
  String heap;

  @Option(
      names = "--jvm-arg",
      paramLabel = "ARG",
      description =
          "A JVM argument for every Solr node, added to the spec's jvm_args (repeatable), e.g."
              + " --jvm-arg=-DzkClientTimeout=10000.")
  List<String> jvmArgs;

  @Option(
      names = "--base-port",
      description = "First Solr port; without it free ports from 8983 are chosen.")
  Integer basePort;

  @Option(
      names = "--hosts",
      split = ",",
      paramLabel = "HOST",
      description =
          "Run the nodes on these hosts over SSH (user@host or names from your ssh config, e.g."
              + " the lab network's lab-h1,lab-h2,lab-h3): ZooKeeper servers on distinct hosts,"
              + " Solr nodes spread evenly.")
  List<String> hosts;

  @Option(
      names = "--solr-per-host",
      paramLabel = "N",
      description = "Solr nodes on each host (with --hosts; default: 1).")
  Integer solrPerHost;

  @Option(
      names = "--auth",
      paramLabel = "none|basic",
      description =
          "basic: Solr's BasicAuth with an admin and a read-only user whose generated passwords"
              + " are kept in $SOLRSCALE_HOME/clusters/NAME/credentials (mode 0600).")
  String auth;

  @Option(
      names = "--tls",
      description =
          "HTTPS for clients and between nodes, with a lab CA made for the cluster (its files in"
              + " $SOLRSCALE_HOME/clusters/NAME/tls, readable by you only).")
  Boolean tls;

  @Option(
      names = "--java",
      paramLabel = "DIR",
      description =
          "The JDK the nodes on this machine run on (Solr 9: Java 11+, Solr 10: Java 21+). Default:"
              + " $SOLRSCALE_JAVA_HOME, else the first new enough of the JDK running solrscale,"
              + " $JAVA_HOME and the usual install locations (/usr/lib/jvm, /opt/java, SDKMAN, ...).")
  Path java;

  @Mixin CollectionOptions collectionOptions;

  @Option(names = "--json", description = "Print the resulting status as JSON.")
  boolean json;

  @Override
  public Integer call() {
    ClusterSpec spec = buildSpec();
    Cluster cluster = new Cluster(Terminal.home(), spec.name(), Terminal.progress());
    if (heap != null) {
      cluster.state().ifPresent(existing -> sameHeap(existing.spec(), heap));
    }
    long start = System.nanoTime();
    cluster.up(spec, timeout);
    ClusterReport report = cluster.status(true);
    if (json) {
      Terminal.printJson(report);
    } else {
      System.out.printf(
          "cluster %s is up in %.1f s%n%n", spec.name(), (System.nanoTime() - start) / 1e9);
      System.out.print(StatusPrinter.render(report));
    }
    return 0;
  }

  /** A running cluster keeps its nodes' heaps: another --heap is refused, not ignored. */
  private static void sameHeap(ClusterSpec existing, String heap) {
    long wanted = Sizes.bytes(heap);
    List<String> heaps = existing.nodeHeaps();
    if (wanted < 0 || heaps.stream().allMatch(h -> Sizes.bytes(h) == wanted)) {
      return;
    }
    throw SolrscaleException.usage(
        "cluster '"
            + existing.name()
            + "' runs its Solr nodes with heap "
            + String.join(", ", heaps.stream().distinct().toList())
            + ", not "
            + heap
            + "; a node's heap is chosen when it is created: run solrscale down --name "
            + existing.name()
            + " --purge, then up with --heap "
            + heap
            + " (or add-node --heap "
            + heap
            + " for one more node of that size)");
  }

  private boolean shapeGiven() {
    return solrVersion != null
        || nodes != null
        || zookeepers() != null
        || heap != null
        || jvmArgs != null
        || basePort != null
        || hosts != null
        || auth != null
        || tls != null;
  }

  /** --zookeepers, or the deprecated --zk it replaces (with a warning). */
  private Integer zookeepers() {
    if (zk == null) {
      return zookeepers;
    }
    if (zookeepers != null) {
      throw SolrscaleException.usage("give --zookeepers, not also --zk (its deprecated name)");
    }
    if (!warned) {
      System.err.println(
          "solrscale: warning: up --zk "
              + zk
              + " is deprecated and goes in the next "
              + "release; use --zookeepers "
              + zk
              + " (--zk names a ZooKeeper address elsewhere)");
      warned = true;
    }
    return zk;
  }

  private boolean warned;

  ClusterSpec buildSpec() {
    ClusterSpec base;
    if (specFile != null) {
      base = SpecLoader.load(specFile);
      if (name != null) {
        base = base.withName(name);
      } else if (base.name() == null) {
        base = base.withName("lab");
      }
    } else {
      String n = name == null ? "lab" : name;
      Optional<ClusterState> existing = new Cluster(Terminal.home(), n, s -> {}).state();
      base =
          existing.isPresent() && !shapeGiven()
              ? existing.get().spec().withCollections(List.of())
              : ClusterSpec.local(n, null, null, null, null, null, null, null);
    }
    Integer servers = zookeepers();
    if (solrVersion != null
        || heap != null
        || basePort != null
        || servers != null
        || jvmArgs != null) {
      ZkSpec z =
          servers == null
              ? base.zookeeper()
              : new ZkSpec(
                  servers,
                  base.zookeeper().tickTime(),
                  base.zookeeper().initLimit(),
                  base.zookeeper().syncLimit(),
                  base.zookeeper().heap());
      base =
          new ClusterSpec(
              base.name(),
              solrVersion != null ? solrVersion : base.solrVersion(),
              heap != null ? heap : base.heap(),
              jvmArgs == null
                  ? base.jvmArgs()
                  : Stream.concat(base.jvmArgs().stream(), jvmArgs.stream()).toList(),
              base.host(),
              basePort != null ? basePort : base.basePort(),
              base.nodes(),
              z,
              base.collections(),
              base.hosts(),
              base.solrPerHost(),
              base.auth(),
              base.tls(),
              base.javaHome());
    }
    if (hosts != null || solrPerHost != null) {
      List<HostSpec> hostSpecs =
          hosts == null
              ? base.hosts()
              : hosts.stream().map(String::strip).map(HostSpec::of).toList();
      Integer perHost = solrPerHost != null ? solrPerHost : base.solrPerHost();
      base = base.withHosts(hostSpecs, perHost);
      if (nodes == null) {
        long solrHosts = hostSpecs.stream().filter(h -> h.may("solr")).count();
        base =
            base.withNodes(
                List.of(
                    NodeGroup.ofCount(
                        (int) Math.max(1, solrHosts * (perHost == null ? 1 : perHost)))));
      }
    }
    if (nodes != null) {
      if (nodes < 1) {
        throw SolrscaleException.usage("--nodes " + nodes + " must be at least 1");
      }
      base = base.withNodes(List.of(NodeGroup.ofCount(nodes)));
    }
    if (auth != null) {
      if (!ClusterSpec.AUTH_KINDS.contains(auth)) {
        throw SolrscaleException.usage(
            "--auth " + auth + " is not one of " + String.join(", ", ClusterSpec.AUTH_KINDS));
      }
      base = base.withAuth(auth);
    }
    if (tls != null) {
      base = base.withTls(tls);
    }
    if (java != null) {
      base = base.withJavaHome(java.toAbsolutePath().normalize().toString());
    }
    if (collectionOptions.given()) {
      CollectionSpec c = collectionOptions.spec();
      List<CollectionSpec> cols = new ArrayList<>(base.collections());
      cols.removeIf(o -> o.name().equals(c.name()));
      cols.add(c);
      base = base.withCollections(cols);
    } else if (collectionOptions.othersGiven()) {
      throw SolrscaleException.usage(
          "--shards, --router, --shard-names and --configset need --collection");
    }
    return base;
  }
}
