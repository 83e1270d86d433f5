package org.solrscale.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.solrscale.spec.SolrscaleException;

/**
 * Turns a Solr version into a cached classpath. It writes a small POM and lets the user's own
 * {@code mvn} resolve it, so their mirrors, proxies and credentials apply and no repository address
 * lives in solrscale. Once {@code runtime.json} is written, later runs never call Maven.
 */
public final class RuntimeResolver {
  static final String DEPENDENCY_PLUGIN = "3.8.1";

  /** Full coordinates, so no plugin-prefix lookup (which needs repository metadata) is made. */
  private static final String DEPENDENCY_GOAL =
      "org.apache.maven.plugins:maven-dependency-plugin:" + DEPENDENCY_PLUGIN + ":";

  private static final Pattern JETTY_HTTP =
      Pattern.compile("org\\.eclipse\\.jetty:jetty-http:jar:([^:\\s]+):");
  private static final Pattern URL = Pattern.compile("\\(?https?://\\S+\\)?");
  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SolrscaleHome home;
  private final Consumer<String> progress;

  public RuntimeResolver(SolrscaleHome home, Consumer<String> progress) {
    this.home = home;
    this.progress = progress;
  }

  /** What runtime.json records. */
  record Manifest(String version, String jettyVersion, int minimumJava, List<String> jars) {}

  public SolrRuntime resolve(String version) {
    int major = majorOf(version);
    Path dir = home.runtimes().resolve(version);
    SolrRuntime cached = readCached(dir);
    if (cached != null) {
      return cached;
    }
    try {
      Files.createDirectories(dir);
      try (FileChannel ch =
              FileChannel.open(
                  dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = ch.lock()) {
        cached = readCached(dir);
        return cached != null ? cached : download(version, major, dir);
      }
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write the runtime cache " + dir + ": " + e.getMessage());
    }
  }

  static int majorOf(String version) {
    return Launcher.forVersion(version).solrMajor();
  }

  private SolrRuntime readCached(Path dir) {
    Path manifestFile = dir.resolve("runtime.json");
    if (!Files.isRegularFile(manifestFile)) {
      return null;
    }
    try {
      Manifest m = JSON.readValue(manifestFile.toFile(), Manifest.class);
      if (m.jettyVersion() != null) {
        for (Launcher.Artifact a : Launcher.forVersion(m.version()).serverArtifacts()) {
          if (!m.jars().contains(a.artifact() + "-" + m.jettyVersion() + ".jar")) {
            return null; // made before the launcher needed this part: resolve again
          }
        }
      }
      List<Path> jars = new ArrayList<>();
      for (String jar : m.jars()) {
        Path p = dir.resolve("lib").resolve(jar);
        if (!Files.isRegularFile(p)) {
          return null; // damaged cache: resolve again
        }
        jars.add(p);
      }
      return new SolrRuntime(m.version(), dir, jars, m.jettyVersion(), m.minimumJava());
    } catch (IOException e) {
      return null;
    }
  }

  private SolrRuntime download(String version, int major, Path dir) throws IOException {
    progress.accept("resolving Solr " + version + " through Maven into " + dir + " (once)");
    Path work = dir.resolve("resolve");
    Files.createDirectories(work);

    // solr-core's own POM first: whether it exists, and whether Maven can use it as it is
    Files.writeString(work.resolve("pom.xml"), pom(version, null, null));
    runMaven(
        work,
        version,
        DEPENDENCY_GOAL + "copy",
        "-Dartifact=org.apache.solr:solr-core:" + version + ":pom",
        "-DoutputDirectory=" + work);
    SolrCorePom corePom = SolrCorePom.read(work.resolve("solr-core-" + version + ".pom"));
    // A POM that leaves a version out (solr-core 10.0.0, SOLR-18003) is invalid to Maven, which
    // then silently drops every transitive dependency: declare its dependencies here instead.
    SolrCorePom flatten = corePom.complete() ? null : corePom;
    if (flatten != null) {
      progress.accept(
          "solr-core "
              + version
              + "'s POM leaves out versions of "
              + String.join(", ", corePom.versionless())
              + " (SOLR-18003): declaring its dependencies directly");
    }

    Files.writeString(work.resolve("pom.xml"), pom(version, null, flatten));
    Path jettyList = work.resolve("jetty.txt");
    runMaven(
        work,
        version,
        DEPENDENCY_GOAL + "list",
        "-DincludeArtifactIds=jetty-http",
        "-DoutputFile=" + jettyList);
    Matcher m = JETTY_HTTP.matcher(Files.readString(jettyList));
    if (!m.find()) {
      throw SolrscaleException.environment(
          "Solr "
              + version
              + " does not depend on jetty-http; solrscale cannot tell which Jetty to run it with");
    }
    String jetty = m.group(1);

    Files.writeString(work.resolve("pom.xml"), pom(version, jetty, flatten));
    Path staging = dir.resolve("lib.partial");
    deleteTree(staging);
    String output =
        runMaven(
            work,
            version,
            DEPENDENCY_GOAL + "copy-dependencies",
            "-DoutputDirectory=" + staging,
            "-DincludeScope=runtime");
    List<String> jars;
    try (Stream<Path> files = Files.list(staging)) {
      jars =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".jar"))
              .sorted()
              .toList();
    }
    String incomplete = incomplete(version, output, corePom, flatten != null, jars);
    if (incomplete != null) {
      throw SolrscaleException.environment(
          incomplete + " (full output in " + work.resolve("maven.log") + ")");
    }
    Path lib = dir.resolve("lib");
    deleteTree(lib);
    Files.move(staging, lib, StandardCopyOption.ATOMIC_MOVE);

    Manifest manifest =
        new Manifest(version, jetty, Launcher.forMajor(major).orElseThrow().minimumJava(), jars);
    Path tmp = dir.resolve("runtime.json.tmp");
    JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), manifest);
    Files.move(tmp, dir.resolve("runtime.json"), StandardCopyOption.ATOMIC_MOVE);
    progress.accept("Solr " + version + " runtime ready: " + jars.size() + " jars, Jetty " + jetty);
    return readCached(dir);
  }

  private static final Pattern DROPPED =
      Pattern.compile(
          "The POM for (\\S+) is invalid, transitive dependencies \\(if any\\) will not be"
              + " available");

  /**
   * Why a resolved runtime is not whole, or null: Maven dropped the dependencies of a POM it found
   * invalid (it only warns), or a dependency solr-core declares is not among the jars.
   */
  static String incomplete(
      String version,
      String mavenOutput,
      SolrCorePom corePom,
      boolean flattened,
      List<String> jars) {
    Matcher dropped = DROPPED.matcher(ANSI.matcher(mavenOutput).replaceAll(""));
    while (dropped.find()) {
      String what = dropped.group(1);
      if (flattened && what.startsWith("org.apache.solr:solr-core:")) {
        continue; // its dependencies are declared directly
      }
      return "cannot assemble Solr "
          + version
          + ": Maven found the POM of "
          + what
          + " invalid and left out all of its dependencies";
    }
    List<Launcher.Artifact> excluded = Launcher.forVersion(version).solrCoreExclusions();
    List<String> missing =
        corePom.runtimeDependencies().stream()
            .filter(d -> !excluded.contains(new Launcher.Artifact(d.group(), d.artifact())))
            .filter(d -> jars.stream().noneMatch(j -> j.startsWith(d.artifact() + "-")))
            .map(d -> d.group() + ":" + d.artifact())
            .toList();
    if (!missing.isEmpty()) {
      return "cannot assemble Solr "
          + version
          + ": solr-core needs "
          + String.join(", ", missing)
          + " but Maven resolved no jar of "
          + (missing.size() == 1 ? "it" : "them");
    }
    return null;
  }

  /** The generated POM for Solr {@code version} (tests and the first step: no Jetty yet). */
  static String pom(String version, String jettyVersion) {
    return pom(version, jettyVersion, null);
  }

  /**
   * The generated POM: solr-core, and once the Jetty version is known, the server parts. With
   * {@code flatten}, solr-core comes alone and its runtime dependencies are declared here, each
   * with its own exclusions; versions it leaves out come from solr-solrj's POM of the same release,
   * imported as a BOM (SOLR-18003 was fixed there: it imports Jackson's BOM).
   */
  static String pom(String version, String jettyVersion, SolrCorePom flatten) {
    Launcher launcher = Launcher.forVersion(version);
    StringBuilder deps = new StringBuilder();
    StringBuilder exclusions = new StringBuilder();
    if (flatten != null) {
      exclusions.append(exclusion("*", "*"));
    } else {
      for (Launcher.Artifact a : launcher.solrCoreExclusions()) {
        exclusions.append(exclusion(a.group(), a.artifact()));
      }
    }
    deps.append(
        dependency(
            "org.apache.solr",
            "solr-core",
            version,
            exclusions.length() == 0 ? "" : "<exclusions>" + exclusions + "</exclusions>"));
    String management = "";
    if (flatten != null) {
      for (SolrCorePom.Dependency d : flatten.runtimeDependencies()) {
        if (launcher
            .solrCoreExclusions()
            .contains(new Launcher.Artifact(d.group(), d.artifact()))) {
          continue;
        }
        StringBuilder ex = new StringBuilder();
        d.exclusions().forEach(e -> ex.append(exclusion(e.group(), e.artifact())));
        deps.append(
            dependency(
                d.group(),
                d.artifact(),
                d.version(),
                ex.length() == 0 ? "" : "<exclusions>" + ex + "</exclusions>"));
      }
      management =
          "  <dependencyManagement><dependencies>\n"
              + "    <dependency><groupId>org.apache.solr</groupId><artifactId>solr-solrj</artifactId>"
              + "<version>"
              + version
              + "</version><type>pom</type><scope>import</scope></dependency>\n"
              + "  </dependencies></dependencyManagement>\n";
    }
    if (jettyVersion != null) {
      // solr-core's POM leaves out what the binary distribution provides: the Jetty server
      for (Launcher.Artifact a : launcher.serverArtifacts()) {
        deps.append(dependency(a.group(), a.artifact(), jettyVersion, ""));
      }
    }
    return """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <!-- generated by solrscale to resolve a Solr runtime with your own Maven settings -->
          <groupId>org.solrscale.runtime</groupId>
          <artifactId>solr-runtime</artifactId>
          <version>%s</version>
          <packaging>pom</packaging>
        %s  <dependencies>
        %s  </dependencies>
          <build><plugins><plugin>
            <groupId>org.apache.maven.plugins</groupId>
            <artifactId>maven-dependency-plugin</artifactId>
            <version>%s</version>
          </plugin></plugins></build>
        </project>
        """
        .formatted(version, management, deps, DEPENDENCY_PLUGIN);
  }

  private static String exclusion(String group, String artifact) {
    return "<exclusion><groupId>"
        + group
        + "</groupId><artifactId>"
        + artifact
        + "</artifactId></exclusion>";
  }

  private static String dependency(String group, String artifact, String version, String extra) {
    return "    <dependency><groupId>"
        + group
        + "</groupId><artifactId>"
        + artifact
        + "</artifactId>"
        + (version == null ? "" : "<version>" + version + "</version>")
        + extra
        + "</dependency>\n";
  }

  /** Runs Maven on the work POM; its output (warnings included: they tell of dropped POMs). */
  private String runMaven(Path work, String version, String... goalAndArgs) throws IOException {
    List<String> cmd = new ArrayList<>(mavenCommand());
    cmd.addAll(
        List.of(
            "-B",
            "--no-transfer-progress",
            "-Dstyle.color=never",
            "-f",
            work.resolve("pom.xml").toString()));
    cmd.addAll(List.of(goalAndArgs));
    Path log = work.resolve("maven.log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    try {
      if (!p.waitFor(30, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw SolrscaleException.environment(
            "Maven did not finish resolving Solr " + version + " within 30 minutes; see " + log);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw SolrscaleException.environment("interrupted while resolving Solr " + version);
    }
    String output = Files.readString(log);
    if (p.exitValue() != 0) {
      throw classify(version, output, log);
    }
    return output;
  }

  /** Turns Maven's failure output into one line that says what to do. */
  static SolrscaleException classify(String version, String output, Path log) {
    output = ANSI.matcher(output).replaceAll("");
    String detail =
        output
            .lines()
            .filter(l -> l.startsWith("[ERROR]"))
            .map(l -> l.substring(7).trim())
            .filter(l -> !l.isEmpty())
            .findFirst()
            .orElse("");
    detail = URL.matcher(detail).replaceAll("").replaceAll("\\s+", " ").trim();
    List<String> absent = absentArtifacts(output);
    boolean missing =
        absent.stream()
            .anyMatch(
                a ->
                    a.equals("org.apache.solr:solr-core:jar:" + version)
                        || a.equals("org.apache.solr:solr-core:pom:" + version));
    boolean unreachable =
        output.contains("Could not transfer")
            || output.contains("UnknownHost")
            || output.contains("Unknown host")
            || output.contains("Connection refused")
            || output.contains("Network is unreachable")
            || output.contains("timed out")
            || output.contains("offline mode")
            || output.contains("could not be resolved")
            || output.contains("No plugin found for prefix");
    if (!missing && !absent.isEmpty()) {
      return SolrscaleException.environment(
          "cannot assemble Solr "
              + version
              + ": your Maven repositories do not serve "
              + String.join(", ", absent)
              + ", which solr-core "
              + version
              + " needs; add a repository that has "
              + (absent.size() == 1 ? "it" : "them")
              + " (Maven Central does) to your Maven settings (full output in "
              + log
              + ")");
    }
    if (missing) {
      return SolrscaleException.environment(
          "Solr "
              + version
              + " is not published (Maven found no org.apache.solr:solr-core:"
              + version
              + "); pick a released version such as 9.10.1");
    }
    if (unreachable) {
      return SolrscaleException.environment(
          "cannot fetch Solr "
              + version
              + ": no Maven repository was reachable and it is not cached yet; check your network or "
              + "Maven settings ("
              + detail
              + "; full output in "
              + log
              + ")");
    }
    return SolrscaleException.environment(
        "Maven failed to resolve Solr "
            + version
            + ": "
            + detail
            + " (full output in "
            + log
            + ")");
  }

  private static final String COORDINATES = "[\\w.-]+:[\\w.-]+:(?:jar|pom):[\\w.-]+";
  private static final Pattern ABSENT_ONE =
      Pattern.compile(
          "(?:Could not find artifact |Failure to find )("
              + COORDINATES
              + ")|("
              + COORDINATES
              + ")(?: \\(absent\\)| was not found)");
  private static final Pattern ABSENT_LIST =
      Pattern.compile("could not be resolved: ((?:" + COORDINATES + "(?: \\(absent\\))?(?:, )?)+)");

  /** The artifacts Maven says no repository has, in order, each once. */
  static List<String> absentArtifacts(String output) {
    List<String> found = new ArrayList<>();
    Matcher list = ABSENT_LIST.matcher(output);
    while (list.find()) {
      for (String a : list.group(1).split(", ")) {
        a = a.replace(" (absent)", "").trim();
        if (!a.isEmpty() && !found.contains(a)) {
          found.add(a);
        }
      }
    }
    Matcher one = ABSENT_ONE.matcher(output);
    while (one.find()) {
      String a = one.group(1) != null ? one.group(1) : one.group(2);
      if (!found.contains(a)) {
        found.add(a);
      }
    }
    return found;
  }

  /**
   * The Maven command: system property solrscale.mvn or $SOLRSCALE_MVN (an executable, optionally
   * followed by arguments such as -s settings.xml), else the mvn on the PATH.
   */
  static List<String> mavenCommand() {
    String configured = System.getProperty("solrscale.mvn", System.getenv("SOLRSCALE_MVN"));
    if (configured != null && !configured.isBlank()) {
      return List.of(configured.trim().split("\\s+"));
    }
    return List.of(mavenExecutable());
  }

  static String mavenExecutable() {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String d : path.split(File.pathSeparator)) {
        if (!d.isEmpty() && Files.isExecutable(Path.of(d, "mvn"))) {
          return Path.of(d, "mvn").toString();
        }
      }
    }
    throw SolrscaleException.environment(
        "Maven (mvn) is not on the PATH and Solr runtimes are "
            + "resolved with it; install Maven 3.6+ or set SOLRSCALE_MVN to its mvn");
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
