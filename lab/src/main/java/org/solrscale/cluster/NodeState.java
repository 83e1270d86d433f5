package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * One Solr or ZooKeeper process as recorded in the cluster state: where it listens and the pid
 * solrscale started it as (0 when solrscale believes it is not running).
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
    @JsonProperty("labels") Map<String, String> labels) {

  public NodeState {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  public NodeState withPid(long newPid) {
    return new NodeState(id, role, host, port, peerPort, electionPort, newPid, heap, labels);
  }

  /** Solr's name for this node in live_nodes and replica state, e.g. 127.0.0.1:8983_solr. */
  public String solrNodeName() {
    return host + ":" + port + "_solr";
  }

  public String baseUrl() {
    return "http://" + host + ":" + port + "/solr";
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
