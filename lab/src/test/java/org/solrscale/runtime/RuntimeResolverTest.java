package org.solrscale.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;

class RuntimeResolverTest {

  @Test
  void generatedPomNamesNoRepositoryAndAddsTheJettyServer() {
    String first = RuntimeResolver.pom("9.10.1", null);
    assertThat(first)
        .contains("<artifactId>solr-core</artifactId><version>9.10.1</version>")
        .doesNotContain("jetty-server")
        .doesNotContain("<repositor")
        .doesNotContain("<url>")
        .doesNotContain("https://");
    String second = RuntimeResolver.pom("9.10.1", "10.0.26");
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
                + "org.apache.solr:solr-core:9.99.0); pick a released version such as 9.10.1");
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
            "9.10.1",
            "[ERROR] Failed to execute goal on project solr-runtime: Could not transfer artifact "
                + "org.apache.solr:solr-core:pom:9.10.1 from/to central (https://example.invalid/m2): "
                + "Unknown host example.invalid -> [Help 1]\n",
            Path.of("maven.log"));
    assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
    assertThat(e.getMessage())
        .startsWith("cannot fetch Solr 9.10.1: no Maven repository was reachable")
        .doesNotContain("https://")
        .doesNotContain("\n");
  }

  @Test
  void solr9And10HaveLaunchersAndOthersAreRefusedInOneLine() {
    assertThat(RuntimeResolver.majorOf("9.8.1")).isEqualTo(9);
    assertThat(RuntimeResolver.majorOf("10.0.0")).isEqualTo(10);
    assertThat(Launcher.forVersion("10.0.0").minimumJava()).isEqualTo(21);
    for (String v : List.of("8.11.4", "11.0.0")) {
      assertThatThrownBy(() -> RuntimeResolver.majorOf(v))
          .isInstanceOf(SolrscaleException.class)
          .hasMessage(
              "Solr "
                  + v
                  + " is not supported: solrscale's node launchers run Solr 9.x and 10.x;"
                  + " use e.g. --solr-version 9.10.1");
    }
    assertThatThrownBy(() -> RuntimeResolver.majorOf("x"))
        .hasMessageContaining("not a release number");
  }

  /** The shape of solr-core 10.0.0's POM: Jackson without versions (SOLR-18003). */
  private static final String INCOMPLETE_POM =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <modelVersion>4.0.0</modelVersion>
        <groupId>org.apache.solr</groupId>
        <artifactId>solr-core</artifactId>
        <version>10.0.0</version>
        <dependencies>
          <dependency>
            <groupId>org.apache.lucene</groupId><artifactId>lucene-core</artifactId>
            <version>10.3.2</version><scope>compile</scope>
            <exclusions><exclusion><groupId>log4j</groupId><artifactId>log4j</artifactId></exclusion></exclusions>
          </dependency>
          <dependency>
            <groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId>
            <scope>runtime</scope>
          </dependency>
          <dependency>
            <groupId>org.eclipse.jetty</groupId><artifactId>jetty-http</artifactId>
            <version>12.0.27</version><scope>runtime</scope>
          </dependency>
          <dependency>
            <groupId>org.junit</groupId><artifactId>junit</artifactId>
            <version>5</version><scope>test</scope>
          </dependency>
          <dependency>
            <groupId>org.example</groupId><artifactId>extra</artifactId>
            <version>1</version><optional>true</optional>
          </dependency>
        </dependencies>
      </project>
      """;

  @Test
  void anIncompleteSolrCorePomIsDeclaredDependencyByDependency(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("solr-core-10.0.0.pom");
    Files.writeString(file, INCOMPLETE_POM);
    SolrCorePom pom = SolrCorePom.read(file);
    assertThat(pom.complete()).isFalse();
    assertThat(pom.versionless()).containsExactly("com.fasterxml.jackson.core:jackson-databind");
    assertThat(pom.runtimeDependencies())
        .extracting(SolrCorePom.Dependency::artifact)
        .containsExactly("lucene-core", "jackson-databind", "jetty-http");

    String generated = RuntimeResolver.pom("10.0.0", "12.0.27", pom);
    assertThat(generated)
        // solr-core alone: Maven would drop its dependencies anyway, silently
        .contains(
            "<artifactId>solr-core</artifactId><version>10.0.0</version><exclusions><exclusion>"
                + "<groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>")
        .contains(
            "<artifactId>lucene-core</artifactId><version>10.3.2</version><exclusions><exclusion>"
                + "<groupId>log4j</groupId><artifactId>log4j</artifactId></exclusion>")
        // the missing version comes from solr-solrj's POM of the same release
        .contains("<artifactId>jackson-databind</artifactId></dependency>")
        .contains(
            "<artifactId>solr-solrj</artifactId><version>10.0.0</version><type>pom</type>"
                + "<scope>import</scope>")
        .contains("<artifactId>jetty-ee10-servlet</artifactId><version>12.0.27</version>")
        .contains("<artifactId>jetty-http2-server</artifactId><version>12.0.27</version>")
        .doesNotContain("junit")
        .doesNotContain("<artifactId>extra</artifactId>")
        .doesNotContain("<repositor");
    // a complete POM (every 9.x) is used as it is
    assertThat(RuntimeResolver.pom("9.10.1", null, null)).doesNotContain("dependencyManagement");
  }

  @Test
  void artifactsTheRepositoriesLackAreNamedInOneLine() {
    // Maven's words on this machine for Solr 10.0.0, whose registry lacks three of its parts
    String output =
        "[WARNING] The POM for org.apache.solr:solr-core:jar:10.0.0 is invalid, transitive"
            + " dependencies (if any) will not be available, enable debug logging for more details\n"
            + "[ERROR] Failed to execute goal on project solr-runtime: Could not resolve dependencies"
            + " for project org.solrscale.runtime:solr-runtime:pom:10.0.0: The following artifacts"
            + " could not be resolved: org.apache.solr:solr-solrj-streaming:jar:10.0.0,"
            + " org.apache.lucene:lucene-classification:jar:10.3.2,"
            + " org.apache.lucene:lucene-analysis-nori:jar:10.3.2:"
            + " org.apache.solr:solr-solrj-streaming:jar:10.0.0 was not found in"
            + " https://example.invalid/maven2 during a previous attempt. -> [Help 1]\n";
    assertThat(RuntimeResolver.absentArtifacts(output))
        .containsExactly(
            "org.apache.solr:solr-solrj-streaming:jar:10.0.0",
            "org.apache.lucene:lucene-classification:jar:10.3.2",
            "org.apache.lucene:lucene-analysis-nori:jar:10.3.2");
    SolrscaleException e = RuntimeResolver.classify("10.0.0", output, Path.of("maven.log"));
    assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
    assertThat(e.getMessage())
        .startsWith(
            "cannot assemble Solr 10.0.0: your Maven repositories do not serve"
                + " org.apache.solr:solr-solrj-streaming:jar:10.0.0,"
                + " org.apache.lucene:lucene-classification:jar:10.3.2,"
                + " org.apache.lucene:lucene-analysis-nori:jar:10.3.2, which solr-core 10.0.0 needs")
        .doesNotContain("https://")
        .doesNotContain("\n");
  }

  @Test
  void aRuntimeMavenQuietlyCutShortIsRefused(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("solr-core-10.0.0.pom");
    Files.writeString(file, INCOMPLETE_POM);
    SolrCorePom pom = SolrCorePom.read(file);
    List<String> whole =
        List.of("lucene-core-10.3.2.jar", "jackson-databind-2.20.0.jar", "jetty-http-12.0.27.jar");
    String coreDropped =
        "[WARNING] The POM for org.apache.solr:solr-core:jar:10.0.0 is invalid, transitive"
            + " dependencies (if any) will not be available\n";
    // solr-core's own POM is expected to be invalid when its dependencies are declared directly
    assertThat(RuntimeResolver.incomplete("10.0.0", coreDropped, pom, true, whole)).isNull();
    assertThat(RuntimeResolver.incomplete("10.0.0", coreDropped, pom, false, whole))
        .isEqualTo(
            "cannot assemble Solr 10.0.0: Maven found the POM of org.apache.solr:solr-core:jar:10.0.0"
                + " invalid and left out all of its dependencies");
    String otherDropped = coreDropped.replace("solr-core", "solr-api");
    assertThat(RuntimeResolver.incomplete("10.0.0", otherDropped, pom, true, whole))
        .contains("org.apache.solr:solr-api:jar:10.0.0 invalid");
    assertThat(RuntimeResolver.incomplete("10.0.0", "", pom, true, whole.subList(0, 2)))
        .isEqualTo(
            "cannot assemble Solr 10.0.0: solr-core needs org.eclipse.jetty:jetty-http but Maven"
                + " resolved no jar of it");
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
