package org.solrscale.index;

import java.util.List;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.CollectionChecks;
import org.solrscale.cluster.Connect;
import org.solrscale.results.IndexResult;

/**
 * An index run, from `solrscale index` (against the target it names, connected) or a scenario's
 * index step: the collection checked (it exists, it may be written, it has an id key), the corpus
 * loaded and the CPU it cost on both sides counted.
 */
public final class IndexRun {
  private IndexRun() {}

  /** Loads {@code options}' files into the target; {@code progress} hears twice a second. */
  public static IndexResult run(
      Connect target,
      IndexOptions options,
      Consumer<String> warnings,
      Consumer<IndexProgress> progress) {
    return target.withClient(
        client -> {
          target.requireCollection(client, options.collection());
          return run(
              client, target.access(), liveNodeUrls(client).get(0), options, warnings, progress);
        });
  }

  /**
   * Loads {@code options}' files through {@code client} (a scenario's index step comes here
   * directly): the collection checked at {@code node} (it may be written, it has an id key), then
   * the load, with the CPU it cost on both sides.
   */
  public static IndexResult run(
      CloudHttp2SolrClient client,
      Access access,
      String node,
      IndexOptions options,
      Consumer<String> warnings,
      Consumer<IndexProgress> progress) {
    String collection = options.collection();
    CollectionChecks.requireWrite(node, collection, access, "index");
    CollectionChecks.requireIdKey(node, collection, access, "index");
    CpuMeter meter = new CpuMeter(client.getHttpClient(), access, liveNodeUrls(client));
    CpuMeter.Reading before = meter.read();
    long t0 = System.nanoTime();
    IndexResult r = new BulkIndexer(client, options, warnings, progress).run();
    return r.withCpu(meter.between(before, meter.read(), (System.nanoTime() - t0) / 1e9));
  }

  /**
   * The base URLs of the live Solr nodes, for their CPU figures; none if the state cannot be read.
   */
  private static List<String> liveNodeUrls(CloudSolrClient client) {
    try {
      return Connect.liveNodeUrls(client);
    } catch (RuntimeException e) {
      return List.of();
    }
  }
}
