package org.solrscale.cluster;

import java.util.concurrent.TimeUnit;
import org.apache.solr.common.cloud.ClusterProperties;
import org.apache.solr.common.cloud.SolrZkClient;
import org.solrscale.spec.SolrscaleException;

/**
 * Sets the cluster property urlScheme to https in ZooKeeper before the first Solr node starts: a
 * node reads it once, at start, to name its own base URL, and every client builds node URLs with
 * it.
 */
final class UrlScheme {
  private UrlScheme() {}

  static void https(String zkHost) {
    try (SolrZkClient zk =
        new SolrZkClient.Builder()
            .withUrl(zkHost)
            .withTimeout(15, TimeUnit.SECONDS)
            .withConnTimeOut(60, TimeUnit.SECONDS)
            .build()) {
      ClusterProperties props = new ClusterProperties(zk);
      if (!"https".equals(props.getClusterProperty("urlScheme", "http"))) {
        props.setClusterProperty("urlScheme", "https");
      }
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw SolrscaleException.failed(
          "cannot set urlScheme https in ZooKeeper at " + zkHost + ": " + e.getMessage());
    }
  }
}
