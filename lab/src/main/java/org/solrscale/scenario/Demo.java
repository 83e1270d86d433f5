package org.solrscale.scenario;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterReport;
import org.solrscale.data.DemoDocuments;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.NodeGroup;
import org.solrscale.spec.ReplicaCounts;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.ZkSpec;

/**
 * The first end-to-end run: up a small cluster, index generated documents, query them, show the
 * status, take it down. Later issues grow this into running scenarios/quick.yaml.
 */
public final class Demo {
  public static final String COLLECTION = "demo";

  /** One query the demo ran and what it found. */
  public record QueryResult(String description, String params, long numFound, int qtimeMillis) {}

  /** Everything the demo measured. */
  public record Result(String cluster, int documents, double upSeconds, double indexSeconds,
      List<QueryResult> queries, ClusterReport status) {}

  private final SolrscaleHome home;
  private final Consumer<String> progress;

  public Demo(SolrscaleHome home, Consumer<String> progress) {
    this.home = home;
    this.progress = progress;
  }

  public static ClusterSpec spec(String name, String solrVersion) {
    return new ClusterSpec(name, solrVersion, "512m", null, null, null,
        List.of(NodeGroup.ofCount(2)), ZkSpec.ofServers(1),
        List.of(new CollectionSpec(COLLECTION, 2, ReplicaCounts.nrt(1), null, null, null)));
  }

  /** Runs the demo on a cluster called {@code name}; the cluster is always taken down after. */
  public Result run(String name, String solrVersion, int documents, boolean keep) {
    Cluster cluster = new Cluster(home, name, progress);
    try {
      long t0 = System.nanoTime();
      cluster.up(spec(name, solrVersion), Duration.ofMinutes(5));
      double upSeconds = (System.nanoTime() - t0) / 1e9;
      progress.accept(String.format("cluster up in %.1f s", upSeconds));
      try (SolrClient client = new CloudHttp2SolrClient.Builder(cluster.solrUrls()).build()) {
        double indexSeconds = index(client, documents);
        List<QueryResult> queries = query(client);
        long all = queries.get(0).numFound();
        if (all != documents) {
          throw SolrscaleException.failed("indexed " + documents + " documents but " + all
              + " are searchable");
        }
        return new Result(name, documents, upSeconds, indexSeconds, queries, cluster.status(true));
      }
    } catch (IOException e) {
      throw SolrscaleException.failed("demo client failed: " + e.getMessage());
    } finally {
      if (!keep && cluster.state().isPresent()) {
        cluster.down(true);
      }
    }
  }

  private double index(SolrClient client, int documents) throws IOException {
    long t0 = System.nanoTime();
    int batch = 500;
    try {
      for (int from = 0; from < documents; from += batch) {
        client.add(COLLECTION, DemoDocuments.range(42, from, Math.min(documents, from + batch)));
      }
      client.commit(COLLECTION);
    } catch (SolrServerException e) {
      throw SolrscaleException.failed("indexing failed: " + e.getMessage());
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    progress.accept(String.format("indexed %d documents in %.1f s (%.0f docs/s)", documents,
        seconds, documents / seconds));
    return seconds;
  }

  private List<QueryResult> query(SolrClient client) throws IOException {
    List<SolrQuery> queries = new ArrayList<>();
    List<String> names = new ArrayList<>();
    names.add("all documents");
    queries.add(new SolrQuery("*:*").setRows(0));
    names.add("one term");
    queries.add(new SolrQuery("shard").setRows(10));
    names.add("two terms AND");
    queries.add(new SolrQuery("leader AND recovery").setRows(10));
    names.add("phrase");
    queries.add(new SolrQuery("\"search index\"").setRows(10));
    names.add("filter + sort");
    queries.add(new SolrQuery("query").addFilterQuery("category_s:books")
        .addSort("price_d", SolrQuery.ORDER.asc).setRows(10));
    names.add("facets");
    SolrQuery facets = new SolrQuery("*:*").setRows(0).setFacet(true)
        .addFacetField("category_s", "tags_ss").setFacetLimit(25);
    queries.add(facets);
    names.add("range");
    queries.add(new SolrQuery("price_d:[10 TO 50]").setRows(0));
    List<QueryResult> results = new ArrayList<>();
    for (int i = 0; i < queries.size(); i++) {
      String params = queries.get(i).toString(); // before SolrJ adds its own parameters
      try {
        QueryResponse r = client.query(COLLECTION, queries.get(i));
        results.add(new QueryResult(names.get(i), params,
            r.getResults().getNumFound(), r.getQTime()));
      } catch (SolrServerException e) {
        throw SolrscaleException.failed("query '" + names.get(i) + "' failed: " + e.getMessage());
      }
    }
    return results;
  }
}
