package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a host is, for telling two runs apart: CPU model, cores, memory, OS and kernel, and for a
 * host reached over SSH the Java its nodes run on, its clock's offset to this machine's and the
 * cgroup limits its nodes run under (a lab host's, then the cluster's own on that host).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HostFacts(
    @JsonProperty("cpu_model") String cpuModel,
    @JsonProperty("cores") int cores,
    @JsonProperty("memory_bytes") long memoryBytes,
    @JsonProperty("os") String os,
    @JsonProperty("kernel") String kernel,
    @JsonProperty("java") String java,
    @JsonProperty("clock_offset_ms") Long clockOffsetMs,
    @JsonProperty("limits") String limits) {

  public HostFacts(String cpuModel, int cores, long memoryBytes, String os, String kernel) {
    this(cpuModel, cores, memoryBytes, os, kernel, null, null, null);
  }

  /** The same with {@code more} limits (e.g. the cluster's cgroup on the host) added. */
  public HostFacts limitedBy(String more) {
    if (more == null) {
      return this;
    }
    String all = limits == null ? more : limits + "; " + more;
    return new HostFacts(cpuModel, cores, memoryBytes, os, kernel, java, clockOffsetMs, all);
  }
}
