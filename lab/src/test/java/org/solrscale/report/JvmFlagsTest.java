package org.solrscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node's command line read for the environment table: the classpath and routine paths stay out.
 */
class JvmFlagsTest {
  @Test
  void heapCollectorAndChosenFlagsWithoutTheClasspath() {
    JvmFlags f =
        JvmFlags.of(
            List.of(
                "/usr/lib/jvm/java-17/bin/java",
                "-server",
                "-Xms512m",
                "-Xmx512m",
                "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=250",
                "-XX:ErrorFile=/x/logs/hs_err_pid%p.log",
                "-Xlog:gc*:file=/x/logs/solr_gc.log",
                "-Djetty.port=8983",
                "-DzkHost=127.0.0.1:2181",
                "-Ddc=east",
                "-Dsolr.filterCache.size=128",
                "-cp",
                "/a.jar:/b.jar:" + "x".repeat(11_000),
                "org.solrscale.node.SolrNode",
                "--verbose"));
    assertThat(f.java()).isEqualTo("/usr/lib/jvm/java-17/bin/java");
    assertThat(f.heap()).isEqualTo("512m");
    assertThat(f.gc()).isEqualTo("G1");
    assertThat(f.notable())
        .containsExactly(
            "-server", "-XX:MaxGCPauseMillis=250", "-Ddc=east", "-Dsolr.filterCache.size=128");
  }

  @Test
  void defaultsAreSaidSo() {
    JvmFlags f = JvmFlags.of(List.of("java", "-Xms256m", "-Xmx1g", "Main"));
    assertThat(f.heap()).isEqualTo("256m to 1g");
    assertThat(f.gc()).isEqualTo("JVM default");
  }
}
