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
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
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
 * parsed and verified once and mapped from a file at every later start (a static AppCDS archive on
 * Java 13-24, HotSpot's AOT cache on Java 25+). One archive per runtime, node jar and JDK build,
 * made once on this machine by a short training cluster (1 ZooKeeper, 1 Solr node, a collection, an
 * update and a faceted query, then stopped so that each JVM writes its class list or AOT cache as
 * it exits), kept under the runtime's {@code archives/KEY}, KEY a digest of what it was made from,
 * and put on hosts beside the runtime under the same KEY.
 *
 * <p>HotSpot takes an archive only with the very classpath it was made with, each jar of the same
 * size and modification time. So nodes name their jars relative to their own directory, through two
 * links there ({@code runtime}: the runtime's jars, {@code node.jar}), the same strings on every
 * host, and every copy of the jars carries one fixed modification time. A node whose JDK is not the
 * build the archive was made with is started without it (HotSpot would refuse it anyway, with a
 * warning in the node's log). {@code SOLRSCALE_CLASS_ARCHIVE=off} turns archives off (see {@link
 * #off}).
 */
final class ClassArchives {
  /** The prefix of the training clusters' names (one per archive key). */
  static final String TRAINING = "class-archive-";

  /** The modification time every jar of a runtime and every node jar is given: 2000-01-01. */
  static final long FIXED_MTIME_SECONDS = 946_684_800L;

  /** How archives are made: a new way of making them makes them anew. */
  private static final String FORMAT = "2: static, versioned classes left out";

  private static final FileTime FIXED = FileTime.fromMillis(FIXED_MTIME_SECONDS * 1000);
  private static final Pattern RUNTIME_VERSION =
      Pattern.compile("(?m)^JAVA_RUNTIME_VERSION=\"([^\"]+)\"");

  private ClassArchives() {}

  /** How HotSpot makes and takes an archive. */
  enum Kind {
    /**
     * Java 13-24: a static archive, dumped from the list of classes the training nodes loaded less
     * those in a multi-release jar's versioned directories. Not a dynamic archive written at exit:
     * before Java 24 (JDK-8343427) HotSpot crashes loading such a class from an archive while a
     * class-file load hook is on, as every node's flight recorder has it from its start.
     */
    CDS(".jsa", ".classlist", "-XX:DumpLoadedClassList=", "-XX:SharedArchiveFile="),
    /** Java 25+: an AOT cache (classes loaded and linked), written at exit. */
    AOT(".aot", ".aot", "-XX:AOTCacheOutput=", "-XX:AOTCache=");

    final String extension;
    final String trainingExtension;
    final String make;
    final String take;

    Kind(String extension, String trainingExtension, String make, String take) {
      this.extension = extension;
      this.trainingExtension = trainingExtension;
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
      return stem(role) + kind.extension;
    }

    /** The JVM option for a node of {@code role} whose archive directory there is {@code dir}. */
    String option(NodeRole role, String dirThere) {
      return making
          ? kind.make + dirThere + "/" + stem(role) + kind.trainingExtension
          : kind.take + dirThere + "/" + file(role);
    }

    /** The name of a node of this role's archive and class list, without extension. */
    static String stem(NodeRole role) {
      return role == NodeRole.ZK ? "zk" : "solr";
    }
  }

  /**
   * Whether archives are off on this machine: with {@code SOLRSCALE_CLASS_ARCHIVE=off} (or the
   * system property {@code solrscale.class.archive}); on otherwise.
   */
  static boolean off() {
    String v =
        System.getProperty("solrscale.class.archive", System.getenv("SOLRSCALE_CLASS_ARCHIVE"));
    return v != null
        && (v.equalsIgnoreCase("off")
            || v.equals("0")
            || v.equalsIgnoreCase("no")
            || v.equalsIgnoreCase("false"));
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
          make(home, runtime, jdk, nodeJar, kind, key, build, dir, progress);
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
      String all = String.join("\n", FORMAT, kind.name(), runtimeDigest, nodeJarDigest, jdkBuild);
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
      Path nodeJar,
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
            + " (once: a cluster of 1 ZooKeeper and 1 Solr node for about 30 s)");
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
      training.down(true); // each JVM writes its archive (or class list) as it exits
      Archive made = new Archive(kind, key, partial, build, false);
      for (NodeRole role : List.of(NodeRole.ZK, NodeRole.SOLR)) {
        if (kind == Kind.CDS) {
          dump(runtime, jdk, nodeJar, partial, role, made.file(role));
        }
        String file = made.file(role);
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
   * Dumps the static archive {@code file} of a node of {@code role} from the classes its training
   * node loaded, less those a class-file load hook could not be given from an archive (see {@link
   * Kind#CDS}): HotSpot run with the very classpath nodes have, from a directory with the same
   * links to the jars.
   */
  private static void dump(
      SolrRuntime runtime, Jdk jdk, Path nodeJar, Path partial, NodeRole role, String file)
      throws IOException {
    String name = Archive.stem(role);
    Path list = partial.resolve(name + Kind.CDS.trainingExtension);
    if (!Files.isRegularFile(list)) {
      throw SolrscaleException.failed("the " + name + " JVM wrote no " + list.getFileName());
    }
    List<Path> jars = new ArrayList<>(runtime.classpath());
    if (role == NodeRole.SOLR) {
      jars.add(nodeJar);
    }
    Path filtered = partial.resolve(name + ".archived" + Kind.CDS.trainingExtension);
    Files.write(filtered, archivable(Files.readAllLines(list), versioned(jars, jdk.feature())));
    Path cwd = Files.createDirectories(partial.resolve(name + "-dump"));
    Files.createSymbolicLink(
        cwd.resolve(HostOps.RUNTIME_LINK), runtime.dir().resolve("lib").toAbsolutePath());
    Files.createSymbolicLink(cwd.resolve(HostOps.NODE_JAR_LINK), nodeJar.toAbsolutePath());
    Path log = partial.resolve(name + "-dump.log");
    List<String> cmd =
        List.of(
            jdk.java().toString(),
            "-Xshare:dump",
            "-XX:SharedClassListFile=" + filtered.toAbsolutePath(),
            "-XX:SharedArchiveFile=" + partial.resolve(file).toAbsolutePath(),
            "-XX:+UseG1GC",
            "-Xmx512m",
            "-cp",
            HostOps.classpath(runtime, role));
    Process p =
        new ProcessBuilder(cmd)
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        p.destroyForcibly().waitFor();
        throw SolrscaleException.failed("dumping the " + name + " archive took over 3 minutes");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while dumping the class-data archive");
    }
    if (p.exitValue() != 0) {
      List<String> out = Files.readAllLines(log);
      throw SolrscaleException.failed(
          "dumping the "
              + name
              + " archive failed ("
              + (out.isEmpty() ? "exit " + p.exitValue() : out.get(out.size() - 1))
              + ")");
    }
    for (Path done : List.of(cwd, list, filtered, log)) {
      FileTrees.delete(done); // the archive is all that is kept and shipped
    }
  }

  /**
   * The classes in {@code jars} that a JDK of {@code feature} loads from a multi-release jar's
   * versioned directory ({@code META-INF/versions/N/}, N at most {@code feature}), in the class
   * list's form ({@code org/example/Foo}).
   */
  static Set<String> versioned(List<Path> jars, int feature) throws IOException {
    Set<String> out = new HashSet<>();
    for (Path jar : jars) {
      try (JarFile j = new JarFile(jar.toFile(), false)) {
        Manifest m = j.getManifest();
        if (m == null
            || !"true".equalsIgnoreCase(m.getMainAttributes().getValue("Multi-Release"))) {
          continue;
        }
        for (var e = j.entries(); e.hasMoreElements(); ) {
          Matcher v = VERSIONED.matcher(e.nextElement().getName());
          if (v.matches() && Integer.parseInt(v.group(1)) <= feature) {
            out.add(v.group(2));
          }
        }
      }
    }
    return out;
  }

  private static final Pattern VERSIONED = Pattern.compile("META-INF/versions/(\\d+)/(.+)\\.class");

  /**
   * The lines of a class list ({@code -XX:DumpLoadedClassList}) to archive: all but the classes in
   * {@code versioned}, the lambdas those classes make, and the classes of other class loaders
   * (lines with a {@code source:}), which Solr's plug-in loaders load and a static dump cannot.
   */
  static List<String> archivable(List<String> classList, Set<String> versioned) {
    List<String> out = new ArrayList<>();
    for (String line : classList) {
      String[] words = line.strip().split("\\s+");
      if (words[0].isEmpty() || line.contains(" source: ")) {
        continue;
      }
      String cls = words[0].equals("@lambda-proxy") && words.length > 1 ? words[1] : words[0];
      if (!versioned.contains(cls)) {
        out.add(line);
      }
    }
    return out;
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
