package org.solrscale.runtime;

import java.util.List;
import java.util.Optional;
import org.solrscale.spec.SolrscaleException;

/**
 * How solrscale runs one major version of Solr: the node launcher's main class and the embedded jar
 * that holds it, the Java the version needs, and what the runtime adds to solr-core (the server
 * parts the binary distribution ships and solr-core's POM leaves out, at the version of Jetty Solr
 * depends on). One entry per supported major: Solr 9 on Jetty 10 (javax servlets), Solr 10 on Jetty
 * 12 with Jakarta EE 10.
 */
public record Launcher(
    int solrMajor,
    String mainClass,
    String nodeJarResource,
    int minimumJava,
    List<Artifact> serverArtifacts,
    List<Artifact> solrCoreExclusions) {

  /** A Maven artifact by group and name (the version comes with the recipe). */
  public record Artifact(String group, String artifact) {}

  /** The launchers there are, by Solr major version. */
  static final List<Launcher> ALL =
      List.of(
          new Launcher(
              9,
              "org.solrscale.node.SolrNode",
              "/solrscale/solrscale-node.jar",
              11,
              List.of(
                  new Artifact("org.eclipse.jetty", "jetty-server"),
                  new Artifact("org.eclipse.jetty", "jetty-servlet"),
                  new Artifact("org.eclipse.jetty", "jetty-rewrite"),
                  new Artifact("org.eclipse.jetty.http2", "http2-server"),
                  // HTTPS with HTTP/2 chosen by ALPN, as the distribution's jetty-https.xml
                  new Artifact("org.eclipse.jetty", "jetty-alpn-java-server")),
              // the distribution ships Jetty's servlet API 4; solr-core's older one would shadow it
              List.of(new Artifact("javax.servlet", "javax.servlet-api"))),
          new Launcher(
              10,
              "org.solrscale.node12.SolrNode12",
              "/solrscale/solrscale-node-jetty12.jar",
              21,
              List.of(
                  new Artifact("org.eclipse.jetty", "jetty-server"),
                  new Artifact("org.eclipse.jetty.ee10", "jetty-ee10-servlet"),
                  new Artifact("org.eclipse.jetty", "jetty-rewrite"),
                  new Artifact("org.eclipse.jetty.http2", "jetty-http2-server"),
                  new Artifact("org.eclipse.jetty", "jetty-alpn-java-server")),
              List.of()));

  public static Optional<Launcher> forMajor(int major) {
    return ALL.stream().filter(l -> l.solrMajor == major).findFirst();
  }

  /** The launcher of a release number like 9.10.1; a usage error for one no launcher runs. */
  public static Launcher forVersion(String version) {
    int major;
    try {
      major = Integer.parseInt(version.substring(0, version.indexOf('.')));
    } catch (RuntimeException e) {
      throw SolrscaleException.usage(
          "Solr version '" + version + "' is not a release number like 9.10.1");
    }
    return forMajor(major)
        .orElseThrow(
            () ->
                SolrscaleException.usage(
                    "Solr "
                        + version
                        + " is not supported: solrscale's node launchers run Solr "
                        + String.join(" and ", ALL.stream().map(l -> l.solrMajor() + ".x").toList())
                        + "; use e.g. --solr-version 9.10.1"));
  }
}
