package org.solrscale.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterReport;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.StateStore;
import picocli.CommandLine.Command;

/** `solrscale list`: every cluster solrscale knows of here. */
@Command(name = "list", description = "List the clusters solrscale knows of and whether they run.")
final class ListCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    Table t = new Table("CLUSTER", "SOLR", "NODES", "ZK", "RUNNING");
    List<ClusterState> all = new StateStore(Terminal.home()).all();
    if (all.isEmpty()) {
      System.out.println(
          "no clusters in "
              + Terminal.home().clusters()
              + "; start one with solrscale up --name NAME");
      return 0;
    }
    for (ClusterState c : all) {
      ClusterReport r = new Cluster(Terminal.home(), c.name(), s -> {}).status(false);
      long running = r.nodes().stream().filter(n -> n.alive()).count();
      t.row(
          c.name(),
          c.spec().solrVersion(),
          c.solrNodes().size(),
          c.zkNodes().size(),
          running + "/" + r.nodes().size());
    }
    System.out.print(t.render());
    return 0;
  }
}
