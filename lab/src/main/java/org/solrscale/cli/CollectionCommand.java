package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.spec.CollectionSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `solrscale collection create|delete`. */
@Command(
    name = "collection",
    description = "Create or delete a collection.",
    subcommands = {CollectionCommand.Create.class, CollectionCommand.Delete.class})
final class CollectionCommand {

  @Command(
      name = "create",
      description = "Create a collection and wait until its replicas are active.")
  static final class Create implements Callable<Integer> {
    @Mixin ClusterOptions cluster;

    @Mixin CollectionOptions options;

    @Override
    public Integer call() {
      CollectionSpec spec = options.spec();
      new Cluster(Terminal.home(), cluster.name, Terminal.progress())
          .collections()
          .create(spec, cluster.timeout);
      System.out.println(
          "collection "
              + spec.name()
              + " created: "
              + spec.shards()
              + " shard(s) x "
              + spec.replicas().total()
              + " replica(s)");
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
      new Cluster(Terminal.home(), cluster.name, Terminal.progress())
          .collections()
          .delete(collection);
      System.out.println("collection " + collection + " deleted");
      return 0;
    }
  }
}
