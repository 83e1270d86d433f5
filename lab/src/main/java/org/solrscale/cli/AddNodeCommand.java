package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.spec.NodeGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `solrscale add-node`: one more Solr node, with replicas balanced onto it. */
@Command(name = "add-node", description = "Start one more Solr node and balance replicas onto it.")
final class AddNodeCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;

  @Option(names = "--labels", description = "Node labels, e.g. dc=east,rack=r1.")
  String labels;

  @Option(names = "--heap", description = "Heap of the new node (default: the cluster's).")
  String heap;

  @Override
  public Integer call() {
    NodeState node =
        new Cluster(Terminal.home(), cluster.name, Terminal.progress())
            .nodes()
            .addNode(NodeGroup.parseLabels(labels), heap, cluster.timeout);
    System.out.println(
        node.id() + " added on " + node.host() + ":" + node.port() + " (pid " + node.pid() + ")");
    return 0;
  }
}
