package org.solrscale.net;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One host of a lab network: a network namespace on the bridge with its own address and sshd.
 *
 * @param name the name ssh knows it by, e.g. lab-h1
 * @param address its IPv4 address, e.g. 10.201.0.2
 * @param namespace the network namespace, e.g. solrscale-lab-h1
 * @param veth the root-side end of its link, on the bridge (its peer is eth0 in the namespace)
 * @param sshdPid the pid of its sshd (0 before it was started)
 * @param dir its own working directory on this machine (absolute), also $SOLRSCALE_HOST_DIR in
 *     every ssh session on it
 */
public record NetHost(
    @JsonProperty("name") String name,
    @JsonProperty("address") String address,
    @JsonProperty("namespace") String namespace,
    @JsonProperty("veth") String veth,
    @JsonProperty("sshd_pid") long sshdPid,
    @JsonProperty("dir") String dir) {

  public NetHost withSshdPid(long pid) {
    return new NetHost(name, address, namespace, veth, pid, dir);
  }
}
