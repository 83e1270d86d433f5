package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * `solrscale remove-node ID`: moves replicas away (REPLACENODE), then stops and forgets the node.
 */
@Command(
    name = "remove-node",
    description = "Move a Solr node's replicas elsewhere, then stop and remove it.")
final class RemoveNodeCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;

  @Parameters(index = "0", paramLabel = "ID", description = "Solr node id, e.g. solr3.")
  String id;

  @Override
  public Integer call() {
    new Cluster(Terminal.home(), cluster.name, Terminal.progress())
        .nodes()
        .removeNode(id, cluster.timeout);
    System.out.println(id + " removed");
    return 0;
  }
}
