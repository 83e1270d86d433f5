package org.solrscale.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.StepKind;
import org.solrscale.spec.StepKinds;
import org.solrscale.spec.StepSpec;

/** The step registries: every kind spec knows has what runs it, help, and a YAML key that reads. */
class StepKindsTest {
  @Test
  void everyKindThatRunsOnItsOwnHasAnAction() {
    for (StepKind k : StepKinds.ALL) {
      assertThat(k.help()).as(k.name()).isNotBlank();
      assertThat(StepActions.has(k) || k.runsAlongside())
          .as(k.name() + " has no action in StepActions")
          .isTrue();
    }
    Set<Class<?>> registered =
        StepKinds.ALL.stream().map(StepKind::type).collect(Collectors.toSet());
    StepActions.ALL.forEach(
        e -> assertThat(registered).as("action without a kind").contains(e.type()));
  }

  @Test
  void everyKindReadsFromItsYamlKey() {
    String steps =
        String.join(
            "\n",
            "  - index: {}",
            "  - bench: {threads: 1, duration: 1s}",
            "  - capacity: {slo: 'p99<100ms'}",
            "  - wait: 1s",
            "  - restart: {}",
            "  - limits: {thp: never}",
            "  - cached: {}",
            "  - collection: {action: create, collection: more}",
            "  - distribute: {replicas: 1}",
            "  - fault: {fault: pause, target: solr1}",
            "  - chaos: {duration: 5s}");
    ScenarioLoader.Loaded l =
        ScenarioLoader.parse(
            "cluster: {hosts: [{ssh: a, memory: 1g}], nodes: 2, collections: [{name: c, replicas: 2}]}\n"
                + "data: {synth: {docs: 10}}\nsteps:\n"
                + steps
                + "\n",
            "kinds.yaml");
    assertThat(l.base().steps())
        .extracting(StepSpec::kind)
        .containsExactlyElementsOf(StepKinds.ALL.stream().map(StepKind::name).toList());
  }
}
