package org.solrscale.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which ids a collection holds on at least one replica, asked of every replica's core alone by
 * real-time get ({@code distrib=false}): the loss checker's notion of "found", counted another way
 * (its own reads are cursor-paged searches). A distributed lookup reads one replica per shard, so
 * under divergence it would count by which replica it happened to read.
 */
final class OnAnyReplica {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OnAnyReplica() {}

  /** {@code authorization}: an Authorization header value, or null. */
  static Set<String> found(
      String baseUrl, String collection, List<String> ids, String authorization) throws Exception {
    return found(HttpClient.newHttpClient(), baseUrl, collection, ids, authorization);
  }

  /** The same with {@code http}, e.g. a client that trusts a cluster's own CA. */
  static Set<String> found(
      HttpClient http, String baseUrl, String collection, List<String> ids, String authorization)
      throws Exception {
    JsonNode status =
        JSON.readTree(
            get(
                http,
                baseUrl
                    + "/admin/collections?action=CLUSTERSTATUS&wt=json&collection="
                    + collection,
                authorization));
    List<String> cores = new ArrayList<>();
    status
        .at("/cluster/collections/" + collection + "/shards")
        .forEach(
            shard ->
                shard
                    .path("replicas")
                    .forEach(
                        r ->
                            cores.add(
                                baseUrl.substring(0, baseUrl.indexOf("://") + 3)
                                    + r.path("node_name").asText().replace("_solr", "/solr")
                                    + "/"
                                    + r.path("core").asText())));
    if (cores.isEmpty()) {
      throw new AssertionError("no replica of " + collection + " in " + status);
    }
    Set<String> found = new HashSet<>();
    for (String core : cores) {
      for (int i = 0; i < ids.size(); i += 100) {
        String batch = String.join(",", ids.subList(i, Math.min(ids.size(), i + 100)));
        JsonNode r =
            JSON.readTree(
                get(http, core + "/get?distrib=false&wt=json&fl=id&ids=" + batch, authorization));
        r.path("response").path("docs").forEach(d -> found.add(d.path("id").asText()));
      }
    }
    return found;
  }

  private static String get(HttpClient http, String url, String authorization) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new AssertionError(url + " answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }
}
