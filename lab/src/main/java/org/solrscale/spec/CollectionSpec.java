package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * A collection to create: shards, replicas per shard by type, router, configset, and properties
 * given to each of its cores (Solr's {@code property.NAME=VALUE}): the configset's {@code
 * ${NAME:default}} settings then take them for this collection only.
 */
public record CollectionSpec(
    @JsonProperty("name") String name,
    @JsonProperty("shards") Integer shards,
    @JsonProperty("replicas") ReplicaCounts replicas,
    @JsonProperty("router") String router,
    @JsonProperty("shard_names") List<String> shardNames,
    @JsonProperty("configset") String configset,
    @JsonProperty("properties") Map<String, String> properties) {

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
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  public boolean usesDefaultConfigset() {
    return DEFAULT_CONFIGSET.equals(configset);
  }
}
