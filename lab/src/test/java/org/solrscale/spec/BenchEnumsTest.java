package org.solrscale.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Routing, arrivals, order, loop and collection operations: parsed once, written back alike. */
class BenchEnumsTest {

  @Test
  void routingIsParsedOnceAndWrittenAsGiven() {
    assertThat(Routing.parse("cloud")).isEqualTo(Routing.CLOUD);
    assertThat(Routing.parse(null)).isEqualTo(Routing.CLOUD);
    assertThat(Routing.parse("round-robin").mode()).isEqualTo(Routing.Mode.ROUND_ROBIN);
    Routing node = Routing.parse("node:solr2");
    assertThat(node.mode()).isEqualTo(Routing.Mode.NODE);
    assertThat(node.node()).isEqualTo("solr2");
    assertThat(node.byUrl()).isFalse();
    assertThat(Routing.parse("node:http://h:8983/solr").byUrl()).isTrue();
    for (String written : List.of("cloud", "round-robin", "node:solr2", "node:http://h:1/solr")) {
      assertThat(Routing.parse(written).toString()).isEqualTo(written);
    }
    assertThatThrownBy(() -> Routing.parse("roundrobin"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("routing 'roundrobin' is not cloud, round-robin or node:ID");
  }

  @Test
  void arrivalsOrderAndLoopAreTheirNamesOnly() {
    assertThat(Arrivals.parse("poisson")).isEqualTo(Arrivals.POISSON);
    assertThat(Arrivals.NAMES).containsExactly("uniform", "poisson");
    assertThatThrownBy(() -> Arrivals.parse("Poisson"))
        .hasMessage("arrivals are uniform or poisson; got 'Poisson'");
    assertThat(QueryOrder.parse("sequential")).isEqualTo(QueryOrder.SEQUENTIAL);
    assertThat(QueryOrder.NAMES).containsExactly("random", "sequential");
    assertThatThrownBy(() -> QueryOrder.parse("shuffled"))
        .hasMessage("order is random or sequential; got 'shuffled'");
    assertThat(LoadLoop.parse("open")).isEqualTo(LoadLoop.OPEN);
    assertThat(LoadLoop.CLOSED.toString()).isEqualTo("closed");
    assertThatThrownBy(() -> LoadLoop.parse("half")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void collectionOperationsAreNamedAsWritten() {
    assertThat(CollectionOp.NAMES)
        .containsExactly("create", "delete", "split-shard", "add-replica");
    assertThat(CollectionOp.named("split-shard")).contains(CollectionOp.SPLIT_SHARD);
    assertThat(CollectionOp.named("SPLIT_SHARD")).isEmpty();
    assertThat(CollectionOp.named(null)).isEmpty();
  }

  @Test
  void aScenarioSaysWhatIsWrongInOneLineAtItsKey() {
    String base = ScenarioLoaderTest.BASE;
    assertThat(
            ScenarioLoaderTest.error(
                base.replace("duration: 10s", "duration: 10s, routing: roundrobin")))
        .isEqualTo(
            "s.yaml:10:68: bench step 'q': routing 'roundrobin' is not cloud, round-robin or"
                + " node:ID");
    assertThat(
            ScenarioLoaderTest.error(
                base.replace("duration: 10s", "duration: 10s, arrivals: burst")))
        .endsWith("bench step 'q': arrivals 'burst' is not uniform or poisson");
    assertThat(ScenarioLoaderTest.error(base.replace("duration: 10s", "duration: 10s, order: up")))
        .endsWith("bench step 'q': order 'up' is not random or sequential");
    assertThat(
            ScenarioLoaderTest.error(
                base.replace("  - index: {collection: items}", "  - collection: {action: merge}")))
        .endsWith(
            "collection step: action must be create, delete, split-shard, add-replica; got"
                + " 'merge'");
  }
}
