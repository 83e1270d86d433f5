package org.solrscale.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.solrscale.spec.Routing;
import org.solrscale.spec.SolrscaleException;

/** The Solr base URLs a query load goes to: bench's and capacity's. */
public final class QueryTargets {
  private QueryTargets() {}

  /**
   * The live nodes of the target's cluster holding {@code collection} (routing cloud or
   * round-robin), one node (node:ID), or the --url servers as given when they are no SolrCloud.
   */
  public static List<String> nodeUrls(Connect target, String collection, Routing routing) {
    if (target.options().url() != null && routing.mode() != Routing.Mode.NODE) {
      List<String> standalone = standaloneUrls(target, collection);
      if (standalone != null) {
        return standalone;
      }
    }
    try (CloudSolrClient client = target.client()) {
      var state = client.getClusterState();
      if (state.getCollectionOrNull(collection) == null) {
        throw NoSuchCollection.error(collection, target.describe(), state.getCollectionNames());
      }
      if (routing.mode() == Routing.Mode.NODE) {
        return List.of(nodeUrl(target, routing.node()));
      }
      return Connect.liveNodeUrls(client);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot close the Solr client: " + e.getMessage());
    }
  }

  /**
   * --url may name plain (non-cloud) Solr servers, or anything that answers like one: when the
   * first URL has no SolrCloud cluster status but answers a query on the collection, the URLs are
   * used as they are. Null when it is a SolrCloud (or answers neither).
   */
  static List<String> standaloneUrls(Connect target, String collection) {
    List<String> urls = target.urls();
    SolrHttp http = new SolrHttp(Duration.ofSeconds(5), target.access());
    SolrHttp.Reply probe =
        http.get(
            urls.get(0) + "/admin/collections?action=CLUSTERSTATUS&wt=json",
            Duration.ofSeconds(15));
    if (probe.status() == 200 && probe.text().contains("\"cluster\"")) {
      return null; // a SolrCloud: the cloud path checks the collection and finds the live nodes
    }
    for (String u : urls) {
      SolrHttp.Reply r =
          http.get(u + "/" + collection + "/select?q=*:*&rows=0&wt=json", Duration.ofSeconds(15));
      if (r.status() != 200) {
        throw SolrscaleException.environment(
            "cannot query "
                + u
                + "/"
                + collection
                + ": "
                + (r.status() == 0
                    ? "no answer (" + r.message() + ")"
                    : r.message().startsWith("HTTP ")
                        ? r.message()
                        : "HTTP " + r.status() + ": " + r.message()));
      }
    }
    return urls;
  }

  static String nodeUrl(Connect target, String id) {
    if (target.external()) {
      if (id.startsWith("http")) {
        return id;
      }
      throw SolrscaleException.usage(
          "--routing node:ID needs --name (node ids are solrscale's); "
              + "for other clusters give node:http://HOST:PORT/solr");
    }
    String name = target.options().name();
    return target
        .cluster()
        .state()
        .orElseThrow(() -> SolrscaleException.usage("no cluster named '" + name + "'"))
        .find(id)
        .filter(n -> n.isSolr())
        .map(n -> n.baseUrl())
        .orElseThrow(
            () -> SolrscaleException.usage("no Solr node '" + id + "' in cluster '" + name + "'"));
  }
}
