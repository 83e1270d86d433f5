package org.solrscale.cli;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.common.cloud.ClusterState;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.solr.common.util.Utils;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NoSuchCollection;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Option;

/**
 * Which SolrCloud a command talks to: a cluster solrscale started ({@code --name}), or any other by
 * its ZooKeeper ensemble ({@code --zk}) or some of its nodes ({@code --url}).
 */
final class SolrTarget {
  @Option(
      names = "--name",
      defaultValue = "lab",
      description = "Cluster started by solrscale (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(
      names = "--zk",
      paramLabel = "HOST:PORT[,HOST:PORT...][/CHROOT]",
      description = "ZooKeeper ensemble of any SolrCloud (instead of --name).")
  String zk;

  @Option(
      names = "--url",
      paramLabel = "URL[,URL...]",
      description =
          "Solr base URLs of any SolrCloud, e.g. http://127.0.0.1:8983/solr (instead of --name).")
  String url;

  /** True for a SolrCloud solrscale did not start (--zk or --url). */
  boolean external() {
    return zk != null || url != null;
  }

  /** A routing client, connected: an unreachable target fails here, before any work starts. */
  CloudHttp2SolrClient client() {
    if (zk != null && url != null) {
      throw SolrscaleException.usage("give --zk or --url, not both");
    }
    CloudHttp2SolrClient client =
        zk != null ? zkClient() : new CloudHttp2SolrClient.Builder(urls()).build();
    try {
      client.connect(15, TimeUnit.SECONDS);
      return client;
    } catch (Exception e) {
      closeQuietly(client);
      String why = zk != null ? zkDiagnosis() : null;
      throw SolrscaleException.environment(
          "cannot reach SolrCloud at "
              + describe()
              + ": "
              + (why != null
                  ? why
                  : e.getMessage() == null
                      ? e.toString()
                      : e.getMessage().replaceAll("\\s+", " ")));
    }
  }

  /**
   * Why a ZooKeeper that answers holds no SolrCloud where --zk points (a chroot that does not
   * exist, or one no Solr node registered under), or null: then the client's own error stands.
   */
  private String zkDiagnosis() {
    int slash = zk.indexOf('/');
    String hosts = slash < 0 ? zk : zk.substring(0, slash);
    String root = slash < 0 ? "" : zk.substring(slash).replaceAll("/+$", "");
    try (SolrZkClient z =
        new SolrZkClient.Builder()
            .withUrl(hosts)
            .withTimeout(5, TimeUnit.SECONDS)
            .withConnTimeOut(5, TimeUnit.SECONDS)
            .build()) {
      if (!root.isEmpty() && !z.exists(root, true)) {
        return "ZooKeeper at "
            + hosts
            + " answers but has no "
            + root
            + " (the chroot in --zk): "
            + (z.exists("/live_nodes", true)
                ? "it holds a SolrCloud at its root, so give --zk " + hosts
                : "give the chroot of your Solr nodes' zkHost; at its root are "
                    + z.getChildren("/", null, true));
      }
      if (!z.exists(root + "/live_nodes", true)) {
        return "ZooKeeper at "
            + hosts
            + " answers but no SolrCloud uses "
            + (root.isEmpty() ? "its root" : root)
            + " (no live_nodes there; it holds "
            + z.getChildren(root.isEmpty() ? "/" : root, null, true)
            + "): give the chroot of your Solr nodes' zkHost in --zk, e.g. HOST:PORT/solr";
      }
      if (z.getChildren(root + "/live_nodes", null, true).isEmpty()) {
        return "ZooKeeper at "
            + hosts
            + " answers but no Solr node is live under "
            + (root.isEmpty() ? "its root" : root)
            + ": start the nodes";
      }
      return null;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return null; // ZooKeeper does not answer either: the client's error says so
    }
  }

  private CloudHttp2SolrClient zkClient() {
    int slash = zk.indexOf('/');
    List<String> hosts =
        Arrays.stream((slash < 0 ? zk : zk.substring(0, slash)).split(","))
            .map(String::trim)
            .filter(h -> !h.isEmpty())
            .toList();
    if (hosts.isEmpty() || hosts.stream().anyMatch(h -> !h.matches("[^:]+:\\d+"))) {
      throw SolrscaleException.usage("--zk '" + zk + "' is not HOST:PORT[,HOST:PORT...][/CHROOT]");
    }
    Optional<String> chroot = slash < 0 ? Optional.empty() : Optional.of(zk.substring(slash));
    return new CloudHttp2SolrClient.Builder(hosts, chroot)
        .withZkConnectTimeout(10, TimeUnit.SECONDS)
        .withZkClientTimeout(15, TimeUnit.SECONDS)
        .build();
  }

  /**
   * Refuses a collection (or alias) the cluster does not hold, naming those it does: else the first
   * batch would fail with Solr's "Collection not found" after the input was opened.
   */
  void requireCollection(CloudSolrClient client, String collection) {
    Collection<String> names;
    List<String> resolved;
    try {
      names = client.getClusterState().getCollectionNames();
      resolved = client.getClusterStateProvider().resolveAlias(collection);
    } catch (RuntimeException e) {
      return; // the state cannot be read: the requests themselves will say what is wrong
    }
    if (!names.containsAll(resolved)) {
      throw NoSuchCollection.error(collection, describe(), names);
    }
  }

  /** The Solr URLs of --url, or of the running nodes of the cluster --name. */
  List<String> urls() {
    if (url != null) {
      List<String> urls =
          Arrays.stream(url.split(",")).map(String::trim).filter(u -> !u.isEmpty()).toList();
      if (urls.isEmpty()
          || urls.stream().anyMatch(u -> !u.startsWith("http://") && !u.startsWith("https://"))) {
        throw SolrscaleException.usage(
            "--url '" + url + "' is not a comma-separated list of http(s):// URLs");
      }
      return urls;
    }
    List<String> urls = new Cluster(Terminal.home(), name, Terminal.progress()).solrUrls();
    if (urls.isEmpty()) {
      throw SolrscaleException.failed(
          "no Solr node of '" + name + "' is running; run: solrscale up --name " + name);
    }
    return urls;
  }

  /** The base URLs of the cluster state's live nodes, sorted. */
  static List<String> liveNodeUrls(ClusterState state) {
    return state.getLiveNodes().stream()
        .sorted()
        .map(n -> Utils.getBaseUrlForNodeName(n, "http"))
        .toList();
  }

  String describe() {
    return zk != null ? "--zk " + zk : url != null ? "--url " + url : "cluster '" + name + "'";
  }

  private static void closeQuietly(CloudSolrClient c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // closing what failed to connect
    }
  }
}
