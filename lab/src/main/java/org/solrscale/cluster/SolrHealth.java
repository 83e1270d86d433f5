package org.solrscale.cluster;

import java.time.Duration;

/** Asks a Solr node whether it is up and connected to ZooKeeper (/admin/info/health). */
public final class SolrHealth {
  private SolrHealth() {}

  public static boolean healthy(NodeState node, Access access) {
    SolrHttp.Reply r =
        new SolrHttp(access)
            .get(node.baseUrl() + "/admin/info/health?wt=json", Duration.ofSeconds(5));
    return r.status() == 200 && r.text().contains("\"OK\"");
  }
}
