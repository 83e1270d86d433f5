package org.solrscale.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
    Set<String> found = new HashSet<>();
    byReplica(http, baseUrl, collection, ids, authorization)
        .values()
        .forEach(replicas -> replicas.values().forEach(found::addAll));
    return found;
  }

  /**
   * Which of {@code ids} each replica holds, by shard and then replica name (core_node2, ...), each
   * core asked alone by real-time get.
   */
  static Map<String, Map<String, Set<String>>> byReplica(
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
    Map<String, Map<String, Set<String>>> out = new TreeMap<>();
    var shards = status.at("/cluster/collections/" + collection + "/shards").fields();
    while (shards.hasNext()) {
      var shard = shards.next();
      var replicas = shard.getValue().path("replicas").fields();
      while (replicas.hasNext()) {
        var r = replicas.next();
        String core =
            baseUrl.substring(0, baseUrl.indexOf("://") + 3)
                + r.getValue().path("node_name").asText().replace("_solr", "/solr")
                + "/"
                + r.getValue().path("core").asText();
        Set<String> held = new HashSet<>();
        for (int i = 0; i < ids.size(); i += 100) {
          String batch = String.join(",", ids.subList(i, Math.min(ids.size(), i + 100)));
          JsonNode got =
              JSON.readTree(
                  get(http, core + "/get?distrib=false&wt=json&fl=id&ids=" + batch, authorization));
          got.path("response").path("docs").forEach(d -> held.add(d.path("id").asText()));
        }
        out.computeIfAbsent(shard.getKey(), k -> new TreeMap<>()).put(r.getKey(), held);
      }
    }
    if (out.isEmpty()) {
      throw new AssertionError("no replica of " + collection + " in " + status);
    }
    return out;
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
