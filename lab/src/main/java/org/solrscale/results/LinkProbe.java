package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What an independent probe measured across a slowed link while the fault held: TCP connects and an
 * open-loop TCP echo (round trips in milliseconds), and UDP datagrams echoed (the round trips that
 * lost a packet either way). The probe runs on a host on one side and echoes from the other; it
 * reads its own clock only, never the delayer's counters.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LinkProbe(
    @JsonProperty("from") String from,
    @JsonProperty("to") String to,
    @JsonProperty("seconds") double seconds,
    @JsonProperty("connects") int connects,
    @JsonProperty("connect_ms_p50") Double connectMsP50,
    @JsonProperty("echoes") int echoes,
    @JsonProperty("rtt_ms_p10") Double rttMsP10,
    @JsonProperty("rtt_ms_p50") Double rttMsP50,
    @JsonProperty("rtt_ms_p90") Double rttMsP90,
    @JsonProperty("rtt_ms_p99") Double rttMsP99,
    @JsonProperty("rtt_ms_stdev") Double rttMsStdev,
    @JsonProperty("datagrams_sent") int datagramsSent,
    @JsonProperty("datagrams_back") int datagramsBack,
    @JsonProperty("udp_rtt_ms_p50") Double udpRttMsP50,
    @JsonProperty("udp_rtt_ms_p90") Double udpRttMsP90,
    @JsonProperty("udp_rtt_ms_p99") Double udpRttMsP99,
    @JsonProperty("udp_rtt_ms_stdev") Double udpRttMsStdev) {

  /** The share of datagrams that did not come back (a loss either way). */
  public double roundTripLoss() {
    return datagramsSent == 0 ? 0 : 1 - (double) datagramsBack / datagramsSent;
  }

  /**
   * The 95 % Wilson interval of the round-trip loss, {low, high}: how sure the datagram count is.
   */
  public double[] roundTripLossInterval() {
    int n = datagramsSent;
    if (n == 0) {
      return new double[] {0, 1};
    }
    double p = roundTripLoss();
    double z = 1.96;
    double d = 1 + z * z / n;
    double c = (p + z * z / (2 * n)) / d;
    double h = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
    return new double[] {Math.max(0, c - h), Math.min(1, c + h)};
  }
}
