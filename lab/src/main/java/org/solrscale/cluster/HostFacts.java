package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a host is, for telling two runs apart: CPU model, cores, memory, OS and kernel, and for a
 * host reached over SSH the Java its nodes run on and its clock's offset to this machine's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HostFacts(
    @JsonProperty("cpu_model") String cpuModel,
    @JsonProperty("cores") int cores,
    @JsonProperty("memory_bytes") long memoryBytes,
    @JsonProperty("os") String os,
    @JsonProperty("kernel") String kernel,
    @JsonProperty("java") String java,
    @JsonProperty("clock_offset_ms") Long clockOffsetMs) {

  public HostFacts(String cpuModel, int cores, long memoryBytes, String os, String kernel) {
    this(cpuModel, cores, memoryBytes, os, kernel, null, null);
  }
}
