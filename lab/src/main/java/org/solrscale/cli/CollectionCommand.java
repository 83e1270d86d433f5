package org.solrscale.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ReplicaCounts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `solrscale collection create|delete`. */
@Command(name = "collection", description = "Create or delete a collection.",
    subcommands = {CollectionCommand.Create.class, CollectionCommand.Delete.class})
final class CollectionCommand {

  @Command(name = "create", description = "Create a collection and wait until its replicas are active.")
  static final class Create implements Callable<Integer> {
    @Mixin ClusterOptions cluster;

    @Option(names = "--collection", required = true, description = "Collection name.")
    String collection;

    @Option(names = "--shards", description = "Number of shards (default: 1, or the number of --shard-names).")
    Integer shards;

    @Option(names = "--replicas", defaultValue = "1", description = "NRT replicas per shard (default: 1).")
    int replicas;

    @Option(names = "--tlog", defaultValue = "0", description = "TLOG replicas per shard.")
    int tlog;

    @Option(names = "--pull", defaultValue = "0", description = "PULL replicas per shard.")
    int pull;

    @Option(names = "--router", description = "compositeId (default) or implicit.")
    String router;

    @Option(names = "--shard-names", split = ",", description = "Shard names for router implicit, e.g. a,b.")
    List<String> shardNames;

    @Option(names = "--configset", description = "Configset directory (default: built-in default).")
    String configset;

    @Override
    public Integer call() {
      CollectionSpec spec = new CollectionSpec(collection, shards,
          new ReplicaCounts(replicas, tlog, pull), router, shardNames, configset);
      new Cluster(Terminal.home(), cluster.name, Terminal.progress())
          .createCollection(spec, cluster.timeout);
      System.out.println("collection " + collection + " created: " + spec.shards() + " shard(s) x "
          + spec.replicas().total() + " replica(s)");
      return 0;
    }
  }

  @Command(name = "delete", description = "Delete a collection.")
  static final class Delete implements Callable<Integer> {
    @Mixin ClusterOptions cluster;

    @Option(names = "--collection", required = true, description = "Collection name.")
    String collection;

    @Override
    public Integer call() {
      new Cluster(Terminal.home(), cluster.name, Terminal.progress()).deleteCollection(collection);
      System.out.println("collection " + collection + " deleted");
      return 0;
    }
  }
}
