package org.solrscale.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;

/** A lab network's names, addresses and the one-line refusals of bad ones. */
class NetPlanTest {
  static final SolrscaleHome HOME = new SolrscaleHome(Path.of("/srv/solrscale"));

  @Test
  void namesAndAddressesFollowTheNetsNameAndSubnet() {
    NetState net = NetPlan.plan(HOME, "lab", 2, 7, LinkRate.parse("100mbit"));
    assertThat(net.subnet()).isEqualTo("10.201.7.0/24");
    assertThat(net.bridge()).isEqualTo("sb-lab");
    assertThat(net.bridgeAddress()).isEqualTo("10.201.7.1");
    assertThat(net.bandwidth()).isEqualTo("100mbit");
    assertThat(net.hosts())
        .containsExactly(
            new NetHost(
                "lab-h1",
                "10.201.7.2",
                "solrscale-lab-h1",
                "sv-lab-1",
                0,
                "/srv/solrscale/nets/lab/hosts/lab-h1"),
            new NetHost(
                "lab-h2",
                "10.201.7.3",
                "solrscale-lab-h2",
                "sv-lab-2",
                0,
                "/srv/solrscale/nets/lab/hosts/lab-h2"));
    assertThat(NetPlan.plan(HOME, "lab", 1, 0, null).bandwidth()).isNull();
  }

  @Test
  void theLongestNamesFitLinuxsInterfaceNames() {
    NetState net = NetPlan.plan(HOME, "abcdefgh", NetPlan.MAX_HOSTS, 255, null);
    assertThat(net.bridge()).hasSizeLessThanOrEqualTo(15);
    assertThat(net.hosts()).allMatch(h -> h.veth().length() <= 15);
    assertThat(net.hosts().get(49).veth()).isEqualTo("sv-abcdefgh-50");
    assertThat(net.hosts().get(49).address()).isEqualTo("10.201.255.51");
  }

  @Test
  void badNamesAndSizesAreUsageErrorsSayingWhatToGive() {
    for (String bad : new String[] {"", "Lab", "1lab", "lab-1", "abcdefghi", "la b"}) {
      assertThatThrownBy(() -> NetPlan.checkName(bad))
          .isInstanceOf(SolrscaleException.class)
          .hasMessageContaining("give 1 to 8 lowercase letters or digits")
          .satisfies(
              e -> assertThat(((SolrscaleException) e).exitCode()).isEqualTo(ExitCode.USAGE));
    }
    NetPlan.checkName("a");
    NetPlan.checkName("lab2");
    for (int bad : new int[] {0, -1, 51}) {
      assertThatThrownBy(() -> NetPlan.checkHosts(bad))
          .hasMessage("a lab network has 1 to 50 hosts, not " + bad + "; give --hosts N");
    }
  }

  @Test
  void aBusyNetNamesTheClusterOnItsHostsAndWhatElseRuns() {
    Map<Long, String> cmdlines =
        Map.of(
            11L, "java -Xmx1g -Dsolrscale.node=big/solr1 -cp x org.solrscale.node.SolrNode",
            12L, "java -Dsolrscale.node=big/zk1 org.apache.zookeeper.server.quorum.QuorumPeerMain",
            13L, "/usr/bin/sleep 600");
    String line =
        NetDown.busy(
            "lab", Map.of("lab-h1", List.of(11L, 12L)), pid -> cmdlines.getOrDefault(pid, ""));
    assertThat(line)
        .isEqualTo(
            "solrscale cluster big still runs on lab-h1 (pids 11, 12); run: solrscale down --name"
                + " big, then run solrscale net down --name lab again");
    assertThat(NetDown.busy("lab", Map.of("lab-h2", List.of(13L)), pid -> cmdlines.get(pid)))
        .isEqualTo(
            "processes still run on lab-h2 (13 sleep); stop them first, then run solrscale net"
                + " down --name lab again");
  }
}
