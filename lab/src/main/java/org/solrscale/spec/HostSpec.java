package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A machine reached over SSH that may run cluster nodes: its SSH target ({@code user@host} or a
 * name from the user's ssh config), optional SSH port, labels its nodes get (e.g. {@code dc}), the
 * roles it may take, and optionally the address nodes bind to, a Java home and a working directory
 * there. In YAML either a plain target ({@code - lab-h1}) or a map. A host may also limit what the
 * cluster's nodes on it get together, like a smaller machine: a CPU share ({@code cpus}, e.g. 0.5),
 * cores to pin them to ({@code cores}, e.g. {@code 0} or {@code 0-1}) and memory counting the page
 * cache ({@code memory}, e.g. 2g), through cgroups there (which needs root on the host).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HostSpec(
    @JsonProperty("ssh") String ssh,
    @JsonProperty("port") Integer port,
    @JsonProperty("address") String address,
    @JsonProperty("labels") Map<String, String> labels,
    @JsonProperty("roles") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        List<String> roles,
    @JsonProperty("java_home") String javaHome,
    @JsonProperty("dir") String dir,
    @JsonProperty("cpus") Double cpus,
    @JsonProperty("cores") String cores,
    @JsonProperty("memory") String memory) {

  /** The roles a host may take. */
  public static final List<String> ROLES = List.of("zk", "solr", "driver");

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public HostSpec {
    labels = labels == null ? Map.of() : Map.copyOf(new TreeMap<>(labels));
    roles = roles == null ? ROLES : List.copyOf(roles);
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static HostSpec of(String ssh) {
    return new HostSpec(ssh, null, null, null, null, null, null, null, null, null);
  }

  public boolean may(String role) {
    return roles.contains(role);
  }

  /** The memory limit in bytes, or -1 for none. */
  public long memoryBytes() {
    return memory == null ? -1 : Sizes.bytes(memory);
  }

  /** Whether the host limits its nodes' CPU, cores or memory. */
  public boolean limited() {
    return cpus != null || cores != null || memory != null;
  }

  /** The limits as people write them, e.g. "cpus 0.5, cores 0-1, memory 2g"; null for none. */
  public String limitsText() {
    List<String> parts = new ArrayList<>();
    if (cpus != null) {
      parts.add("cpus " + cpus);
    }
    if (cores != null) {
      parts.add("cores " + cores);
    }
    if (memory != null) {
      parts.add("memory " + memory);
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }
}
