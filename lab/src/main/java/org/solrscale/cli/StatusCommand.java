package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterReport;
import org.solrscale.spec.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `solrscale status`: nodes, processes, collections, replicas and documents per shard. */
@Command(
    name = "status",
    description =
        "Show a cluster's nodes (with their base URLs and, for a "
            + "cluster solrscale started, their processes), collections, replicas and documents per shard; "
            + "of any SolrCloud with --zk or --url.")
final class StatusCommand implements Callable<Integer> {
  @Mixin SolrTarget target;

  @Option(names = "--collection", description = "Show this collection only.")
  String collection;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    target.access(); // a --user or --password-file that cannot apply fails here, in one line
    ClusterReport report =
        target.external()
            ? target.connect().externalStatus()
            : new Cluster(Terminal.home(), target.name, Terminal.progress()).status(true);
    if (collection != null) {
      report = report.only(collection);
    }
    if (json) {
      Terminal.printJson(report);
    } else {
      System.out.print(StatusPrinter.render(report));
    }
    // a node whose host could not be asked: one line each, after what the others said
    report.unreachable().forEach(p -> System.err.println("solrscale: " + p));
    return report.unreachable().isEmpty() ? 0 : ExitCode.ENVIRONMENT.code();
  }
}
