package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Locale;
import org.solrscale.spec.Slowness;

/**
 * A slow link as a fault record holds it: the slowed hosts and their peers, how slow it was asked
 * to be (one way, and what that adds to a round trip), and what an independent probe measured
 * across it while it held.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LinkFault(
    @JsonProperty("hosts") List<String> hosts,
    @JsonProperty("peers") List<String> peers,
    @JsonProperty("asked") String asked,
    @JsonProperty("delay_ms") double delayMs,
    @JsonProperty("jitter_ms") double jitterMs,
    @JsonProperty("distribution") String distribution,
    @JsonProperty("loss") double loss,
    @JsonProperty("direction") String direction,
    @JsonProperty("round_trip_ms_added") double roundTripMsAdded,
    @JsonProperty("round_trip_loss") double roundTripLoss,
    @JsonProperty("probe") LinkProbe probe) {

  public static LinkFault of(List<String> hosts, List<String> peers, Slowness s, LinkProbe probe) {
    return new LinkFault(
        hosts,
        peers,
        s.describe(),
        s.delayMs(),
        s.jitterMs(),
        s.jitterMs() > 0 ? s.distribution().id() : null,
        s.loss(),
        s.direction().id(),
        s.roundTripMs(),
        s.roundTripLoss(),
        probe);
  }

  /**
   * One line: asked, then measured (the UDP echo's median and spread, the loss and its interval).
   */
  public String describe() {
    if (probe == null || probe.udpRttMsP50() == null) {
      return asked + "; not measured";
    }
    double[] ci = probe.roundTripLossInterval();
    return String.format(
        Locale.ROOT,
        "%s; measured %s -> %s: round trip p50 %.1f ms (stdev %.1f), connect p50 %s ms, %.2f%% of"
            + " round trips lost [%.2f-%.2f%%]",
        asked,
        probe.from(),
        probe.to(),
        probe.udpRttMsP50(),
        probe.udpRttMsStdev() == null ? 0 : probe.udpRttMsStdev(),
        probe.connectMsP50() == null
            ? "-"
            : String.format(Locale.ROOT, "%.1f", probe.connectMsP50()),
        probe.roundTripLoss() * 100,
        ci[0] * 100,
        ci[1] * 100);
  }
}
