package org.solrscale.runtime;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.solrscale.spec.SolrscaleException;

/** The JDK that runs Solr and ZooKeeper nodes: its java executable and feature version. */
public record Jdk(Path home, int feature) {
  private static final Pattern RELEASE_VERSION = Pattern.compile("JAVA_VERSION=\"(1\\.)?([0-9]+)");

  public Path java() {
    return home.resolve("bin").resolve("java");
  }

  /**
   * Where JDKs are usually installed (each child a JDK home): Debian/Ubuntu and RPM packages,
   * tarballs, SDKMAN, IntelliJ's downloads, macOS. $SOLRSCALE_JDK_DIRS (or system property
   * solrscale.jdk.dirs), colon-separated, replaces the list.
   */
  static final List<String> USUAL_DIRS =
      List.of(
          "/usr/lib/jvm",
          "/usr/java",
          "/usr/local/java",
          "/opt/java",
          "/opt/jdk",
          "~/.sdkman/candidates/java",
          "~/.jdks",
          "/Library/Java/JavaVirtualMachines");

  /**
   * The JDK for a cluster's nodes on this machine, for a Solr that needs Java {@code minimum}. An
   * explicit choice ({@code --java}/{@code java_home}, else $SOLRSCALE_JAVA_HOME) is used or
   * refused, never overridden. Otherwise the first new enough of: the JDK running solrscale,
   * $JAVA_HOME, and the oldest new-enough JDK in the usual install locations (the closest to what
   * Solr needs).
   */
  public static Jdk forNodes(int minimum, String requested, String forWhat) {
    String dirs = System.getProperty("solrscale.jdk.dirs", System.getenv("SOLRSCALE_JDK_DIRS"));
    List<Path> search =
        (dirs == null ? USUAL_DIRS : List.of(dirs.split(File.pathSeparator)))
            .stream()
                .filter(d -> !d.isBlank())
                .map(d -> Path.of(d.replaceFirst("^~", System.getProperty("user.home"))))
                .toList();
    return choose(minimum, requested, System.getenv(), running(), search, forWhat);
  }

  static Jdk choose(
      int minimum,
      String requested,
      Map<String, String> env,
      Jdk running,
      List<Path> search,
      String forWhat) {
    String solrscaleHome = env.get("SOLRSCALE_JAVA_HOME");
    if (requested != null && !requested.isBlank()) {
      Jdk jdk = at(Path.of(requested), "--java " + requested);
      jdk.requireAtLeast(minimum, forWhat, "--java/java_home");
      return jdk;
    }
    if (solrscaleHome != null && !solrscaleHome.isBlank()) {
      Jdk jdk = at(Path.of(solrscaleHome), "SOLRSCALE_JAVA_HOME");
      jdk.requireAtLeast(minimum, forWhat, "SOLRSCALE_JAVA_HOME");
      return jdk;
    }
    List<String> seen = new ArrayList<>();
    if (running.feature() >= minimum) {
      return running;
    }
    seen.add("Java " + running.feature() + " (running solrscale, " + running.home() + ")");
    String javaHome = env.get("JAVA_HOME");
    if (javaHome != null && !javaHome.isBlank()) {
      Jdk jdk = tryAt(Path.of(javaHome));
      if (jdk != null && jdk.feature() >= minimum) {
        return jdk;
      }
      seen.add(
          jdk == null
              ? "JAVA_HOME=" + javaHome + " (no JDK)"
              : "Java " + jdk.feature() + " (JAVA_HOME=" + javaHome + ")");
    }
    List<Jdk> installed = installed(search, running.home());
    for (Jdk jdk : installed) {
      if (jdk.feature() >= minimum) {
        return jdk;
      }
    }
    installed.forEach(j -> seen.add("Java " + j.feature() + " (" + j.home() + ")"));
    throw SolrscaleException.environment(
        forWhat
            + " needs Java "
            + minimum
            + " or newer and found only "
            + String.join(", ", seen)
            + "; install a JDK "
            + minimum
            + "+ or name one with --java DIR (java_home in a spec, or SOLRSCALE_JAVA_HOME)");
  }

  /** The JDKs under the given directories, oldest first, each home once. */
  static List<Jdk> installed(List<Path> search, Path except) {
    Set<Path> homes = new LinkedHashSet<>();
    for (Path dir : search) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> children = Files.list(dir)) {
        children
            .map(
                c -> Files.isDirectory(c.resolve("Contents/Home")) ? c.resolve("Contents/Home") : c)
            .map(Jdk::real)
            .sorted()
            .forEach(homes::add);
      } catch (IOException e) {
        // an unreadable directory holds no JDK we can use
      }
    }
    homes.remove(real(except));
    List<Jdk> found = new ArrayList<>();
    for (Path home : homes) {
      Jdk jdk = tryAt(home);
      if (jdk != null) {
        found.add(jdk);
      }
    }
    found.sort(Comparator.comparingInt(Jdk::feature));
    return found;
  }

  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }

  private static Jdk tryAt(Path home) {
    try {
      return at(home, home.toString());
    } catch (SolrscaleException e) {
      return null;
    }
  }

  /** The JDK this JVM runs on (solrscale's own: relays and drivers started here use it). */
  public static Jdk running() {
    return new Jdk(Path.of(System.getProperty("java.home")), Runtime.version().feature());
  }

  static Jdk at(Path home, String source) {
    Path java = home.resolve("bin").resolve("java");
    if (!Files.isExecutable(java)) {
      throw SolrscaleException.environment(
          source + "=" + home + " has no bin/java; point it at a JDK 17 or newer");
    }
    return new Jdk(home, featureOf(home, source));
  }

  private static int featureOf(Path home, String source) {
    try {
      Matcher m = RELEASE_VERSION.matcher(Files.readString(home.resolve("release")));
      if (m.find()) {
        return Integer.parseInt(m.group(2));
      }
    } catch (IOException e) {
      // fall through to the error below
    }
    throw SolrscaleException.environment(
        "cannot tell the Java version of "
            + source
            + "="
            + home
            + " (no JAVA_VERSION in its release file); point it at a JDK 17 or newer");
  }

  /** Fails with an environment error unless this JDK can run the given Solr runtime. */
  public void requireAtLeast(int minimum, String forWhat) {
    requireAtLeast(minimum, forWhat, "SOLRSCALE_JAVA_HOME");
  }

  private void requireAtLeast(int minimum, String forWhat, String chosenBy) {
    if (feature < minimum) {
      throw SolrscaleException.environment(
          forWhat
              + " needs Java "
              + minimum
              + "+ but "
              + home
              + " is Java "
              + feature
              + " (chosen by "
              + chosenBy
              + "); name a JDK "
              + minimum
              + "+ there instead");
    }
  }
}
