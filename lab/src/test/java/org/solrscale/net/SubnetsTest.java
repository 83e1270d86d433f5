package org.solrscale.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The subnet of a new net: free of other nets and of every route of the machine. */
class SubnetsTest {

  @Test
  void theFirstSubnetNoNetAndNoRouteUses() {
    List<String> routes =
        List.of(
            "default via 192.0.2.1 dev eth0",
            "10.201.0.0/24 dev sb-dev proto kernel scope link src 10.201.0.1",
            "192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2",
            "local 10.201.1.7 dev lo table local proto kernel scope host src 10.201.1.7",
            "broadcast 127.255.255.255 dev lo table local proto kernel scope link src 127.0.0.1");
    // 0: a route of another net; 1: a local address inside it; 2: another net of this home
    assertThat(Subnets.choose(Set.of(2), routes)).isEqualTo(3);
    assertThat(Subnets.choose(Set.of(), List.of("default via 192.0.2.1 dev eth0"))).isZero();
  }

  @Test
  void aWiderRouteCoversManySubnetsAndANarrowerOneItsOwn() {
    assertThat(Subnets.choose(Set.of(), List.of("10.201.0.0/20 via 192.0.2.9 dev eth0")))
        .isEqualTo(16);
    assertThat(Subnets.choose(Set.of(), List.of("10.201.0.128/25 dev wg0 table 51820")))
        .isEqualTo(1);
  }

  @Test
  void noneFreeIsAnEnvironmentErrorSayingWhatToDo() {
    List<String> all = new ArrayList<>(List.of("10.201.0.0/17 dev x"));
    assertThatThrownBy(() -> Subnets.choose(Set.of(128, 129), List.of("10.0.0.0/8 dev x")))
        .hasMessageContaining("no free subnet 10.201.K.0/24")
        .hasMessageContaining("solrscale net down --name NET");
    all.add("10.201.128.0/17 dev y");
    assertThatThrownBy(() -> Subnets.choose(Set.of(), all)).hasMessageContaining("no free subnet");
  }

  @Test
  void overlapIsContainmentEitherWay() {
    long a = (10L << 24) | (201L << 16) | (5L << 8);
    assertThat(Subnets.overlaps(a, 24, a + 77, 32)).isTrue();
    assertThat(Subnets.overlaps(a, 24, a - 256, 24)).isFalse();
    assertThat(Subnets.overlaps(a, 24, 10L << 24, 8)).isTrue();
    assertThat(Subnets.k("10.201.9.0/24")).isEqualTo(9);
    assertThat(Subnets.k("10.9.9.0/24")).isEqualTo(-1);
  }
}
