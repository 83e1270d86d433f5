package org.solrscale.net;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A lab network as it is now: what its state records, checked against the machine.
 *
 * @param sshConfig the file to give ssh -F to reach its hosts by name
 */
public record NetStatus(
    @JsonProperty("name") String name,
    @JsonProperty("subnet") String subnet,
    @JsonProperty("bridge") String bridge,
    @JsonProperty("bridge_present") boolean bridgePresent,
    @JsonProperty("bandwidth") String bandwidth,
    @JsonProperty("ssh_config") String sshConfig,
    @JsonProperty("hosts") List<HostStatus> hosts) {

  /**
   * One host as it is now.
   *
   * @param bandwidth the cap on the root side of its link (what it receives) as tc reports it, e.g.
   *     50mbit, or null when uncapped
   * @param limits what its cgroups allow, e.g. "cpus 0.5, memory 512m", or null for no limits
   */
  public record HostStatus(
      @JsonProperty("name") String name,
      @JsonProperty("address") String address,
      @JsonProperty("namespace") String namespace,
      @JsonProperty("namespace_present") boolean namespacePresent,
      @JsonProperty("sshd_pid") long sshdPid,
      @JsonProperty("sshd_alive") boolean sshdAlive,
      @JsonProperty("bandwidth") String bandwidth,
      @JsonProperty("limits") String limits) {}

  /** Whether every piece is there and every sshd runs. */
  public boolean healthy() {
    return bridgePresent && hosts.stream().allMatch(h -> h.namespacePresent() && h.sshdAlive());
  }
}
