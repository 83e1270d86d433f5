package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.solrscale.cluster.Cluster;
import org.solrscale.spec.CollectionOp;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ReplicaCounts;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * A collection step: a Collections API operation; its summary is the collection's shape after it.
 */
final class CollectionAction implements StepAction<StepSpec.Collection> {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  @Override
  public JsonNode run(StepSpec.Collection c, StepRun run) {
    String name = run.collection(c.collection());
    Cluster cluster = run.cluster();
    switch (c.op()) { // an unknown action was refused when the scenario was loaded
      case CREATE ->
          cluster
              .collections()
              .create(
                  new CollectionSpec(
                      name,
                      c.shards(),
                      ReplicaCounts.nrt(c.replicas() == null ? 1 : c.replicas()),
                      null,
                      null,
                      null,
                      null),
                  TIMEOUT);
      case DELETE -> cluster.collections().delete(name);
      case SPLIT_SHARD, ADD_REPLICA -> {
        try (CloudHttp2SolrClient client = cluster.access().cloud(cluster.solrUrls())) {
          String shard = c.shard() == null ? "shard1" : c.shard();
          var req =
              c.op() == CollectionOp.SPLIT_SHARD
                  ? CollectionAdminRequest.splitShard(name).setShardName(shard)
                  : CollectionAdminRequest.addReplicaToShard(name, shard);
          req.process(client);
        } catch (Exception e) {
          throw SolrscaleException.failed(
              c.action() + " on " + name + " failed: " + e.getMessage());
        }
        cluster.collections().waitUntilHealthy(TIMEOUT);
      }
    }
    return JSON.valueToTree(shape(cluster, c.action(), name));
  }

  /** What the collection looks like after the operation: active shards and their replicas. */
  private static Map<String, Object> shape(Cluster cluster, String action, String name) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("action", action);
    out.put("collection", name);
    cluster.status(false).collections().stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .ifPresent(
            s -> {
              var active = s.shards().stream().filter(sh -> "active".equals(sh.state())).toList();
              out.put("active_shards", active.size());
              out.put("replicas", active.stream().mapToInt(sh -> sh.replicas().size()).sum());
            });
    return out;
  }
}
