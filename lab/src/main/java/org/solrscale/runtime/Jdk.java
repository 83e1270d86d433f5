package org.solrscale.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.spec.SolrscaleException;

/** The JDK that runs Solr and ZooKeeper nodes: its java executable and feature version. */
public record Jdk(Path home, int feature) {
  private static final Pattern RELEASE_VERSION = Pattern.compile("JAVA_VERSION=\"(1\\.)?([0-9]+)");

  public Path java() {
    return home.resolve("bin").resolve("java");
  }

  /** The JDK named by $SOLRSCALE_JAVA_HOME, else the one running solrscale. */
  public static Jdk discover() {
    String env = System.getenv("SOLRSCALE_JAVA_HOME");
    if (env != null && !env.isBlank()) {
      return at(Path.of(env), "SOLRSCALE_JAVA_HOME");
    }
    return running();
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
    if (feature < minimum) {
      throw SolrscaleException.environment(
          forWhat
              + " needs Java "
              + minimum
              + "+ but "
              + home
              + " is Java "
              + feature
              + "; set SOLRSCALE_JAVA_HOME to a newer JDK");
    }
  }
}
