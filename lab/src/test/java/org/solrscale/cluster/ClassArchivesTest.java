package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
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
        .isEqualTo("-XX:DumpLoadedClassList=/a/k.partial/zk.classlist");
    assertThat(
            new ClassArchives.Archive(ClassArchives.Kind.CDS, "k", Path.of("/a/k"), "b", false)
                .option(NodeRole.ZK, "/h/archives/k"))
        .isEqualTo("-XX:SharedArchiveFile=/h/archives/k/zk.jsa");
    assertThat(
            new ClassArchives.Archive(ClassArchives.Kind.AOT, "k", Path.of("/a/k"), "b", true)
                .option(NodeRole.SOLR, "/a/k.partial"))
        .isEqualTo("-XX:AOTCacheOutput=/a/k.partial/solr.aot");
    var taking =
        new ClassArchives.Archive(ClassArchives.Kind.AOT, "k", Path.of("/a/k"), "b", false);
    assertThat(taking.option(NodeRole.SOLR, "/h/archives/k"))
        .isEqualTo("-XX:AOTCache=/h/archives/k/solr.aot");
  }

  @Test
  void archivesAreOnUnlessTurnedOff() {
    String old = System.getProperty("solrscale.class.archive");
    try {
      System.clearProperty("solrscale.class.archive");
      if (System.getenv("SOLRSCALE_CLASS_ARCHIVE") == null) {
        assertThat(ClassArchives.off()).isFalse();
      }
      System.setProperty("solrscale.class.archive", "on");
      assertThat(ClassArchives.off()).isFalse();
      System.setProperty("solrscale.class.archive", "off");
      assertThat(ClassArchives.off()).isTrue();
      System.setProperty("solrscale.class.archive", "OFF");
      assertThat(ClassArchives.off()).isTrue();
      System.setProperty("solrscale.class.archive", "yes");
      assertThat(ClassArchives.off()).isFalse();
    } finally {
      if (old == null) {
        System.clearProperty("solrscale.class.archive");
      } else {
        System.setProperty("solrscale.class.archive", old);
      }
    }
  }

  /**
   * The classes of a multi-release jar's versioned directories (log4j-api 2.21's
   * DefaultObjectInputFilter, only under versions/9, crashed HotSpot 17 loading it from an archive
   * under a class-file load hook) are left out for the JDKs that load them, with their lambdas;
   * other jars' and base classes stay.
   */
  @Test
  void classesOfVersionedDirectoriesAreLeftOutOfTheArchive(@TempDir Path dir) throws Exception {
    Path mr =
        jar(
            dir.resolve("mr.jar"),
            true,
            "a/Base.class",
            "META-INF/versions/9/a/Nine.class",
            "META-INF/versions/21/a/TwentyOne.class",
            "META-INF/versions/9/module-info.class");
    Path plain =
        jar(
            dir.resolve("plain.jar"),
            false,
            "b/Plain.class",
            "META-INF/versions/9/b/NotMulti.class");
    assertThat(ClassArchives.versioned(List.of(mr, plain), 17))
        .containsExactlyInAnyOrder("a/Nine", "module-info");
    assertThat(ClassArchives.versioned(List.of(mr, plain), 21))
        .containsExactlyInAnyOrder("a/Nine", "a/TwentyOne", "module-info");

    List<String> list =
        List.of(
            "java/lang/Object id: 0",
            "a/Base",
            "a/Nine",
            "b/Plain id: 7",
            "@lambda-proxy a/Nine run ()Ljava/lang/Runnable; ()V",
            "@lambda-proxy a/Base run ()Ljava/lang/Runnable; ()V",
            "c/Plugin id: 9 super: 0 source: /x/plugin.jar",
            "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.DirectMethodHandle$Holder",
            "");
    assertThat(ClassArchives.archivable(list, Set.of("a/Nine", "module-info")))
        .containsExactly(
            "java/lang/Object id: 0",
            "a/Base",
            "b/Plain id: 7",
            "@lambda-proxy a/Base run ()Ljava/lang/Runnable; ()V",
            "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.DirectMethodHandle$Holder");
  }

  private static Path jar(Path at, boolean multiRelease, String... entries) throws Exception {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    if (multiRelease) {
      m.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
    }
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(at), m)) {
      for (String e : entries) {
        out.putNextEntry(new JarEntry(e));
        out.write(new byte[] {(byte) 0xca, (byte) 0xfe});
        out.closeEntry();
      }
    }
    return at;
  }
}
