package org.solrscale.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.Jdk;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.NodeGroup;
import org.solrscale.spec.ReplicaCounts;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.ZkSpec;

/**
 * Class-data archives for the nodes' JVMs: the classes a ZooKeeper server and a Solr node load,
 * parsed and verified once and mapped from a file at every later start (HotSpot's dynamic AppCDS
 * archive on Java 13-24, its AOT cache on Java 25+). One archive per runtime, node jar and JDK
 * build, made once on this machine by a short training cluster (1 ZooKeeper, 1 Solr node, a
 * collection, an update and a faceted query, then stopped so that each JVM writes its archive as it
 * exits), kept under the runtime's {@code archives/KEY}, KEY a digest of what it was made from, and
 * put on hosts beside the runtime under the same KEY.
 *
 * <p>HotSpot takes an archive only with the very classpath it was made with, each jar of the same
 * size and modification time. So nodes name their jars relative to their own directory, through two
 * links there ({@code runtime}: the runtime's jars, {@code node.jar}), the same strings on every
 * host, and every copy of the jars carries one fixed modification time. A node whose JDK is not the
 * build the archive was made with is started without it (HotSpot would refuse it anyway, with a
 * warning in the node's log). Archives are used only with {@code SOLRSCALE_CLASS_ARCHIVE=on} (see
 * {@link #off}).
 */
final class ClassArchives {
  /** The prefix of the training clusters' names (one per archive key). */
  static final String TRAINING = "class-archive-";

  /** The modification time every jar of a runtime and every node jar is given: 2000-01-01. */
  static final long FIXED_MTIME_SECONDS = 946_684_800L;

  private static final FileTime FIXED = FileTime.fromMillis(FIXED_MTIME_SECONDS * 1000);
  private static final Pattern RUNTIME_VERSION =
      Pattern.compile("(?m)^JAVA_RUNTIME_VERSION=\"([^\"]+)\"");

  private ClassArchives() {}

  /** How HotSpot makes and takes an archive. */
  enum Kind {
    /** Java 13-24: a dynamic archive written at exit. */
    CDS(".jsa", "-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile="),
    /** Java 25+: an AOT cache (classes loaded and linked), written at exit. */
    AOT(".aot", "-XX:AOTCacheOutput=", "-XX:AOTCache=");

    final String extension;
    final String make;
    final String take;

    Kind(String extension, String make, String take) {
      this.extension = extension;
      this.make = make;
      this.take = take;
    }

    /** The kind a JDK of this feature release supports, or null (Java 11 and 12: none). */
    static Kind of(int feature) {
      return feature >= 25 ? AOT : feature >= 13 ? CDS : null;
    }
  }

  /**
   * An archive for a launch: where it is on this machine, the JDK build it belongs to, and whether
   * the nodes started now make it (the training cluster) or take it.
   */
  record Archive(Kind kind, String key, Path dir, String jdkBuild, boolean making) {
    /** The archive's file for a node of this role. */
    String file(NodeRole role) {
      return (role == NodeRole.ZK ? "zk" : "solr") + kind.extension;
    }

    /** The JVM option for a node of {@code role} whose archive directory there is {@code dir}. */
    String option(NodeRole role, String dirThere) {
      return (making ? kind.make : kind.take) + dirThere + "/" + file(role);
    }
  }

  /**
   * Whether archives are off on this machine: unless {@code SOLRSCALE_CLASS_ARCHIVE=on} (or the
   * system property {@code solrscale.class.archive}). Off by default since HotSpot 17.0.15 crashed
   * (SIGSEGV in KlassFactory::check_shared_class_file_load_hook) starting a Solr 9.7.0 node with
   * its archive while the node's flight recorder, readied at its start, had the class-file load
   * hook on; Solr 9.10.1 ran every test with it.
   */
  static boolean off() {
    String v =
        System.getProperty("solrscale.class.archive", System.getenv("SOLRSCALE_CLASS_ARCHIVE"));
    return v == null || !(v.equalsIgnoreCase("on") || v.equals("1") || v.equalsIgnoreCase("yes"));
  }

  /** The build of the JDK at {@code home} (JAVA_RUNTIME_VERSION of its release file), or null. */
  static String build(Path home) {
    try {
      Matcher m = RUNTIME_VERSION.matcher(Files.readString(home.resolve("release")));
      return m.find() ? m.group(1) : null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The archive the nodes of {@code cluster} start with: made now when there is none yet (a
   * training cluster's own nodes make it), or null when there can be none (turned off, a JDK
   * without archives or without a release file, or an earlier attempt that failed).
   */
  static Archive forLaunch(
      SolrscaleHome home,
      String cluster,
      SolrRuntime runtime,
      Jdk jdk,
      Path nodeJar,
      Consumer<String> progress) {
    Kind kind = Kind.of(jdk.feature());
    String build = build(jdk.home());
    if (off() || kind == null || build == null) {
      return null;
    }
    String key = key(kind, ContentDigest.of(runtime), ContentDigest.ofFile(nodeJar), build);
    Path archives = runtime.dir().resolve("archives");
    Path dir = archives.resolve(key);
    if (cluster.startsWith(TRAINING)) {
      return new Archive(kind, key, archives.resolve(key + ".partial"), build, true);
    }
    try {
      fixTimes(runtime, nodeJar);
    } catch (SolrscaleException e) {
      progress.accept("warning: " + e.getMessage() + "; nodes start without a class-data archive");
      return null;
    }
    if (Files.exists(dir.resolve(".complete"))) {
      return new Archive(kind, key, dir, build, false);
    }
    if (Files.exists(dir.resolve("failed"))) {
      return null; // said once, when it failed
    }
    try {
      Files.createDirectories(archives);
      try (FileChannel ch =
              FileChannel.open(
                  archives.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = ch.lock()) {
        if (!Files.exists(dir.resolve(".complete"))) { // another solrscale may have made it
          make(home, runtime, jdk, kind, key, build, dir, progress);
        }
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + archives + ": " + e.getMessage());
    }
    return Files.exists(dir.resolve(".complete"))
        ? new Archive(kind, key, dir, build, false)
        : null;
  }

  static String key(Kind kind, String runtimeDigest, String nodeJarDigest, String jdkBuild) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      String all = String.join("\n", kind.name(), runtimeDigest, nodeJarDigest, jdkBuild);
      return HexFormat.of()
          .formatHex(md.digest(all.getBytes(StandardCharsets.UTF_8)))
          .substring(0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Gives the runtime's jars and the node jar the fixed modification time, where they lack it. */
  static void fixTimes(SolrRuntime runtime, Path nodeJar) {
    List<Path> all = new ArrayList<>(runtime.classpath());
    all.add(nodeJar);
    for (Path jar : all) {
      try {
        if (!Files.getLastModifiedTime(jar).equals(FIXED)) {
          Files.setLastModifiedTime(jar, FIXED);
        }
      } catch (IOException e) {
        throw SolrscaleException.environment(
            "cannot set the time of " + jar + " (for the class-data archive): " + e.getMessage());
      }
    }
  }

  /** Runs the training cluster; the archive is complete afterwards, or {@code failed} says why. */
  private static void make(
      SolrscaleHome home,
      SolrRuntime runtime,
      Jdk jdk,
      Kind kind,
      String key,
      String build,
      Path dir,
      Consumer<String> progress) {
    progress.accept(
        "making the class-data archive for Solr "
            + runtime.version()
            + " on Java "
            + build
            + " (once: a cluster of 1 ZooKeeper and 1 Solr node for about 20 s)");
    String name = TRAINING + key.substring(0, 12);
    Path partial = dir.resolveSibling(key + ".partial");
    Cluster training = new Cluster(home, name, line -> {});
    try {
      if (training.exists() || Files.exists(home.cluster(name))) {
        training.down(true); // left by an earlier attempt that was killed
      }
      FileTrees.delete(partial);
      Files.createDirectories(partial);
      ClusterState state = training.up(spec(name, runtime, jdk), Duration.ofMinutes(3));
      exercise(state);
      training.down(true); // each JVM writes its archive as it exits
      for (NodeRole role : List.of(NodeRole.ZK, NodeRole.SOLR)) {
        String file = (role == NodeRole.ZK ? "zk" : "solr") + kind.extension;
        if (!Files.isRegularFile(partial.resolve(file)) || Files.size(partial.resolve(file)) == 0) {
          throw SolrscaleException.failed(
              "the " + role.name().toLowerCase() + " JVM wrote no " + file);
        }
      }
      Files.writeString(partial.resolve("jdk"), build + "\n");
      Files.writeString(partial.resolve(".complete"), "");
      FileTrees.delete(dir);
      Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
      dropOlder(dir, build);
      progress.accept("class-data archive made: " + dir);
    } catch (IOException | RuntimeException e) {
      String why =
          e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
      try {
        if (training.exists()) {
          training.down(true);
        }
      } catch (RuntimeException ignored) {
        // what it left is deleted by the next attempt
      }
      FileTrees.delete(partial);
      try {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("failed"), why + "\n");
      } catch (IOException ignored) {
        // then the next up tries again
      }
      progress.accept(
          "warning: no class-data archive ("
              + why
              + "); nodes start without one. To try again:"
              + " rm -r "
              + dir);
    }
  }

  /**
   * Deletes this runtime's other archives for the same JDK build: they were made with older node
   * jars (a new solrscale), which no node takes again.
   */
  private static void dropOlder(Path made, String build) throws IOException {
    try (var others = Files.list(made.getParent())) {
      for (Path d : others.toList()) {
        Path jdk = d.resolve("jdk");
        if (!d.equals(made)
            && Files.isRegularFile(jdk)
            && Files.readString(jdk).strip().equals(build)) {
          FileTrees.delete(d);
        }
      }
    }
  }

  private static ClusterSpec spec(String name, SolrRuntime runtime, Jdk jdk) {
    CollectionSpec c =
        new CollectionSpec("training", 1, ReplicaCounts.nrt(1), null, null, null, null);
    return new ClusterSpec(
        name,
        runtime.version(),
        "256m",
        List.of(),
        ClusterSpec.DEFAULT_HOST,
        null,
        List.of(NodeGroup.ofCount(1)),
        ZkSpec.ofServers(1),
        List.of(c),
        null,
        null,
        null,
        false,
        jdk.home().toString());
  }

  /** An update, a commit and a faceted, sorted query: the classes of the paths every test uses. */
  private static void exercise(ClusterState state) {
    String base = state.solrNodes().get(0).baseUrl() + "/training";
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    try {
      send(
          http,
          HttpRequest.newBuilder(URI.create(base + "/update?commit=true"))
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "[{\"id\":\"1\",\"title_s\":\"a\",\"n_i\":1},"
                          + "{\"id\":\"2\",\"title_s\":\"b\",\"n_i\":2}]")));
      send(
          http,
          HttpRequest.newBuilder(
                  URI.create(
                      base
                          + "/select?q=*:*&fq=n_i:[1+TO+2]&sort=n_i+desc&facet=true"
                          + "&facet.field=title_s&stats=true&stats.field=n_i&rows=2"))
              .GET());
    } catch (IOException e) {
      throw SolrscaleException.failed("the training node did not answer: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while making the class-data archive");
    }
  }

  private static void send(HttpClient http, HttpRequest.Builder request)
      throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw SolrscaleException.failed(
          "the training node answered " + r.statusCode() + " to " + r.request().uri());
    }
  }
}
