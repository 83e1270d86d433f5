package org.solrscale.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;

/** Which JDK a cluster's nodes run on, among JDK homes laid out as real ones are. */
class JdkTest {

  private static Jdk jdk(Path parent, String name, String javaVersion) throws Exception {
    return Jdk.at(layOut(parent, name, javaVersion), name);
  }

  private static Path layOut(Path parent, String name, String javaVersion) throws Exception {
    Path home = parent.resolve(name);
    Files.createDirectories(home.resolve("bin"));
    Path java = home.resolve("bin/java");
    Files.writeString(java, "#!/bin/sh\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + javaVersion + "\"\n");
    return home;
  }

  @Test
  void theOldestNewEnoughInstalledJdkRunsSolr10WhenSolrscaleRunsOnJava17(@TempDir Path dir)
      throws Exception {
    Path jvm = dir.resolve("jvm");
    Jdk running = jdk(jvm, "java-17-openjdk", "17.0.15");
    jdk(jvm, "temurin-25", "25.0.1");
    jdk(jvm, "temurin-21", "21.0.8");
    layOut(jvm, "not-a-jdk", "x"); // no usable release file: skipped
    Jdk chosen = Jdk.choose(21, null, Map.of(), running, List.of(jvm), "Solr 10.0.0");
    assertThat(chosen.feature()).isEqualTo(21);
    assertThat(chosen.home().getFileName().toString()).isEqualTo("temurin-21");
    // Solr 9 keeps the JDK solrscale runs on
    assertThat(Jdk.choose(11, null, Map.of(), running, List.of(jvm), "Solr 9.10.1"))
        .isEqualTo(running);
  }

  @Test
  void javaHomeIsTakenWhenNewEnough(@TempDir Path dir) throws Exception {
    Jdk running = jdk(dir, "j17", "17.0.15");
    Jdk j25 = jdk(dir.resolve("elsewhere"), "j25", "25");
    Jdk chosen =
        Jdk.choose(
            21,
            null,
            Map.of("JAVA_HOME", j25.home().toString()),
            running,
            List.of(dir.resolve("none")),
            "Solr 10.0.0");
    assertThat(chosen.home()).isEqualTo(j25.home());
  }

  @Test
  void anExplicitJdkIsUsedOrRefusedNeverOverridden(@TempDir Path dir) throws Exception {
    Path jvm = dir.resolve("jvm");
    Jdk j17 = jdk(jvm, "j17", "17.0.15");
    Jdk j25 = jdk(jvm, "j25", "25");
    assertThat(
            Jdk.choose(21, j25.home().toString(), Map.of(), j17, List.of(jvm), "Solr 10.0.0")
                .home())
        .isEqualTo(j25.home());
    assertThatThrownBy(
            () -> Jdk.choose(21, j17.home().toString(), Map.of(), j17, List.of(jvm), "Solr 10.0.0"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage(
            "Solr 10.0.0 needs Java 21+ but "
                + j17.home()
                + " is Java 17 (chosen by --java/java_home); name a JDK 21+ there instead");
    assertThatThrownBy(
            () ->
                Jdk.choose(
                    21,
                    null,
                    Map.of("SOLRSCALE_JAVA_HOME", j17.home().toString()),
                    j17,
                    List.of(jvm),
                    "Solr 10.0.0"))
        .hasMessageContaining("(chosen by SOLRSCALE_JAVA_HOME)");
  }

  @Test
  void onlyJava17AvailableIsOneLineNamingWhatWasFound(@TempDir Path dir) throws Exception {
    Path jvm = dir.resolve("jvm");
    Jdk running = jdk(jvm, "java-17", "17.0.15");
    Jdk other = jdk(jvm, "java-11", "11.0.2");
    SolrscaleException e =
        (SolrscaleException)
            org.assertj.core.api.Assertions.catchThrowable(
                () ->
                    Jdk.choose(
                        21,
                        null,
                        Map.of("JAVA_HOME", running.home().toString()),
                        running,
                        List.of(jvm, dir.resolve("absent")),
                        "Solr 10.0.0"));
    assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
    assertThat(e.getMessage())
        .isEqualTo(
            "Solr 10.0.0 needs Java 21 or newer and found only Java 17 (running solrscale, "
                + running.home()
                + "), Java 17 (JAVA_HOME="
                + running.home()
                + "), Java 11 ("
                + other.home().toRealPath()
                + "); install a JDK 21+ or name one with --java DIR (java_home in a spec, or"
                + " SOLRSCALE_JAVA_HOME)");
  }
}
