package org.solrscale.runtime;

import java.util.List;
import java.util.Optional;
import org.solrscale.spec.SolrscaleException;

/**
 * How solrscale runs one major version of Solr: the node launcher's main class and the embedded jar
 * that holds it, the Java the version needs, and what the runtime adds to solr-core (the server
 * parts the binary distribution ships and solr-core's POM leaves out, at the version of Jetty Solr
 * depends on). One entry per supported major; Solr 10 (Jetty 12) will be a second.
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
              List.of(new Artifact("javax.servlet", "javax.servlet-api"))));

  public static Optional<Launcher> forMajor(int major) {
    return ALL.stream().filter(l -> l.solrMajor == major).findFirst();
  }

  /** The launcher of a release number like 9.10.0; a usage error for one no launcher runs. */
  public static Launcher forVersion(String version) {
    int major;
    try {
      major = Integer.parseInt(version.substring(0, version.indexOf('.')));
    } catch (RuntimeException e) {
      throw SolrscaleException.usage(
          "Solr version '" + version + "' is not a release number like 9.10.0");
    }
    return forMajor(major)
        .orElseThrow(
            () ->
                SolrscaleException.usage(
                    "Solr "
                        + version
                        + " is not supported "
                        + "yet: solrscale's node launcher runs Solr "
                        + String.join(", ", ALL.stream().map(l -> l.solrMajor() + ".x").toList())
                        + " (Jetty 10); use e.g. --solr-version 9.10.0"));
  }
}
