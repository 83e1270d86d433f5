package org.solrscale.net;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.solrscale.spec.SolrscaleException;

/**
 * A lab network as recorded in $SOLRSCALE_HOME/nets/NAME/net.json: its subnet, bridge, optional
 * bandwidth cap and hosts. Everything in it is a name solrscale gave and may remove.
 *
 * @param subnet e.g. 10.201.0.0/24
 * @param bridgeAddress the bridge's address, the hosts' default route, e.g. 10.201.0.1
 * @param bandwidth every host's link cap as tc writes it (e.g. 100mbit), or null for none
 * @param labels host name -> labels given with {@code --label}, for link profiles
 * @param links the link profiles ({@code --link}) in place
 * @param bastion the host through which ssh reaches every other host ({@code --bastion}), as a
 *     fleet behind a jump host, or null for none
 * @param maxStartups the hosts' sshd {@code MaxStartups} ({@code --max-startups}), or null for
 *     sshd's default (10:30:100)
 */
public record NetState(
    @JsonProperty("name") String name,
    @JsonProperty("subnet") String subnet,
    @JsonProperty("bridge") String bridge,
    @JsonProperty("bridge_address") String bridgeAddress,
    @JsonProperty("bandwidth") String bandwidth,
    @JsonProperty("hosts") List<NetHost> hosts,
    @JsonProperty("cpus") Double cpus,
    @JsonProperty("memory") String memory,
    @JsonProperty("cores") Integer cores,
    @JsonProperty("labels") Map<String, Map<String, String>> labels,
    @JsonProperty("links") List<NetLink> links,
    @JsonProperty("bastion") String bastion,
    @JsonProperty("max_startups") String maxStartups) {

  public NetState {
    hosts = List.copyOf(hosts);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    links = links == null ? List.of() : List.copyOf(links);
  }

  /** A net without labels or link profiles. */
  public NetState(
      String name,
      String subnet,
      String bridge,
      String bridgeAddress,
      String bandwidth,
      List<NetHost> hosts,
      Double cpus,
      String memory,
      Integer cores) {
    this(
        name,
        subnet,
        bridge,
        bridgeAddress,
        bandwidth,
        hosts,
        cpus,
        memory,
        cores,
        null,
        null,
        null,
        null);
  }

  /** This state with these labels and link profiles. */
  NetState withLinks(Map<String, Map<String, String>> newLabels, List<NetLink> newLinks) {
    return new NetState(
        name,
        subnet,
        bridge,
        bridgeAddress,
        bandwidth,
        hosts,
        cpus,
        memory,
        cores,
        newLabels,
        newLinks,
        bastion,
        maxStartups);
  }

  /** This state with this bastion and sshd MaxStartups (null: none, sshd's default). */
  NetState withSshd(String newBastion, String newMaxStartups) {
    return new NetState(
        name,
        subnet,
        bridge,
        bridgeAddress,
        bandwidth,
        hosts,
        cpus,
        memory,
        cores,
        labels,
        links,
        newBastion,
        newMaxStartups);
  }

  /** Each host's CPU share, cores and memory limit (cgroups), or null for none. */
  Cgroups.Limits limits() {
    return cpus == null && memory == null && cores == null
        ? null
        : new Cgroups.Limits(cpus, cores, memory);
  }

  public Optional<NetHost> find(String hostName) {
    return hosts.stream().filter(h -> h.name().equals(hostName)).findFirst();
  }

  /** The host of that name, or a usage error naming the hosts there are. */
  public NetHost host(String hostName) {
    return find(hostName)
        .orElseThrow(
            () ->
                SolrscaleException.usage(
                    "lab network "
                        + name
                        + " has no host '"
                        + hostName
                        + "'; its hosts are "
                        + hosts.stream().map(NetHost::name).collect(Collectors.joining(", "))));
  }

  /** This state with {@code changed} in place of the host of the same name. */
  public NetState with(NetHost changed) {
    return new NetState(
        name,
        subnet,
        bridge,
        bridgeAddress,
        bandwidth,
        hosts.stream().map(h -> h.name().equals(changed.name()) ? changed : h).toList(),
        cpus,
        memory,
        cores,
        labels,
        links,
        bastion,
        maxStartups);
  }
}
