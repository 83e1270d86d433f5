package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.scenario.Demo;
import org.solrscale.spec.ClusterSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `solrscale demo`: the main job end to end on a small cluster. */
@Command(name = "demo", description = "Up a 2-node cluster, index generated documents, query, show status, take it down.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--name", defaultValue = "demo", description = "Cluster name (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--solr-version", defaultValue = ClusterSpec.DEFAULT_SOLR_VERSION,
      description = "Solr release (default: ${DEFAULT-VALUE}).")
  String solrVersion;

  @Option(names = "--docs", defaultValue = "5000", description = "Documents to index (default: ${DEFAULT-VALUE}).")
  int docs;

  @Option(names = "--keep", description = "Leave the cluster running (stop it with: solrscale down --name NAME).")
  boolean keep;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() {
    if (docs < 1) {
      throw org.solrscale.spec.SolrscaleException.usage("--docs must be at least 1");
    }
    System.err.println("solrscale demo: 1 ZooKeeper + 2 Solr " + solrVersion
        + " nodes, collection 'demo' with 2 shards, " + docs + " documents");
    Demo.Result r = new Demo(Terminal.home(), Terminal.progress()).run(name, solrVersion, docs, keep);
    if (json) {
      Terminal.printJson(r);
      return 0;
    }
    System.out.printf("%ncluster up in %.1f s; %d documents indexed in %.1f s%n%n", r.upSeconds(),
        r.documents(), r.indexSeconds());
    Table t = new Table("QUERY", "HITS", "QTIME ms", "PARAMETERS");
    for (Demo.QueryResult q : r.queries()) {
      t.row(q.description(), q.numFound(), q.qtimeMillis(), q.params());
    }
    System.out.print(t.render());
    System.out.println();
    System.out.print(StatusPrinter.render(r.status()));
    System.out.println(keep
        ? "\ncluster '" + name + "' left running; stop it with: ./solrscale down --name " + name
        : "\ncluster '" + name + "' taken down and its data deleted");
    return 0;
  }
}
