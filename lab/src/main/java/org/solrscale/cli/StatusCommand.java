package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `solrscale status`: nodes, processes, collections, replicas and documents per shard. */
@Command(name = "status", description = "Show a cluster's nodes, collections, replicas and documents.")
final class StatusCommand implements Callable<Integer> {
  @Option(names = "--name", defaultValue = "lab", description = "Cluster name (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    ClusterReport report = new Cluster(Terminal.home(), name, Terminal.progress()).status(true);
    if (json) {
      Terminal.printJson(report);
    } else {
      System.out.print(StatusPrinter.render(report));
    }
    return 0;
  }
}
