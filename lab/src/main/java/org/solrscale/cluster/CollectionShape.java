package org.solrscale.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ReplicaCounts;

/**
 * What a collection is made of, to compare the one a spec asks for with the one Solr holds: shards
 * (their names when the router is implicit), replicas of each type per shard, router and configset.
 */
record CollectionShape(
    String router,
    int shards,
    Set<String> shardNames,
    Set<ReplicaCounts> replicasPerShard,
    String configset) {

  static CollectionShape of(CollectionSpec spec) {
    boolean implicit = CollectionSpec.IMPLICIT.equals(spec.router());
    return new CollectionShape(
        spec.router(),
        implicit ? spec.shardNames().size() : spec.shards(),
        implicit ? new TreeSet<>(spec.shardNames()) : Set.of(),
        Set.of(spec.replicas()),
        Configsets.nameFor(spec));
  }

  static CollectionShape of(CollectionStatus live) {
    Set<ReplicaCounts> perShard =
        live.shards().stream().map(CollectionShape::counts).collect(Collectors.toSet());
    boolean implicit = CollectionSpec.IMPLICIT.equals(live.router());
    return new CollectionShape(
        live.router(),
        live.shards().size(),
        implicit
            ? live.shards().stream()
                .map(ShardStatus::name)
                .collect(Collectors.toCollection(TreeSet::new))
            : Set.of(),
        perShard,
        live.configset());
  }

  private static ReplicaCounts counts(ShardStatus s) {
    int nrt = 0;
    int tlog = 0;
    int pull = 0;
    for (ReplicaStatus r : s.replicas()) {
      switch (r.type().toUpperCase(Locale.ROOT)) {
        case "TLOG" -> tlog++;
        case "PULL" -> pull++;
        default -> nrt++;
      }
    }
    return new ReplicaCounts(nrt, tlog, pull);
  }

  /**
   * E.g. "2 shards x 1 nrt + 1 tlog replicas (router compositeId, configset solrscale-default)".
   */
  String describe() {
    String shardPart =
        shardNames.isEmpty()
            ? shards + " shard" + (shards == 1 ? "" : "s")
            : "shards " + String.join(",", shardNames);
    String replicaPart =
        replicasPerShard.size() == 1
            ? describe(replicasPerShard.iterator().next())
            : "replicas differing per shard ("
                + replicasPerShard.stream()
                    .map(CollectionShape::describe)
                    .sorted()
                    .collect(Collectors.joining("; "))
                + ")";
    return shardPart
        + " x "
        + replicaPart
        + " (router "
        + router
        + ", configset "
        + configset
        + ")";
  }

  private static String describe(ReplicaCounts r) {
    List<String> parts = new ArrayList<>();
    if (r.nrt() > 0) {
      parts.add(r.nrt() + " nrt");
    }
    if (r.tlog() > 0) {
      parts.add(r.tlog() + " tlog");
    }
    if (r.pull() > 0) {
      parts.add(r.pull() + " pull");
    }
    return (parts.isEmpty() ? "0" : String.join(" + ", parts))
        + " replica"
        + (r.total() == 1 ? "" : "s");
  }
}
