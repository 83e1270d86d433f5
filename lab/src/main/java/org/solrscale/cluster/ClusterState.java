package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.SolrscaleException;

/** What solrscale knows about one cluster: the spec it was made from and every node it started. */
public record ClusterState(
    @JsonProperty("name") String name,
    @JsonProperty("spec") ClusterSpec spec,
    @JsonProperty("jdk_home") String jdkHome,
    @JsonProperty("nodes") List<NodeState> nodes) {

  public ClusterState {
    nodes = List.copyOf(nodes);
  }

  @JsonIgnore
  public List<NodeState> solrNodes() {
    return nodes.stream().filter(NodeState::isSolr).toList();
  }

  @JsonIgnore
  public List<NodeState> zkNodes() {
    return nodes.stream().filter(NodeState::isZk).toList();
  }

  /** The ZooKeeper connection string, e.g. 127.0.0.1:2181,127.0.0.1:2182. */
  @JsonIgnore
  public String zkHost() {
    return zkNodes().stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.joining(","));
  }

  public Optional<NodeState> find(String id) {
    return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
  }

  public NodeState node(String id) {
    return find(id)
        .orElseThrow(
            () ->
                SolrscaleException.usage(
                    "cluster '"
                        + name
                        + "' has no node '"
                        + id
                        + "'; its nodes are "
                        + nodes.stream().map(NodeState::id).collect(Collectors.joining(", "))));
  }

  public ClusterState with(NodeState changed) {
    List<NodeState> updated = new ArrayList<>();
    boolean replaced = false;
    for (NodeState n : nodes) {
      if (n.id().equals(changed.id())) {
        updated.add(changed);
        replaced = true;
      } else {
        updated.add(n);
      }
    }
    if (!replaced) {
      updated.add(changed);
    }
    return new ClusterState(name, spec, jdkHome, updated);
  }

  public ClusterState without(String id) {
    return new ClusterState(
        name, spec, jdkHome, nodes.stream().filter(n -> !n.id().equals(id)).toList());
  }

  public ClusterState withSpec(ClusterSpec newSpec) {
    return new ClusterState(name, newSpec, jdkHome, nodes);
  }
}
