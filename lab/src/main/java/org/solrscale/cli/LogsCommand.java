package org.solrscale.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeLogs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale logs`: a node's log, or the last lines of every node's; --follow keeps printing. */
@Command(
    name = "logs",
    description =
        "Show a node's log (solr.log or zookeeper.log; --console: "
            + "what its JVM printed), or the last lines of every node's when no NODE is given. --follow "
            + "prints new lines as they come until Ctrl-C.")
final class LogsCommand implements Callable<Integer> {
  @Option(
      names = "--name",
      defaultValue = "lab",
      description = "Cluster name (default: ${DEFAULT-VALUE}).")
  String name;

  @Parameters(
      arity = "0..1",
      paramLabel = "NODE",
      description = "A node id: solr1, zk1, ... (default: all).")
  String node;

  @Option(
      names = "--lines",
      defaultValue = "20",
      paramLabel = "N",
      description = "Last lines to show of each log (default: ${DEFAULT-VALUE}).")
  int lines;

  @Option(names = "--follow", description = "Keep printing new lines until Ctrl-C.")
  boolean follow;

  @Option(
      names = "--console",
      description =
          "The console log (the JVM's own output: start-up "
              + "failures, crashes) instead of solr.log or zookeeper.log.")
  boolean console;

  @Override
  public Integer call() {
    Cluster cluster = new Cluster(Terminal.home(), name, Terminal.progress());
    // fetched from every host at once; an unknown node is named with those there are
    Map<String, Path> files =
        cluster.nodes().logFiles(node != null ? List.of(node) : cluster.nodeIds(), console);
    boolean several = files.size() > 1;
    files.forEach(
        (id, file) -> {
          List<String> tail = NodeLogs.tail(file, lines);
          if (several || tail.isEmpty()) {
            System.out.println(
                "==> "
                    + id
                    + ": "
                    + file
                    + (tail.isEmpty() ? " (empty or not there yet)" : "")
                    + " <==");
          }
          tail.forEach(System.out::println);
        });
    if (follow) {
      NodeLogs.follow(files, (id, line) -> System.out.println(several ? id + " | " + line : line));
    }
    return 0;
  }
}
