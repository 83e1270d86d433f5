package org.solrscale.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;

class RuntimeResolverTest {

  @Test
  void generatedPomNamesNoRepositoryAndAddsTheJettyServer() {
    String first = RuntimeResolver.pom("9.10.0", null);
    assertThat(first)
        .contains("<artifactId>solr-core</artifactId><version>9.10.0</version>")
        .doesNotContain("jetty-server")
        .doesNotContain("<repositor")
        .doesNotContain("<url>")
        .doesNotContain("https://");
    String second = RuntimeResolver.pom("9.10.0", "10.0.26");
    assertThat(second)
        .contains("<artifactId>jetty-server</artifactId><version>10.0.26</version>")
        .contains("<artifactId>jetty-servlet</artifactId><version>10.0.26</version>")
        .contains("<artifactId>http2-server</artifactId><version>10.0.26</version>")
        .contains("javax.servlet-api");
  }

  @Test
  void unknownVersionSaysItIsNotPublished() {
    SolrscaleException e =
        RuntimeResolver.classify(
            "9.99.0",
            "[ERROR] Failed to execute goal on project solr-runtime: Could not resolve dependencies "
                + "for project x: Could not find artifact org.apache.solr:solr-core:jar:9.99.0 in central "
                + "(https://example.invalid/maven2) -> [Help 1]\n",
            Path.of("maven.log"));
    assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
    assertThat(e.getMessage())
        .isEqualTo(
            "Solr 9.99.0 is not published (Maven found no "
                + "org.apache.solr:solr-core:9.99.0); pick a released version such as 9.10.0");
  }

  @Test
  void cachedMissingVersionInColourIsStillRecognised() {
    SolrscaleException e =
        RuntimeResolver.classify(
            "9.99.0",
            "\u001B[0m\u001B[0m[ERROR] Failed to execute goal on project solr-runtime: Could not resolve "
                + "dependencies for project x: org.apache.solr:solr-core:jar:9.99.0 was not found in "
                + "https://example.invalid/maven2 during a previous attempt. -> [Help 1]\n",
            Path.of("maven.log"));
    assertThat(e.getMessage()).startsWith("Solr 9.99.0 is not published");
  }

  @Test
  void unreachableRepositorySaysSoWithoutItsAddress() {
    SolrscaleException e =
        RuntimeResolver.classify(
            "9.10.0",
            "[ERROR] Failed to execute goal on project solr-runtime: Could not transfer artifact "
                + "org.apache.solr:solr-core:pom:9.10.0 from/to central (https://example.invalid/m2): "
                + "Unknown host example.invalid -> [Help 1]\n",
            Path.of("maven.log"));
    assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
    assertThat(e.getMessage())
        .startsWith("cannot fetch Solr 9.10.0: no Maven repository was reachable")
        .doesNotContain("https://")
        .doesNotContain("\n");
  }

  @Test
  void onlySolr9IsSupportedForNow() {
    assertThat(RuntimeResolver.majorOf("9.8.1")).isEqualTo(9);
    assertThatThrownBy(() -> RuntimeResolver.majorOf("10.0.0"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("not supported yet");
    assertThatThrownBy(() -> RuntimeResolver.majorOf("x"))
        .hasMessageContaining("not a release number");
  }

  @Test
  void jdkWithoutJavaIsAnEnvironmentError(@TempDir Path dir) {
    assertThatThrownBy(() -> Jdk.at(dir, "SOLRSCALE_JAVA_HOME"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("has no bin/java");
  }

  @Test
  void jdkTooOldIsAnEnvironmentError() {
    Jdk jdk = new Jdk(Path.of("/opt/jdk11"), 11);
    assertThatThrownBy(() -> jdk.requireAtLeast(21, "Solr 10.0.0"))
        .hasMessageContaining("needs Java 21+")
        .hasMessageContaining("SOLRSCALE_JAVA_HOME");
  }
}
