package org.solrscale.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Asks a Solr node whether it is up and connected to ZooKeeper (/admin/info/health). */
public final class SolrHealth {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();

  private SolrHealth() {}

  public static boolean healthy(NodeState node) {
    HttpRequest req = HttpRequest.newBuilder(URI.create(node.baseUrl() + "/admin/info/health?wt=json"))
        .timeout(Duration.ofSeconds(5)).GET().build();
    try {
      HttpResponse<String> resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
      return resp.statusCode() == 200 && resp.body().contains("\"OK\"");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
