package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchivesTest {
  @Test
  void eachJavaGetsTheArchiveItsHotSpotMakesAndNoneBeforeJava13() {
    assertThat(ClassArchives.Kind.of(11)).isNull();
    assertThat(ClassArchives.Kind.of(12)).isNull();
    assertThat(ClassArchives.Kind.of(17)).isEqualTo(ClassArchives.Kind.CDS);
    assertThat(ClassArchives.Kind.of(21)).isEqualTo(ClassArchives.Kind.CDS);
    assertThat(ClassArchives.Kind.of(25)).isEqualTo(ClassArchives.Kind.AOT);
  }

  @Test
  void theKeyChangesWithTheRuntimeTheNodeJarAndTheJdkBuild() {
    String k = ClassArchives.key(ClassArchives.Kind.CDS, "rt", "jar", "17.0.15+6");
    assertThat(k)
        .hasSize(24)
        .isEqualTo(ClassArchives.key(ClassArchives.Kind.CDS, "rt", "jar", "17.0.15+6"));
    assertThat(k)
        .isNotEqualTo(ClassArchives.key(ClassArchives.Kind.CDS, "rt2", "jar", "17.0.15+6"))
        .isNotEqualTo(ClassArchives.key(ClassArchives.Kind.CDS, "rt", "jar2", "17.0.15+6"))
        .isNotEqualTo(ClassArchives.key(ClassArchives.Kind.CDS, "rt", "jar", "17.0.16+8"))
        .isNotEqualTo(ClassArchives.key(ClassArchives.Kind.AOT, "rt", "jar", "17.0.15+6"));
  }

  @Test
  void theJdkBuildComesFromItsReleaseFile(@TempDir Path home) throws Exception {
    assertThat(ClassArchives.build(home)).isNull();
    Files.writeString(
        home.resolve("release"),
        "IMPLEMENTOR=\"Debian\"\nJAVA_RUNTIME_VERSION=\"17.0.15+6-Debian-1deb12u1\"\n"
            + "JAVA_VERSION=\"17.0.15\"\n");
    assertThat(ClassArchives.build(home)).isEqualTo("17.0.15+6-Debian-1deb12u1");
  }

  @Test
  void nodesMakeTheArchiveInTrainingAndTakeItAfterwardsEachRoleItsOwnFile() {
    var making =
        new ClassArchives.Archive(ClassArchives.Kind.CDS, "k", Path.of("/a/k.partial"), "b", true);
    assertThat(making.option(NodeRole.ZK, "/a/k.partial"))
        .isEqualTo("-XX:ArchiveClassesAtExit=/a/k.partial/zk.jsa");
    var taking =
        new ClassArchives.Archive(ClassArchives.Kind.AOT, "k", Path.of("/a/k"), "b", false);
    assertThat(taking.option(NodeRole.SOLR, "/h/archives/k"))
        .isEqualTo("-XX:AOTCache=/h/archives/k/solr.aot");
  }

  @Test
  void archivesAreOffUnlessTurnedOn() {
    String old = System.getProperty("solrscale.class.archive");
    try {
      System.clearProperty("solrscale.class.archive");
      if (System.getenv("SOLRSCALE_CLASS_ARCHIVE") == null) {
        assertThat(ClassArchives.off()).isTrue();
      }
      System.setProperty("solrscale.class.archive", "on");
      assertThat(ClassArchives.off()).isFalse();
      System.setProperty("solrscale.class.archive", "off");
      assertThat(ClassArchives.off()).isTrue();
    } finally {
      if (old == null) {
        System.clearProperty("solrscale.class.archive");
      } else {
        System.setProperty("solrscale.class.archive", old);
      }
    }
  }
}
