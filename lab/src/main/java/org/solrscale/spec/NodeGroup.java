package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Some Solr nodes that share labels (e.g. {@code dc: east}) and optionally a heap. In YAML either a
 * plain count ({@code nodes: 4}) or a list of groups ({@code - count: 2, labels: {dc: east}}).
 */
public record NodeGroup(
    @JsonProperty("count") int count,
    @JsonProperty("labels") Map<String, String> labels,
    @JsonProperty("heap") String heap) {

  public NodeGroup {
    labels = labels == null ? Map.of() : Map.copyOf(new TreeMap<>(labels));
  }

  /** From YAML, where a group without a count is one node. */
  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  static NodeGroup of(
      @JsonProperty("count") Integer count,
      @JsonProperty("labels") Map<String, String> labels,
      @JsonProperty("heap") String heap,
      @JsonProperty("solr_version") String solrVersion) {
    if (solrVersion != null) {
      // asked for often (a rolling upgrade, a canary node): said plainly rather than "unknown key"
      throw new IllegalArgumentException(
          "solr_version "
              + solrVersion
              + " on a node group: one cluster runs one Solr version (mixed versions are not"
              + " supported); set solr_version at the top of the spec, or compare versions with"
              + " cluster.solr_version in a scenario's matrix");
    }
    return new NodeGroup(count == null ? 1 : count, labels, heap);
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static NodeGroup ofCount(int count) {
    return new NodeGroup(count, Map.of(), null);
  }

  /** Parses labels written as {@code dc=east,rack=r1}. */
  public static Map<String, String> parseLabels(String text) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return labels;
    }
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      if (eq < 1 || eq == pair.length() - 1) {
        throw SolrscaleException.usage(
            "label '" + pair + "' is not key=value (e.g. dc=east,rack=r1)");
      }
      labels.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return labels;
  }
}
