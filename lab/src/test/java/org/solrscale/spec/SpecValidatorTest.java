package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecValidatorTest {

  private static List<Problem> problems(String yaml) {
    return SpecValidator.validate(SpecLoader.parse(yaml, "c.yaml"));
  }

  private static List<String> errors(String yaml) {
    return problems(yaml).stream().filter(Problem::error).map(Problem::message).toList();
  }

  private static List<String> warnings(String yaml) {
    return problems(yaml).stream().filter(p -> !p.error()).map(Problem::message).toList();
  }

  @Test
  void shardsBelowOneIsAnError() {
    assertThat(errors("name: a\ncollections: [{name: c, shards: 0}]\n"))
        .singleElement()
        .asString()
        .contains("shards 0");
  }

  @Test
  void authAndTlsAreCheckedAndTlsStaysOnThisMachineForNow() {
    assertThat(errors("name: a\nauth: basic\ntls: true\n")).isEmpty();
    assertThat(errors("name: a\nauth: kerberos\n"))
        .singleElement()
        .asString()
        .contains("auth 'kerberos' is not one of none, basic");
    assertThat(errors("name: a\ntls: true\nhosts: [h1]\n"))
        .singleElement()
        .asString()
        .contains("tls runs on this machine's nodes only so far");
  }

  @Test
  void evenZooKeeperEnsembleIsAnError() {
    assertThat(errors("name: a\nzookeeper: 2\n"))
        .singleElement()
        .asString()
        .contains("use 1, 3 or 5");
  }

  @Test
  void moreReplicasThanNodesIsAWarningThatSaysWhatPlacementDoes() {
    String yaml = "name: a\nnodes: 2\ncollections: [{name: c, shards: 1, replicas: 3}]\n";
    assertThat(errors(yaml)).isEmpty();
    assertThat(warnings(yaml))
        .singleElement()
        .asString()
        .contains("3 replicas per shard but only 2 nodes")
        .contains("same node");
  }

  @Test
  void onlyPullReplicasCannotLead() {
    assertThat(errors("name: a\ncollections: [{name: c, replicas: {nrt: 0, pull: 2}}]\n"))
        .singleElement()
        .asString()
        .contains("PULL replicas cannot lead");
  }

  @Test
  void implicitRouterNeedsShardNamesMatchingShards() {
    assertThat(errors("name: a\ncollections: [{name: c, router: implicit}]\n"))
        .singleElement()
        .asString()
        .contains("needs shard_names");
    assertThat(errors("name: a\ncollections: [{name: c, shards: 3, shard_names: [x, y]}]\n"))
        .singleElement()
        .asString()
        .contains("lists 2 shard_names but shards is 3");
    assertThat(errors("name: a\ncollections: [{name: c, router: compositeId, shard_names: [x]}]\n"))
        .singleElement()
        .asString()
        .contains("only router implicit");
  }

  @Test
  void unknownRouterAndBadNamesAndHeap() {
    assertThat(errors("name: a\ncollections: [{name: c, router: hash}]\n"))
        .singleElement()
        .asString()
        .contains("use compositeId or implicit");
    assertThat(errors("name: 'bad name'\n")).singleElement().asString().contains("not valid");
    assertThat(errors("name: a\nheap: lots\n")).singleElement().asString().contains("heap 'lots'");
    assertThat(errors("name: a\nsolr_version: latest\n"))
        .singleElement()
        .asString()
        .contains("not a release number");
    assertThat(errors("name: a\ncollections: [{name: c}, {name: c}]\n"))
        .singleElement()
        .asString()
        .contains("listed twice");
  }

  @Test
  void riskyZooKeeperTimingAcrossDataCentresIsAWarning() {
    String risky =
        """
        name: a
        nodes:
          - {count: 1, labels: {dc: east}}
          - {count: 1, labels: {dc: west}}
        zookeeper: {servers: 3, tick_time: 2000, init_limit: 10, sync_limit: 2}
        """;
    assertThat(errors(risky)).isEmpty();
    assertThat(warnings(risky))
        .singleElement()
        .asString()
        .contains("2 data centres")
        .contains("sync_limit*tick_time=4000 ms");
    String safe = risky.replace("sync_limit: 2", "sync_limit: 5");
    assertThat(warnings(safe)).isEmpty();
    String oneDc = risky.replace("dc: west", "dc: east");
    assertThat(warnings(oneDc)).isEmpty();
  }

  @Test
  void configsetDirectoryMustHoldSolrconfig(@TempDir Path dir) throws Exception {
    String yaml = "name: a\ncollections: [{name: c, configset: '" + dir + "'}]\n";
    assertThat(errors(yaml)).singleElement().asString().contains("has no solrconfig.xml");
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/solrconfig.xml"), "<config/>");
    assertThat(errors(yaml)).isEmpty();
    assertThat(errors("name: a\ncollections: [{name: c, configset: /no/such/dir}]\n"))
        .singleElement()
        .asString()
        .contains("neither 'default' nor a directory");
  }

  @Test
  void checkThrowsTheFirstErrorAsUsage() {
    ClusterSpec spec = SpecLoader.parse("name: a\nzookeeper: 4\n", "c.yaml");
    assertThatThrownBy(() -> SpecValidator.check(spec))
        .isInstanceOf(SolrscaleException.class)
        .satisfies(e -> assertThat(((SolrscaleException) e).exitCode()).isEqualTo(ExitCode.USAGE));
  }

  @Test
  void labelsParseAndRejectGarbage() {
    assertThat(NodeGroup.parseLabels("dc=east,rack=r1"))
        .containsEntry("dc", "east")
        .containsEntry("rack", "r1");
    assertThatThrownBy(() -> NodeGroup.parseLabels("dc")).hasMessageContaining("not key=value");
  }
}
