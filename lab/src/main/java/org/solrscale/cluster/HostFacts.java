package org.solrscale.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

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

  /** The facts of the machine solrscale runs on. */
  public static HostFacts thisMachine() {
    return new HostFacts(
        cpuName(),
        Runtime.getRuntime().availableProcessors(),
        memoryTotal(),
        osName(),
        System.getProperty("os.version"));
  }

  private static String cpuName() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).strip())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long memoryTotal() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return -1;
  }

  private static String osName() {
    try {
      return Files.readAllLines(Path.of("/etc/os-release")).stream()
          .filter(l -> l.startsWith("PRETTY_NAME="))
          .map(l -> l.substring(12).replace("\"", ""))
          .findFirst()
          .orElse(System.getProperty("os.name"));
    } catch (IOException e) {
      return System.getProperty("os.name");
    }
  }
}
