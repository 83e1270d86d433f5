package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hosts in a cluster spec: how they are written, where nodes go, what is refused. */
class HostsSpecTest {

  private static ClusterSpec spec(String yaml) {
    return SpecLoader.parse(yaml, "c.yaml");
  }

  private static List<String> errors(String yaml) {
    return SpecValidator.validate(spec(yaml)).stream()
        .filter(Problem::error)
        .map(Problem::message)
        .toList();
  }

  @Test
  void hostsAreTargetsOrMapsAndMayRunEverythingByDefault() {
    ClusterSpec s =
        spec(
            "name: a\nhosts:\n  - lab-h1\n  - {ssh: me@db2, port: 2222, labels: {dc: east},"
                + " roles: [solr], dir: /srv/s}\n");
    assertThat(s.hosts()).hasSize(2);
    assertThat(s.hosts().get(0).ssh()).isEqualTo("lab-h1");
    assertThat(s.hosts().get(0).roles()).containsExactly("zk", "solr", "driver");
    HostSpec two = s.hosts().get(1);
    assertThat(two.port()).isEqualTo(2222);
    assertThat(two.labels()).isEqualTo(Map.of("dc", "east"));
    assertThat(two.may("zk")).isFalse();
    assertThat(two.dir()).isEqualTo("/srv/s");
    assertThat(s.onHosts()).isTrue();
  }

  @Test
  void nodesDefaultToSolrPerHostOnEachSolrHostAndGoInTurn() {
    ClusterSpec s =
        spec(
            "name: a\nzookeeper: 3\nsolr_per_host: 2\nhosts: [h1, h2, h3,"
                + " {ssh: tie, roles: zk}]\n");
    assertThat(s.nodeCount()).isEqualTo(6);
    assertThat(s.zkHosts()).extracting(HostSpec::ssh).containsExactly("h1", "h2", "h3");
    assertThat(List.of(0, 1, 2, 3, 4, 5).stream().map(i -> s.solrHost(i).ssh()))
        .containsExactly("h1", "h2", "h3", "h1", "h2", "h3");
    assertThat(errors("name: a\nzookeeper: 3\nsolr_per_host: 2\nhosts: [h1, h2, h3]\n")).isEmpty();
  }

  @Test
  void zookeeperServersGoOnDistinctHostsOnly() {
    assertThat(errors("name: a\nzookeeper: 3\nhosts: [h1, h2, {ssh: h3, roles: [solr]}]\n"))
        .singleElement()
        .asString()
        .contains("zookeeper servers is 3 but 2 hosts may run ZooKeeper")
        .contains("a host runs at most one ZooKeeper server");
  }

  @Test
  void badHostsAreRefusedOneByOne() {
    assertThat(errors("name: a\nhosts: [h1, h1]\n"))
        .singleElement()
        .asString()
        .contains("host 'h1' is listed twice");
    assertThat(errors("name: a\nhosts: [{ssh: h1, roles: [zk, solr, web]}]\n"))
        .singleElement()
        .asString()
        .contains("role 'web'; roles are zk, solr, driver");
    assertThat(errors("name: a\nhosts: [{ssh: h1, roles: [zk]}]\n"))
        .singleElement()
        .asString()
        .contains("no host may run Solr");
    assertThat(errors("name: a\nnodes: 4\nsolr_per_host: 1\nhosts: [h1, h2, h3]\n"))
        .singleElement()
        .asString()
        .contains("nodes is 4 but 3 Solr hosts with solr_per_host 1 make 3");
    assertThat(errors("name: a\nsolr_per_host: 2\n"))
        .singleElement()
        .asString()
        .contains("solr_per_host needs hosts");
    assertThat(errors("name: a\nhosts: [{ssh: '-oProxyCommand=x'}]\n"))
        .singleElement()
        .asString()
        .contains("no valid ssh target");
  }

  @Test
  void aHostsLimitsAreReadAndBadOnesRefused() {
    ClusterSpec s = spec("name: a\nhosts: [{ssh: h1, cpus: 0.5, cores: '0-1', memory: 2g}, h2]\n");
    HostSpec one = s.hosts().get(0);
    assertThat(one.limited()).isTrue();
    assertThat(one.memoryBytes()).isEqualTo(2L << 30);
    assertThat(one.limitsText()).isEqualTo("cpus 0.5, cores 0-1, memory 2g");
    assertThat(s.hosts().get(1).limited()).isFalse();
    assertThat(errors("name: a\nhosts: [{ssh: h1, cpus: 0}]\n"))
        .singleElement()
        .asString()
        .contains("host 'h1' has cpus 0.0; give a share of CPU of 0.01 or more");
    assertThat(errors("name: a\nhosts: [{ssh: h1, cores: 'first'}]\n"))
        .singleElement()
        .asString()
        .contains("host 'h1' has cores 'first'; give CPU numbers like 0, 0-1 or 0,2");
    assertThat(errors("name: a\nhosts: [{ssh: h1, memory: 2 GB}]\n"))
        .singleElement()
        .asString()
        .contains("host 'h1' has memory '2 GB'; give a size of 1m or more like 512m or 2g");
  }

  @Test
  void aNetworkFaultInAScenarioNamesHostsOfItsCluster() {
    String scenario =
        "name: s\ncluster:\n  hosts: [{ssh: h1, labels: {dc: east}}, {ssh: h2, labels: {dc:"
            + " west}}]\n  collections: [{name: c}]\nsteps:\n  - fault: {fault: partition,"
            + " target: \"TARGET\", at: 1s, duration: 5s}\n  - chaos: {collection: c, duration:"
            + " 10s}\n";
    for (String ok : List.of("h1", "dc=west", "host-of:solr2", "h1,dc=west")) {
      assertThat(ScenarioLoader.parse(scenario.replace("TARGET", ok), "s.yaml").combinations())
          .as(ok)
          .isNotEmpty();
    }
    assertThatThrownBy(() -> ScenarioLoader.parse(scenario.replace("TARGET", "dc=north"), "s.yaml"))
        .hasMessageContaining("s.yaml:6:")
        .hasMessageContaining("target 'dc=north': no host has that label");
    assertThatThrownBy(() -> ScenarioLoader.parse(scenario.replace("TARGET", "h9"), "s.yaml"))
        .hasMessageContaining("'h9' is no host of this cluster; give a host (h1, h2)");
    String local =
        "name: s\ncluster:\n  collections: [{name: c}]\n"
            + scenario.substring(scenario.indexOf("steps:"));
    assertThatThrownBy(() -> ScenarioLoader.parse(local.replace("TARGET", "h1"), "s.yaml"))
        .hasMessageContaining("partition needs a cluster on hosts");
  }
}
