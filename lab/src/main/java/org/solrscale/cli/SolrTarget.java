package org.solrscale.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.solrscale.cluster.Cluster;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Option;

/**
 * Which SolrCloud a command talks to: a cluster solrscale started ({@code --name}), or any other
 * by its ZooKeeper ensemble ({@code --zk}) or some of its nodes ({@code --url}).
 */
final class SolrTarget {
  @Option(names = "--name", defaultValue = "lab", description = "Cluster started by solrscale (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--zk", paramLabel = "HOST:PORT[,HOST:PORT...][/CHROOT]",
      description = "ZooKeeper ensemble of any SolrCloud (instead of --name).")
  String zk;

  @Option(names = "--url", paramLabel = "URL[,URL...]",
      description = "Solr base URLs of any SolrCloud, e.g. http://127.0.0.1:8983/solr (instead of --name).")
  String url;

  /** A routing client, connected: an unreachable target fails here, before any work starts. */
  CloudHttp2SolrClient client() {
    if (zk != null && url != null) {
      throw SolrscaleException.usage("give --zk or --url, not both");
    }
    CloudHttp2SolrClient client = zk != null ? zkClient() : new CloudHttp2SolrClient.Builder(urls()).build();
    try {
      client.connect(15, TimeUnit.SECONDS);
      return client;
    } catch (Exception e) {
      closeQuietly(client);
      throw SolrscaleException.environment("cannot reach SolrCloud at " + describe() + ": "
          + (e.getMessage() == null ? e.toString() : e.getMessage().replaceAll("\\s+", " ")));
    }
  }

  private CloudHttp2SolrClient zkClient() {
    int slash = zk.indexOf('/');
    List<String> hosts = Arrays.stream((slash < 0 ? zk : zk.substring(0, slash)).split(","))
        .map(String::trim).filter(h -> !h.isEmpty()).toList();
    if (hosts.isEmpty() || hosts.stream().anyMatch(h -> !h.matches("[^:]+:\\d+"))) {
      throw SolrscaleException.usage("--zk '" + zk + "' is not HOST:PORT[,HOST:PORT...][/CHROOT]");
    }
    Optional<String> chroot = slash < 0 ? Optional.empty() : Optional.of(zk.substring(slash));
    return new CloudHttp2SolrClient.Builder(hosts, chroot)
        .withZkConnectTimeout(10, TimeUnit.SECONDS).withZkClientTimeout(15, TimeUnit.SECONDS).build();
  }

  /** The Solr URLs of --url, or of the running nodes of the cluster --name. */
  List<String> urls() {
    if (url != null) {
      List<String> urls = Arrays.stream(url.split(",")).map(String::trim).filter(u -> !u.isEmpty()).toList();
      if (urls.isEmpty() || urls.stream().anyMatch(u -> !u.startsWith("http://") && !u.startsWith("https://"))) {
        throw SolrscaleException.usage("--url '" + url + "' is not a comma-separated list of http(s):// URLs");
      }
      return urls;
    }
    List<String> urls = new Cluster(Terminal.home(), name, Terminal.progress()).solrUrls();
    if (urls.isEmpty()) {
      throw SolrscaleException.failed("no Solr node of '" + name + "' is running; run: solrscale up --name " + name);
    }
    return urls;
  }

  /** The base URLs of the cluster state's live nodes, sorted. */
  static List<String> liveNodeUrls(org.apache.solr.common.cloud.ClusterState state) {
    return state.getLiveNodes().stream().sorted()
        .map(n -> org.apache.solr.common.util.Utils.getBaseUrlForNodeName(n, "http")).toList();
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
