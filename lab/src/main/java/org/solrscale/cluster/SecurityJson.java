package org.solrscale.cluster;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.zookeeper.CreateMode;
import org.solrscale.spec.SolrscaleException;

/**
 * Puts Solr's security.json into ZooKeeper before the first Solr node starts, so that no node ever
 * serves without authentication. One already there with content (a cluster started again) is left
 * as it is: its users' hashes match the credentials file written with it.
 */
final class SecurityJson {
  static final String PATH = "/security.json";

  private SecurityJson() {}

  static void ensure(String zkHost, Supplier<String> json, long deadline) {
    long millisLeft = Math.max(5_000, (deadline - System.nanoTime()) / 1_000_000);
    try (SolrZkClient zk =
        new SolrZkClient.Builder()
            .withUrl(zkHost)
            .withTimeout(15, TimeUnit.SECONDS)
            .withConnTimeOut((int) Math.min(millisLeft, 60_000), TimeUnit.MILLISECONDS)
            .build()) {
      if (zk.exists(PATH, true)) {
        byte[] there = zk.getData(PATH, null, null, true);
        String text = there == null ? "" : new String(there, StandardCharsets.UTF_8).strip();
        if (text.contains("authentication")) {
          return;
        }
        zk.setData(PATH, json.get().getBytes(StandardCharsets.UTF_8), true);
        return;
      }
      zk.makePath(PATH, json.get().getBytes(StandardCharsets.UTF_8), CreateMode.PERSISTENT, true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while writing security.json to ZooKeeper");
    } catch (Exception e) {
      throw SolrscaleException.failed(
          "cannot write security.json to ZooKeeper at " + zkHost + ": " + e.getMessage());
    }
  }
}
