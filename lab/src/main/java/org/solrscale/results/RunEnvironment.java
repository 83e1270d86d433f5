package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * environment.json: what a run ran on, so that two runs can be told apart later. Written by the
 * scenario runner, read back with this record by the report.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunEnvironment(
    @JsonProperty("cpu_model") String cpuModel,
    @JsonProperty("cores") int cores,
    @JsonProperty("memory_bytes") long memoryBytes,
    @JsonProperty("os") String os,
    @JsonProperty("kernel") String kernel,
    @JsonProperty("java") String java,
    @JsonProperty("solr_version") String solrVersion,
    @JsonProperty("solrscale_version") String solrscaleVersion,
    @JsonProperty("git_revision") String gitRevision,
    @JsonProperty("nodes") List<Node> nodes,
    @JsonProperty("hosts") List<Host> hosts) {

  public RunEnvironment {
    nodes = nodes == null ? List.of() : nodes; // hosts stays null when absent (older files)
  }

  /** A host the cluster's nodes ran on over SSH, and what it is (its facts as the host told). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Host(
      @JsonProperty("ssh") String ssh,
      @JsonProperty("address") String address,
      @JsonProperty("nodes") List<String> nodes,
      @JsonProperty("facts") JsonNode facts) {}

  /** One node of the cluster and the command line it ran with. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Node(
      @JsonProperty("id") String id,
      @JsonProperty("role") String role,
      @JsonProperty("host") String host,
      @JsonProperty("jvm_args") List<String> jvmArgs) {

    public Node {
      jvmArgs = jvmArgs == null ? List.of() : jvmArgs;
    }
  }
}
