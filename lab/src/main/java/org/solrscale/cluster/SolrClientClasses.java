package org.solrscale.cluster;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.QueryRequest;

/**
 * The Solr client stack's classes, loaded for the launcher's class data sharing archive ({@code
 * solrscale cds-training}) without reaching any real server.
 */
public final class SolrClientClasses {
  private SolrClientClasses() {}

  /**
   * Sends one request through the Solr client stack to a local server that does not speak HTTP/2,
   * so the client's connection, HTTP/2 and TLS-context classes load; the failure is expected.
   */
  public static void load() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/solr";
    try (CloudHttp2SolrClient c = new CloudHttp2SolrClient.Builder(List.of(url)).build();
        Http2SolrClient h =
            new Http2SolrClient.Builder(url).withRequestTimeout(2, TimeUnit.SECONDS).build()) {
      try {
        h.request(new QueryRequest(), "c");
      } catch (Exception expected) {
        // nobody there speaks Solr
      }
      try {
        c.query("c", new SolrQuery("*:*"));
      } catch (Exception expected) {
        // nor ZooKeeper-less cluster state
      }
    } finally {
      server.stop(0);
    }
  }
}
