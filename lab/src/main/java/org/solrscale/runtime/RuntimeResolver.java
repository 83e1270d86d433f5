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

    Files.writeString(work.resolve("pom.xml"), pom(version, null));
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

    Files.writeString(work.resolve("pom.xml"), pom(version, jetty));
    Path staging = dir.resolve("lib.partial");
    deleteTree(staging);
    runMaven(
        work,
        version,
        DEPENDENCY_GOAL + "copy-dependencies",
        "-DoutputDirectory=" + staging,
        "-DincludeScope=runtime");
    Path lib = dir.resolve("lib");
    deleteTree(lib);
    Files.move(staging, lib, StandardCopyOption.ATOMIC_MOVE);

    List<String> jars;
    try (Stream<Path> files = Files.list(lib)) {
      jars =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".jar"))
              .sorted()
              .toList();
    }
    Manifest manifest =
        new Manifest(version, jetty, Launcher.forMajor(major).orElseThrow().minimumJava(), jars);
    Path tmp = dir.resolve("runtime.json.tmp");
    JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), manifest);
    Files.move(tmp, dir.resolve("runtime.json"), StandardCopyOption.ATOMIC_MOVE);
    progress.accept("Solr " + version + " runtime ready: " + jars.size() + " jars, Jetty " + jetty);
    return readCached(dir);
  }

  /** The generated POM: solr-core, and once the Jetty version is known, the server parts. */
  static String pom(String version, String jettyVersion) {
    Launcher launcher = Launcher.forVersion(version);
    StringBuilder deps = new StringBuilder();
    StringBuilder exclusions = new StringBuilder();
    for (Launcher.Artifact a : launcher.solrCoreExclusions()) {
      exclusions
          .append("<exclusion><groupId>")
          .append(a.group())
          .append("</groupId><artifactId>")
          .append(a.artifact())
          .append("</artifactId></exclusion>");
    }
    deps.append(
        dependency(
            "org.apache.solr",
            "solr-core",
            version,
            exclusions.length() == 0 ? "" : "<exclusions>" + exclusions + "</exclusions>"));
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
          <dependencies>
        %s  </dependencies>
          <build><plugins><plugin>
            <groupId>org.apache.maven.plugins</groupId>
            <artifactId>maven-dependency-plugin</artifactId>
            <version>%s</version>
          </plugin></plugins></build>
        </project>
        """
        .formatted(version, deps, DEPENDENCY_PLUGIN);
  }

  private static String dependency(String group, String artifact, String version, String extra) {
    return "    <dependency><groupId>"
        + group
        + "</groupId><artifactId>"
        + artifact
        + "</artifactId><version>"
        + version
        + "</version>"
        + extra
        + "</dependency>\n";
  }

  private void runMaven(Path work, String version, String... goalAndArgs) throws IOException {
    List<String> cmd = new ArrayList<>(mavenCommand());
    cmd.addAll(
        List.of("-B", "-q", "-Dstyle.color=never", "-f", work.resolve("pom.xml").toString()));
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
    if (p.exitValue() != 0) {
      throw classify(version, Files.readString(log), log);
    }
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
    boolean mentionsCore =
        output.contains("org.apache.solr:solr-core:jar:" + version)
            || output.contains("org.apache.solr:solr-core:pom:" + version);
    boolean missing =
        mentionsCore
            && (output.contains("was not found")
                || output.contains("Could not find artifact")
                || output.contains("Failure to find")
                || output.contains("(absent)"));
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
    if (missing) {
      return SolrscaleException.environment(
          "Solr "
              + version
              + " is not published (Maven found no org.apache.solr:solr-core:"
              + version
              + "); pick a released version such as 9.10.0");
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
