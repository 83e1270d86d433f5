package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * One Solr or ZooKeeper process as recorded in the cluster state: where it listens, the pid
 * solrscale started it as (0 when solrscale believes it is not running) and, for a node on a host
 * reached over SSH, that host's SSH target ({@code ssh}; null on this machine).
 */
public record NodeState(
    @JsonProperty("id") String id,
    @JsonProperty("role") NodeRole role,
    @JsonProperty("host") String host,
    @JsonProperty("port") int port,
    @JsonProperty("peer_port") int peerPort,
    @JsonProperty("election_port") int electionPort,
    @JsonProperty("pid") long pid,
    @JsonProperty("heap") String heap,
    @JsonProperty("labels") Map<String, String> labels,
    @JsonProperty("ssh") @JsonInclude(JsonInclude.Include.NON_NULL) String ssh,
    @JsonProperty("scheme") @JsonInclude(JsonInclude.Include.NON_NULL) String scheme) {

  @JsonCreator
  public NodeState {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  /** A node on this machine. */
  public NodeState(
      String id,
      NodeRole role,
      String host,
      int port,
      int peerPort,
      int electionPort,
      long pid,
      String heap,
      Map<String, String> labels) {
    this(id, role, host, port, peerPort, electionPort, pid, heap, labels, null, null);
  }

  /** This node, reached with {@code newScheme} (https for a cluster with TLS; null: http). */
  public NodeState withScheme(String newScheme) {
    return new NodeState(
        id, role, host, port, peerPort, electionPort, pid, heap, labels, ssh, newScheme);
  }

  public NodeState withPid(long newPid) {
    return new NodeState(
        id, role, host, port, peerPort, electionPort, newPid, heap, labels, ssh, scheme);
  }

  /** Whether the node runs on a host reached over SSH. */
  public boolean remote() {
    return ssh != null;
  }

  /** Where the node runs, for people: its SSH host, or "local". */
  public String where() {
    return ssh == null ? "local" : ssh;
  }

  /** Solr's name for this node in live_nodes and replica state, e.g. 127.0.0.1:8983_solr. */
  public String solrNodeName() {
    return host + ":" + port + "_solr";
  }

  public String baseUrl() {
    return (scheme == null ? "http" : scheme) + "://" + host + ":" + port + "/solr";
  }

  /** The ZooKeeper server number (myid) of a zk node: zk3 -> 3. */
  public int zkServerId() {
    return Integer.parseInt(id.substring(2));
  }

  public boolean isSolr() {
    return role == NodeRole.SOLR;
  }

  public boolean isZk() {
    return role == NodeRole.ZK;
  }
}
