package org.solrscale.cluster;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.common.util.Utils;
import org.solrscale.spec.SolrscaleException;

/**
 * What `status` shows of a SolrCloud solrscale did not start: its live nodes (no processes: they
 * are not ours) and its collections, read through a client connected to it.
 */
public final class ExternalStatus {
  private ExternalStatus() {}

  /**
   * @param where the cluster as the user named it ("--zk HOST:PORT/solr"), the report's name
   * @param zkHost its ZooKeeper ensemble when known, else null
   */
  public static ClusterReport read(CloudSolrClient client, String where, String zkHost) {
    NamedList<?> response;
    try {
      response = CollectionAdminRequest.getClusterStatus().process(client).getResponse();
    } catch (SolrServerException | IOException | RuntimeException e) {
      throw SolrscaleException.environment(
          "cannot read the cluster status of " + where + ": " + SolrAdmin.message(e));
    }
    LiveStatus live = SolrAdmin.parse(response, nodeName -> nodeName);
    String scheme = urlScheme(response);
    List<NodeReport> nodes = live.liveNodes().stream().sorted().map(n -> node(n, scheme)).toList();
    return new ClusterReport(
        where,
        solrVersion(client),
        zkHost,
        nodes,
        live.liveNodes(),
        SolrAdmin.withDocs(client, live.collections()),
        null,
        true,
        List.of());
  }

  /** A live node by its name, e.g. 127.0.0.1:8983_solr. */
  private static NodeReport node(String nodeName, String scheme) {
    String hostPort =
        nodeName.substring(
            0, nodeName.indexOf('_') < 0 ? nodeName.length() : nodeName.indexOf('_'));
    int colon = hostPort.lastIndexOf(':');
    String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
    int port = colon < 0 ? 0 : Integer.parseInt(hostPort.substring(colon + 1));
    return new NodeReport(
        nodeName,
        NodeRole.SOLR,
        host,
        port,
        0,
        true,
        "-",
        "live",
        Map.of(),
        Utils.getBaseUrlForNodeName(nodeName, scheme),
        null);
  }

  private static String urlScheme(NamedList<?> response) {
    Object cluster = response.get("cluster");
    Object props = cluster instanceof NamedList<?> nl ? nl.get("properties") : null;
    Object scheme =
        props instanceof Map<?, ?> m
            ? m.get("urlScheme")
            : props instanceof NamedList<?> p ? p.get("urlScheme") : null;
    return scheme == null ? "http" : scheme.toString();
  }

  /** The Solr release a node reports, or null when it does not say. */
  private static String solrVersion(CloudSolrClient client) {
    try {
      NamedList<Object> info =
          client.request(
              new GenericSolrRequest(
                  SolrRequest.METHOD.GET, "/admin/info/system", new ModifiableSolrParams()));
      Object lucene = info.get("lucene");
      return lucene instanceof NamedList<?> nl && nl.get("solr-spec-version") != null
          ? nl.get("solr-spec-version").toString()
          : lucene instanceof Map<?, ?> m && m.get("solr-spec-version") != null
              ? m.get("solr-spec-version").toString()
              : null;
    } catch (SolrServerException | IOException | RuntimeException e) {
      return null;
    }
  }
}
