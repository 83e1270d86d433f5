package org.solrscale.chaos;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.common.cloud.Replica;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.Configsets;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.cluster.ShardStatus;
import org.solrscale.cluster.SolrAdmin;
import org.solrscale.cluster.Target;
import org.solrscale.spec.SolrscaleException;

/**
 * Where a chaos run writes by default: a collection of its own shaped like the one under test (its
 * shards, and a replica of the same type on the same node for each of its replicas, the leader's
 * first so that leadership sits on the same nodes), so that every fault hits both; from solrscale's
 * own configset, whose fields the workload needs whatever the schema under test is; deleted
 * afterwards.
 */
final class ScratchCollection {
  private ScratchCollection() {}

  /** Creates it and waits until it is active; its name. */
  static String create(
      Target target, CollectionStatus model, Duration timeout, Consumer<String> progress) {
    String name = model.name() + "-chaos-" + Long.toString(System.currentTimeMillis(), 36);
    List<ShardStatus> shards =
        model.shards().stream()
            .filter(s -> s.state() == null || "active".equals(s.state()))
            .sorted(Comparator.comparing(ShardStatus::name))
            .toList();
    progress.accept(
        "writing into a scratch collection "
            + name
            + " shaped like "
            + model.name()
            + " ("
            + shards.size()
            + " shard(s), its replicas' types and nodes); deleted afterwards unless --keep");
    try (SolrAdmin admin = new SolrAdmin(target.nodes(), target.access())) {
      if (!admin.configsets().contains(Configsets.DEFAULT_NAME)) {
        admin.uploadConfigset(Configsets.DEFAULT_NAME, Configsets.defaultZip());
      }
      CollectionAdminRequest.Create create =
          "implicit".equals(model.router())
              ? CollectionAdminRequest.createCollectionWithImplicitRouter(
                  name,
                  Configsets.DEFAULT_NAME,
                  String.join(",", shards.stream().map(ShardStatus::name).toList()),
                  1,
                  0,
                  0)
              : CollectionAdminRequest.createCollection(
                  name, Configsets.DEFAULT_NAME, shards.size(), 1, 0, 0);
      create.setCreateNodeSet("EMPTY"); // no replica yet: each goes where the model's is
      try {
        create.process(admin.client());
        for (int i = 0; i < shards.size(); i++) {
          // compositeId numbers its shards shard1..N in hash order, as a collection made alike
          String shard =
              "implicit".equals(model.router()) ? shards.get(i).name() : "shard" + (i + 1);
          List<ReplicaStatus> replicas = new ArrayList<>(shards.get(i).replicas());
          replicas.sort(Comparator.comparing(r -> !r.leader()));
          for (ReplicaStatus r : replicas) {
            CollectionAdminRequest.addReplicaToShard(
                    name, shard, Replica.Type.valueOf(r.type().toUpperCase(Locale.ROOT)))
                .setNode(r.node())
                .process(admin.client());
          }
        }
      } catch (SolrServerException | IOException | RuntimeException e) {
        delete(admin, name);
        throw SolrscaleException.failed(
            "creating the scratch collection " + name + " failed: " + e.getMessage());
      }
      admin.waitForActive(name, timeout);
    }
    return name;
  }

  /** Deletes it (and says so). */
  static void delete(Target target, String name, Consumer<String> progress) {
    try (SolrAdmin admin = new SolrAdmin(target.nodes(), target.access())) {
      delete(admin, name);
      progress.accept("deleted the scratch collection " + name);
    }
  }

  private static void delete(SolrAdmin admin, String name) {
    if (admin.clusterStatus().collection(name).isPresent()) {
      admin.deleteCollection(name);
    }
  }
}
