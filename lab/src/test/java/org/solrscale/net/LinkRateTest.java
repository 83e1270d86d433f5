package org.solrscale.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Rates as tc reads them, and a tbf bucket that lets the link reach its rate. */
class LinkRateTest {

  @Test
  void ratesAreReadAsTcReadsThem() {
    assertThat(LinkRate.parse("100mbit").bitsPerSecond()).isEqualTo(100_000_000L);
    assertThat(LinkRate.parse(" 1GBit ").text()).isEqualTo("1gbit");
    assertThat(LinkRate.parse("1.5mbit").bitsPerSecond()).isEqualTo(1_500_000L);
    assertThat(LinkRate.parse("64kbit").bitsPerSecond()).isEqualTo(64_000L);
  }

  @Test
  void theBucketHoldsTenMillisecondsAndAtLeastAFewFrames() {
    assertThat(LinkRate.parse("50mbit").burstBytes()).isEqualTo(62_500);
    assertThat(LinkRate.parse("1gbit").burstBytes()).isEqualTo(1_250_000);
    assertThat(LinkRate.parse("1mbit").burstBytes()).isEqualTo(4096);
    assertThat(LinkRate.parse("50mbit").tbf())
        .containsExactly("tbf", "rate", "50mbit", "burst", "62500", "latency", "50ms");
  }

  @Test
  void whatIsNoRateIsAUsageErrorWithAnExample() {
    for (String bad : new String[] {"fast", "100", "100mb", "100mbps", "-1mbit", ""}) {
      assertThatThrownBy(() -> LinkRate.parse(bad))
          .hasMessageContaining("give a rate like 100mbit or 1gbit");
    }
    assertThatThrownBy(() -> LinkRate.parse("1kbit")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> LinkRate.parse("2tbit")).hasMessageContaining("out of range");
  }

  @Test
  void tcsReportOfATbfQdiscGivesItsRate() {
    assertThat(Ip.tbfRate("qdisc tbf 8001: root refcnt 3 rate 50Mbit burst 62500b lat 50ms \n"))
        .isEqualTo("50mbit");
    assertThat(Ip.tbfRate("qdisc noqueue 0: root refcnt 2 \n")).isNull();
    assertThat(Ip.linkNames("4: eth0: <BROADCAST> mtu 1400\n7: sv-lab-1@if2: <UP> mtu 1500\n"))
        .containsExactly("eth0", "sv-lab-1");
  }
}
