package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** A collection to create: shards, replicas per shard by type, router and configset. */
public record CollectionSpec(
    @JsonProperty("name") String name,
    @JsonProperty("shards") Integer shards,
    @JsonProperty("replicas") ReplicaCounts replicas,
    @JsonProperty("router") String router,
    @JsonProperty("shard_names") List<String> shardNames,
    @JsonProperty("configset") String configset) {

  public static final String COMPOSITE_ID = "compositeId";
  public static final String IMPLICIT = "implicit";
  public static final String DEFAULT_CONFIGSET = "default";

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public CollectionSpec {
    shardNames = shardNames == null ? List.of() : List.copyOf(shardNames);
    router = router == null ? (shardNames.isEmpty() ? COMPOSITE_ID : IMPLICIT) : router;
    shards = shards == null ? (shardNames.isEmpty() ? 1 : shardNames.size()) : shards;
    replicas = replicas == null ? ReplicaCounts.nrt(1) : replicas;
    configset = configset == null ? DEFAULT_CONFIGSET : configset;
  }

  public boolean usesDefaultConfigset() {
    return DEFAULT_CONFIGSET.equals(configset);
  }
}
