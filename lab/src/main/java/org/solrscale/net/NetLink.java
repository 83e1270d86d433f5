package org.solrscale.net;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A lab network's link profile as net.json records it: what the user wrote, the hosts slowed (the
 * first side) and their peers, how slow in words, the id naming its chains (sslow-ID-o, -i) and
 * marker, and each slowed host's delayer.
 */
public record NetLink(
    @JsonProperty("link") String link,
    @JsonProperty("hosts") List<String> hosts,
    @JsonProperty("peers") List<String> peers,
    @JsonProperty("slowness") String slowness,
    @JsonProperty("id") String id,
    @JsonProperty("delayers") List<Delayer> delayers) {

  /** A slowed host's delayer: its pid and netfilter queue. */
  public record Delayer(
      @JsonProperty("host") String host,
      @JsonProperty("pid") long pid,
      @JsonProperty("queue") int queue) {}
}
