package org.solrscale.cluster;

import java.util.List;
import org.solrscale.spec.Slowness;

/**
 * A slow link in place: its id (which names its iptables chains and its record on each host), the
 * slowed hosts, the peers on the link's other side, how slow, and each slowed host's delayer.
 */
public record SlowLink(
    String id, List<String> hosts, List<String> peers, Slowness slowness, List<Delayer> delayers) {

  /** One slowed host's delayer: its pid, queue, and the echo a probe measures across the link. */
  public record Delayer(String host, long pid, int queue, String echo, int tcpPort, int udpPort) {}
}
