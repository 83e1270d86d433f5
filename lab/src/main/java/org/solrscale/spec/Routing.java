package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where a bench sends its requests, as written ({@code cloud}, {@code round-robin}, {@code node:ID}
 * or {@code node:URL}): parsed once here, for the flag, the step and the remote drivers.
 */
public record Routing(Mode mode, String node) {
  /** The kinds of routing. */
  public enum Mode {
    /** Spread over the live nodes, skipping one that refuses connections. */
    CLOUD,
    /** Thread (slot) i to node i mod N, whatever happens to it. */
    ROUND_ROBIN,
    /** One node, named by solrscale's id or by its base URL. */
    NODE
  }

  /** The default: spread over the live nodes. */
  public static final Routing CLOUD = new Routing(Mode.CLOUD, null);

  /** The routing as written, or IllegalArgumentException with the step's one-line reason. */
  @JsonCreator
  public static Routing parse(String value) {
    if (value == null || value.equals("cloud")) {
      return CLOUD;
    }
    if (value.equals("round-robin")) {
      return new Routing(Mode.ROUND_ROBIN, null);
    }
    if (value.startsWith("node:")) {
      return new Routing(Mode.NODE, value.substring(5));
    }
    throw new IllegalArgumentException(
        "routing '" + value + "' is not cloud, round-robin or node:ID");
  }

  /** One node, by id or by base URL. */
  public static Routing node(String idOrUrl) {
    return new Routing(Mode.NODE, idOrUrl);
  }

  /**
   * True for node:URL, which names a node of any SolrCloud (node:ID only one solrscale started).
   */
  public boolean byUrl() {
    return mode == Mode.NODE && node.startsWith("http");
  }

  /** The routing as a user writes it. */
  @JsonValue
  @Override
  public String toString() {
    return switch (mode) {
      case CLOUD -> "cloud";
      case ROUND_ROBIN -> "round-robin";
      case NODE -> "node:" + node;
    };
  }
}
