package org.solrscale.cli;

import java.util.List;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ReplicaCounts;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Option;

/** The options that describe one collection, shared by `up` and `collection create`. */
final class CollectionOptions {
  @Option(names = "--collection", description = "Collection name.")
  String collection;

  @Option(
      names = "--shards",
      description = "Number of shards (default: 1, or the number of --shard-names).")
  Integer shards;

  @Option(
      names = "--replicas",
      defaultValue = "1",
      description = "NRT replicas per shard (default: ${DEFAULT-VALUE}).")
  int replicas;

  @Option(names = "--tlog", defaultValue = "0", description = "TLOG replicas per shard.")
  int tlog;

  @Option(names = "--pull", defaultValue = "0", description = "PULL replicas per shard.")
  int pull;

  @Option(names = "--router", description = "compositeId (default) or implicit.")
  String router;

  @Option(
      names = "--shard-names",
      split = ",",
      description = "Shard names for router implicit, e.g. a,b.")
  List<String> shardNames;

  @Option(
      names = "--configset",
      description = "Configset directory (default: the built-in default).")
  String configset;

  boolean given() {
    return collection != null;
  }

  /** The collection these options describe; fails if options were given without --collection. */
  CollectionSpec spec() {
    if (collection == null) {
      throw SolrscaleException.usage("--collection is required for the collection options");
    }
    return new CollectionSpec(
        collection,
        shards,
        new ReplicaCounts(replicas, tlog, pull),
        router,
        shardNames,
        configset,
        null);
  }

  boolean othersGiven() {
    return shards != null || router != null || shardNames != null || configset != null;
  }
}
