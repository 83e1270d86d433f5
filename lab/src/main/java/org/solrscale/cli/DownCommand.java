package org.solrscale.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `solrscale down`: stops every process of a cluster by its recorded pid. */
@Command(
    name = "down",
    description = "Stop a cluster's processes (graceful, then forced); --purge deletes its data.")
final class DownCommand implements Callable<Integer> {
  @Option(
      names = "--name",
      defaultValue = "lab",
      description = "Cluster name (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--purge", description = "Also delete the cluster's data, logs and state.")
  boolean purge;

  @Option(
      names = "--if-exists",
      description =
          "A cluster that is not there is no error: say so and "
              + "exit 0 (without it: exit 2, naming the clusters there are).")
  boolean ifExists;

  @Override
  public Integer call() {
    Cluster cluster = new Cluster(Terminal.home(), name, Terminal.progress());
    if (ifExists && !cluster.exists()) {
      System.out.println("no cluster named '" + name + "' here: nothing to stop");
      return 0;
    }
    List<String> stopped = cluster.down(purge);
    System.out.println(
        "cluster "
            + name
            + " is down ("
            + stopped.size()
            + " process"
            + (stopped.size() == 1 ? "" : "es")
            + " stopped"
            + (purge ? ", data deleted" : "")
            + ")");
    return 0;
  }
}
