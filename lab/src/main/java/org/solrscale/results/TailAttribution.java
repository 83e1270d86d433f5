package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Which replica made the tail slow (attribution.json): of the requests sampled with shards.info,
 * the slowest 1 % ({@code tail}, at least {@code tail_threshold_ms} on the wire), and for each
 * replica how often its shard was the slowest of such a request ({@code slowest_in_tail}, {@code
 * share}), with its shard times over all samples; then the same by host and by label, once the
 * replicas are known as nodes. shards.info times the first phase only (the top ids): {@code
 * tail_explained} is the part of the tail's time on the wire that its slowest first-phase shards
 * took; the rest went elsewhere (the coordinator, fetching the documents from a replica chosen
 * again, refining facets), where shards.info names no replica. {@code coordinators}: the nodes the
 * tail's requests were sent to. A coordinator on a slow host waits across its slow link for every
 * shard it does not hold, so its tail's slowest shards are healthy replicas: the coordinators say
 * so.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TailAttribution(
    @JsonProperty("share_sampled") double shareSampled,
    @JsonProperty("sampled") int sampled,
    @JsonProperty("without_shards_info") long withoutShardsInfo,
    @JsonProperty("tail") int tail,
    @JsonProperty("tail_threshold_ms") double tailThresholdMs,
    @JsonProperty("tail_explained") double tailExplained,
    @JsonProperty("replicas") List<Replica> replicas,
    @JsonProperty("groups") List<Group> groups,
    @JsonProperty("coordinators") List<Coordinator> coordinators) {

  public TailAttribution {
    coordinators = coordinators == null ? List.of() : List.copyOf(coordinators);
  }

  public static final String FILE = "attribution.json";

  /** One replica: its core URL, its node and host once known, and its part in the tail. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Replica(
      @JsonProperty("replica") String replica,
      @JsonProperty("node") String node,
      @JsonProperty("host") String host,
      @JsonProperty("slowest_in_tail") int slowestInTail,
      @JsonProperty("share") double share,
      @JsonProperty("answers") int answers,
      @JsonProperty("shard_ms_p50") long shardMsP50,
      @JsonProperty("shard_ms_p99") long shardMsP99) {}

  /** A node the tail's requests were sent to: its base URL, node and host once known, and count. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Coordinator(
      @JsonProperty("url") String url,
      @JsonProperty("node") String node,
      @JsonProperty("host") String host,
      @JsonProperty("in_tail") int inTail,
      @JsonProperty("share") double share) {}

  /** The tail's slowest shards by a grouping of the replicas: by host, or by a label's value. */
  public record Group(
      @JsonProperty("by") String by,
      @JsonProperty("value") String value,
      @JsonProperty("slowest_in_tail") int slowestInTail,
      @JsonProperty("share") double share) {}

  /**
   * The same, each replica given its node and host ({@code nodeOf}: the core URL's base URL -> node
   * id; {@code hostOf} and {@code labelsOf} by node id), and grouped by host and by label.
   */
  public TailAttribution known(
      Function<String, String> nodeOf,
      Function<String, String> hostOf,
      Function<String, Map<String, String>> labelsOf) {
    List<Replica> named = new ArrayList<>();
    Map<String, Integer> byHost = new LinkedHashMap<>();
    Map<String, Integer> byLabel = new LinkedHashMap<>();
    for (Replica r : replicas) {
      String node = nodeOf.apply(r.replica());
      String host = node == null ? null : hostOf.apply(node);
      named.add(
          new Replica(
              r.replica(),
              node,
              host,
              r.slowestInTail(),
              r.share(),
              r.answers(),
              r.shardMsP50(),
              r.shardMsP99()));
      if (host != null) {
        byHost.merge(host, r.slowestInTail(), Integer::sum);
      }
      if (node != null) {
        labelsOf
            .apply(node)
            .forEach((k, v) -> byLabel.merge(k + "=" + v, r.slowestInTail(), Integer::sum));
      }
    }
    List<Group> groups = new ArrayList<>();
    byHost.forEach(
        (h, n) -> groups.add(new Group("host", h, n, tail == 0 ? 0 : (double) n / tail)));
    byLabel.forEach(
        (l, n) -> groups.add(new Group("label", l, n, tail == 0 ? 0 : (double) n / tail)));
    groups.sort((a, b) -> Integer.compare(b.slowestInTail(), a.slowestInTail()));
    List<Coordinator> namedCoordinators = new ArrayList<>();
    for (Coordinator c : coordinators) {
      // nodeOf knows a node by its base URL followed by a path, as in a core's URL
      String node = nodeOf.apply(c.url() + "/");
      namedCoordinators.add(
          new Coordinator(
              c.url(), node, node == null ? null : hostOf.apply(node), c.inTail(), c.share()));
    }
    return new TailAttribution(
        shareSampled,
        sampled,
        withoutShardsInfo,
        tail,
        tailThresholdMs,
        tailExplained,
        named,
        groups,
        namedCoordinators);
  }

  /**
   * Every line for the terminal: {@link #describe}, each group that held part of the tail, and the
   * tail's most frequent coordinator.
   */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(describe());
    for (Group g : groups) {
      if (g.slowestInTail() > 0) {
        out.add(
            String.format(
                Locale.ROOT,
                "  by %s %s: %.0f%% of the tail (%d)",
                g.by(),
                g.value(),
                g.share() * 100,
                g.slowestInTail()));
      }
    }
    if (describeCoordinator() != null) {
      out.add(describeCoordinator());
    }
    return out;
  }

  /** The line for the tail's most frequent coordinator, or null when none was recorded. */
  public String describeCoordinator() {
    if (coordinators.isEmpty()) {
      return null;
    }
    Coordinator c = coordinators.get(0);
    return String.format(
        Locale.ROOT,
        "  sent to %s%s: %.0f%% of the tail (%d)%s",
        c.node() != null ? c.node() : c.url(),
        c.host() != null ? " on " + c.host() : "",
        c.share() * 100,
        c.inTail(),
        coordinators.size() == 1 ? "" : ", of " + coordinators.size() + " coordinators");
  }

  /** One line for the terminal: who held the tail back, and how sure that is. */
  public String describe() {
    if (sampled == 0 || replicas.isEmpty()) {
      return String.format(
          Locale.ROOT,
          "tail attribution: no sampled answer held shards.info (%d without it): a"
              + " single-shard collection answers without distributing",
          withoutShardsInfo);
    }
    Replica top = replicas.get(0);
    return String.format(
        Locale.ROOT,
        "tail attribution: %s%s was the slowest shard's replica in %.0f%% of the slowest 1%% of"
            + " %d sampled requests (%d of %d, at least %.1f ms; their slowest shards took %.0f%% of"
            + " their time%s)",
        top.node() != null ? top.node() + " (" + top.replica() + ")" : top.replica(),
        top.host() != null ? " on " + top.host() : "",
        top.share() * 100,
        sampled,
        top.slowestInTail(),
        tail,
        tailThresholdMs,
        tailExplained * 100,
        tailExplained < 0.5
            ? ": most of it went outside the shards' first phase, where shards.info names no"
                + " replica"
            : "");
  }
}
