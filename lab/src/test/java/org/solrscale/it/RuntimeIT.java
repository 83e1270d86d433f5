package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.runtime.RuntimeResolver;
import org.solrscale.runtime.SolrRuntime;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;

/** The runtime cache, resolved by the real Maven. */
class RuntimeIT {

  @AfterEach
  void clearMaven() {
    System.clearProperty("solrscale.mvn");
  }

  @Test
  void noReachableRepositoryWithAnEmptyCacheIsOneClearLine(@TempDir Path dir) {
    // Maven offline with an empty local repository: nothing can be fetched
    System.setProperty("solrscale.mvn", "mvn -o -Dmaven.repo.local=" + dir.resolve("m2"));
    RuntimeResolver resolver = new RuntimeResolver(new SolrscaleHome(dir.resolve("home")), s -> {});
    assertThatThrownBy(() -> resolver.resolve("9.10.1"))
        .isInstanceOf(SolrscaleException.class)
        .satisfies(
            e -> assertThat(((SolrscaleException) e).exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
        .hasMessageStartingWith("cannot fetch Solr 9.10.1: no Maven repository was reachable")
        .hasMessageNotContaining("\n");
  }

  @Test
  void aCachedRuntimeNeverCallsMavenAgain() {
    SolrscaleHome home = SolrscaleHome.fromEnvironment();
    SolrRuntime first = new RuntimeResolver(home, s -> {}).resolve("9.10.1");
    assertThat(first.classpath())
        .anyMatch(p -> p.getFileName().toString().startsWith("solr-core-9.10.1"))
        .anyMatch(
            p -> p.getFileName().toString().startsWith("jetty-server-" + first.jettyVersion()))
        .anyMatch(p -> p.getFileName().toString().startsWith("http2-server-"))
        .noneMatch(p -> p.getFileName().toString().startsWith("javax.servlet-api"))
        .allMatch(Files::isRegularFile);
    // a Maven that cannot run at all: the cache must be enough
    System.setProperty("solrscale.mvn", "/nonexistent/mvn");
    SolrRuntime again = new RuntimeResolver(home, s -> {}).resolve("9.10.1");
    assertThat(again.classpath()).isEqualTo(first.classpath());
  }
}
