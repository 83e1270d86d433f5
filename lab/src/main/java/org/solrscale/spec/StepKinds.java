package org.solrscale.spec;

import com.fasterxml.jackson.databind.jsontype.NamedType;
import java.util.List;
import java.util.Optional;

/**
 * The registry of step kinds: one line per kind. It feeds the YAML reader (the key that names a
 * step's kind), the matrix's {@code KIND.KEY} shorthand and the telemetry a run scrapes; the
 * scenario layer has the matching registry of what runs each kind (scenario.StepActions), and a
 * test fails when a kind here has none there.
 */
public final class StepKinds {
  private static final String NODES = "it stops and starts nodes by the pids solrscale recorded";

  /** Every kind, in the order help lists them. */
  public static final List<StepKind> ALL =
      List.of(
          new StepKind(
              "index",
              StepSpec.Index.class,
              true,
              false,
              true,
              null,
              "load the corpus (or its own files) into a collection"),
          new StepKind(
              "bench",
              StepSpec.Bench.class,
              true,
              false,
              true,
              null,
              "the load driver: a closed or open loop of queries"),
          new StepKind(
              "capacity",
              StepSpec.Capacity.class,
              true,
              false,
              true,
              null,
              "the highest query rate that meets an objective, probe by probe"),
          new StepKind(
              "wait",
              StepSpec.Wait.class,
              false,
              false,
              false,
              null,
              "do nothing for a while, e.g. to let merges settle"),
          new StepKind(
              "restart",
              StepSpec.Restart.class,
              false,
              false,
              true,
              NODES,
              "restart Solr nodes, for unwarmed measurements"),
          new StepKind(
              "limits",
              StepSpec.Limits.class,
              false,
              false,
              true,
              "it changes the cgroups, huge pages and swap of the cluster's hosts",
              "the hosts' memory limit, page cache room, huge pages or swap, until the repeat ends"),
          new StepKind(
              "cached",
              StepSpec.Cached.class,
              false,
              false,
              true,
              "it reads the page cache of the cluster's hosts",
              "how much of a collection's index each host holds, and in its page cache"),
          new StepKind(
              "collection",
              StepSpec.Collection.class,
              false,
              false,
              true,
              "solrscale does not create or delete collections on a SolrCloud it did not start",
              "create, delete, split-shard or add-replica"),
          new StepKind(
              "distribute",
              StepSpec.Distribute.class,
              false,
              false,
              true,
              "it starts relays on the nodes' hosts and adds replicas to the cluster",
              "new replicas by chain, tree or Solr's own copy, timed to active"),
          new StepKind(
              "fault",
              StepSpec.Fault.class,
              false,
              true,
              true,
              NODES,
              "a fault injected alongside the next step"),
          new StepKind(
              "chaos",
              StepSpec.Chaos.class,
              true,
              false,
              true,
              null,
              "writes and queries while faults run, then the checkers"));

  private StepKinds() {}

  /** The kind of a step. */
  public static StepKind of(StepSpec step) {
    return ALL.stream()
        .filter(k -> k.type().isInstance(step))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "step kind not registered in StepKinds: " + step.getClass()));
  }

  /** The kind of a step's record type. */
  public static StepKind of(Class<? extends StepSpec> type) {
    return ALL.stream()
        .filter(k -> k.type() == type)
        .findFirst()
        .orElseThrow(
            () -> new IllegalStateException("step kind not registered in StepKinds: " + type));
  }

  /** The kind named {@code name} in YAML and results.json; empty for a name no kind has. */
  public static Optional<StepKind> named(String name) {
    return ALL.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /** The kinds as Jackson's named subtypes of {@link StepSpec}. */
  static NamedType[] jsonTypes() {
    return ALL.stream().map(k -> new NamedType(k.type(), k.name())).toArray(NamedType[]::new);
  }

  /** The kinds a matrix key may start with. */
  static List<String> sweepable() {
    return ALL.stream().filter(StepKind::sweepable).map(StepKind::name).toList();
  }
}
