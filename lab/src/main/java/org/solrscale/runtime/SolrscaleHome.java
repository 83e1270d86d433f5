package org.solrscale.runtime;

import java.nio.file.Path;

/** Where solrscale keeps runtimes and clusters: $SOLRSCALE_HOME, by default ~/.solrscale. */
public record SolrscaleHome(Path dir) {

  /**
   * The system property solrscale.home (tests, embedding), else $SOLRSCALE_HOME, else ~/.solrscale.
   */
  public static SolrscaleHome fromEnvironment() {
    String prop = System.getProperty("solrscale.home");
    if (prop != null && !prop.isBlank()) {
      return new SolrscaleHome(Path.of(prop).toAbsolutePath());
    }
    String env = System.getenv("SOLRSCALE_HOME");
    if (env != null && !env.isBlank()) {
      return new SolrscaleHome(Path.of(env).toAbsolutePath());
    }
    return new SolrscaleHome(Path.of(System.getProperty("user.home"), ".solrscale"));
  }

  public Path runtimes() {
    return dir.resolve("runtimes");
  }

  public Path clusters() {
    return dir.resolve("clusters");
  }

  public Path cluster(String name) {
    return clusters().resolve(name);
  }

  public Path lib() {
    return dir.resolve("lib");
  }
}
