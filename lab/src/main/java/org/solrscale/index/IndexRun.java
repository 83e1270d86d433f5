package org.solrscale.index;

import java.util.List;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.solrscale.cluster.CollectionChecks;
import org.solrscale.cluster.Connect;
import org.solrscale.results.IndexResult;

/**
 * `solrscale index` against the target it names: connected, the collection checked (it exists, it
 * may be written, it has an id key), the corpus loaded and the CPU it cost on both sides counted.
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
          String collection = options.collection();
          target.requireCollection(client, collection);
          String node = liveNodeUrls(client).get(0);
          CollectionChecks.requireWrite(node, collection, target.access(), "index");
          CollectionChecks.requireIdKey(node, collection, target.access(), "index");
          CpuMeter meter =
              new CpuMeter(client.getHttpClient(), target.access(), liveNodeUrls(client));
          CpuMeter.Reading before = meter.read();
          long t0 = System.nanoTime();
          IndexResult r = new BulkIndexer(client, options, warnings, progress).run();
          return r.withCpu(meter.between(before, meter.read(), (System.nanoTime() - t0) / 1e9));
        });
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
