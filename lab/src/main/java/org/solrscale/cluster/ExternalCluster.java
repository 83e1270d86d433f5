package org.solrscale.cluster;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.common.util.Utils;
import org.solrscale.spec.SolrscaleException;

/**
 * A SolrCloud solrscale did not start, seen through a connected client: its live nodes and its
 * collections, read when asked. It has no processes solrscale could stop or start.
 */
public final class ExternalCluster {
  private final CloudSolrClient client;
  private final String where;
  private final Access access;

  /**
   * {@code where}: the cluster as the user named it ("--zk HOST:PORT/solr"), for messages; {@code
   * access}: who the client is to Solr, for solrscale's other calls.
   */
  public ExternalCluster(CloudSolrClient client, String where, Access access) {
    this.client = client;
    this.where = where;
    this.access = access;
  }

  public Access access() {
    return access;
  }

  public String where() {
    return where;
  }

  /** CLUSTERSTATUS: live nodes and collections (replicas named by their node names). */
  public LiveStatus status() {
    try {
      return SolrAdmin.parse(
          CollectionAdminRequest.getClusterStatus().process(client).getResponse(), n -> n);
    } catch (SolrServerException | IOException | RuntimeException e) {
      throw SolrscaleException.environment(
          "cannot read the cluster status of " + where + ": " + SolrAdmin.message(e));
    }
  }

  /** The live Solr nodes, as nodes solrscale can scrape and send to (no pid: not ours). */
  public List<NodeState> solrNodes() {
    String scheme;
    try {
      scheme = client.getClusterStateProvider().getClusterProperty("urlScheme", "http");
    } catch (RuntimeException e) {
      scheme = "http";
    }
    String s = scheme;
    return status().liveNodes().stream().sorted().map(n -> node(n, s)).toList();
  }

  private static NodeState node(String nodeName, String scheme) {
    String url = Utils.getBaseUrlForNodeName(nodeName, scheme);
    URI u = URI.create(url);
    return new NodeState(nodeName, NodeRole.SOLR, u.getHost(), u.getPort(), 0, 0, 0, null, Map.of())
        .withScheme("https".equals(scheme) ? "https" : null);
  }
}
