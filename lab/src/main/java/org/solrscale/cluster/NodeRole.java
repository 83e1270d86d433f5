package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a node process is. */
public enum NodeRole {
  SOLR("solr"),
  ZK("zk");

  private final String label;

  NodeRole(String label) {
    this.label = label;
  }

  @JsonValue
  public String label() {
    return label;
  }
}
