package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecLoaderTest {

  @Test
  void readsAFullSpec() {
    ClusterSpec spec =
        SpecLoader.parse(
            """
        name: lab
        solr_version: 9.10.1
        heap: 1g
        jvm_args: [-XX:+AlwaysPreTouch]
        nodes:
          - count: 2
            labels: {dc: east, rack: r1}
          - count: 1
            labels: {dc: west}
            heap: 2g
        zookeeper:
          servers: 3
          tick_time: 2000
          init_limit: 10
          sync_limit: 5
        collections:
          - name: docs
            shards: 2
            replicas: {nrt: 1, tlog: 1, pull: 1}
          - name: logs
            router: implicit
            shard_names: [a, b, c]
            replicas: 2
        """,
            "cluster.yaml");
    assertThat(spec.name()).isEqualTo("lab");
    assertThat(spec.nodeCount()).isEqualTo(3);
    assertThat(spec.nodeLabels())
        .containsExactly(
            Map.of("dc", "east", "rack", "r1"),
            Map.of("dc", "east", "rack", "r1"),
            Map.of("dc", "west"));
    assertThat(spec.nodeHeaps()).containsExactly("1g", "1g", "2g");
    assertThat(spec.jvmArgs()).containsExactly("-XX:+AlwaysPreTouch");
    assertThat(spec.zookeeper().servers()).isEqualTo(3);
    CollectionSpec docs = spec.collections().get(0);
    assertThat(docs.replicas()).isEqualTo(new ReplicaCounts(1, 1, 1));
    assertThat(docs.router()).isEqualTo("compositeId");
    CollectionSpec logs = spec.collections().get(1);
    assertThat(logs.router()).isEqualTo("implicit");
    assertThat(logs.shards()).isEqualTo(3);
    assertThat(logs.replicas()).isEqualTo(ReplicaCounts.nrt(2));
    assertThat(SpecValidator.validate(spec)).isEmpty();
  }

  @Test
  void appliesDefaultsToAMinimalSpec() {
    ClusterSpec spec = SpecLoader.parse("name: tiny\nnodes: 4\nzookeeper: 3\n", "c.yaml");
    assertThat(spec.nodeCount()).isEqualTo(4);
    assertThat(spec.zookeeper().servers()).isEqualTo(3);
    assertThat(spec.zookeeper().tickTime()).isEqualTo(2000);
    assertThat(spec.solrVersion()).isEqualTo(ClusterSpec.DEFAULT_SOLR_VERSION);
    assertThat(spec.heap()).isEqualTo("512m");
    assertThat(spec.collections()).isEmpty();
  }

  @Test
  void unknownKeyNamesFileLineColumnAndTheKnownKeys() {
    assertThatThrownBy(() -> SpecLoader.parse("name: lab\nnodez: 3\n", "cluster.yaml"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageStartingWith("cluster.yaml:2:1: unknown key 'nodez'")
        .hasMessageContaining("known keys:")
        .hasMessageContaining("nodes")
        .satisfies(e -> assertThat(((SolrscaleException) e).exitCode()).isEqualTo(ExitCode.USAGE));
  }

  @Test
  void aNodeGroupOfAnotherSolrVersionIsRefusedAsMixedVersions() {
    assertThatThrownBy(
            () ->
                SpecLoader.parse(
                    "name: lab\nsolr_version: 9.10.1\nnodes:\n  - count: 2\n  - count: 1\n"
                        + "    solr_version: 10.0.0\n",
                    "cluster.yaml"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageStartingWith("cluster.yaml:5:5: solr_version 10.0.0 on a node group")
        .hasMessageContaining("mixed versions are not supported")
        .hasMessageNotContaining("\n");
  }

  @Test
  void nestedUnknownKeyNamesItsPath() {
    assertThatThrownBy(
            () ->
                SpecLoader.parse("name: lab\ncollections:\n  - name: a\n    shard: 2\n", "c.yaml"))
        .hasMessageStartingWith("c.yaml:4:")
        .hasMessageContaining("unknown key 'shard' at collections[0]");
  }

  @Test
  void wrongTypeIsReportedWithPosition() {
    assertThatThrownBy(() -> SpecLoader.parse("name: lab\nnodes: many\n", "c.yaml"))
        .hasMessageStartingWith("c.yaml:2:")
        .hasMessageContaining("nodes");
  }

  @Test
  void invalidYamlSyntaxIsReportedWithPosition() {
    assertThatThrownBy(() -> SpecLoader.parse("name: lab\nnodes: [1, 2\nzookeeper: 1\n", "c.yaml"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageMatching("c\\.yaml:\\d+:\\d+: .*");
  }

  @Test
  void emptySpecIsRejected() {
    assertThatThrownBy(() -> SpecLoader.parse("  \n", "c.yaml")).hasMessageContaining("empty");
  }

  @Test
  void missingFileIsAUsageError() {
    assertThatThrownBy(() -> SpecLoader.load(Path.of("/nonexistent/c.yaml")))
        .hasMessageContaining("does not exist");
  }
}
