package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.ClusterSpec;

class PortsTest {

  @Test
  void aBoundPortIsSkippedAndNamedWithItsPid() throws Exception {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      int port = s.getLocalPort();
      Ports ports = new Ports("127.0.0.1", List.of());
      assertThat(ports.next(port)).isGreaterThan(port);
      assertThatThrownBy(() -> new Ports("127.0.0.1", List.of()).exactly(port, "--base-port"))
          .hasMessage(
              "port "
                  + port
                  + " is in use by pid "
                  + ProcessHandle.current().pid()
                  + "; pick another with --base-port");
    }
  }

  @Test
  void portsOfOtherClustersAreNeverHandedOut() {
    int free = new Ports("127.0.0.1", List.of()).next(20000);
    ClusterSpec spec = ClusterSpec.local("other", null, null, null, null, null, null, null);
    ClusterState other =
        new ClusterState(
            "other",
            spec,
            "/jdk",
            List.of(
                new NodeState(
                    "solr1", NodeRole.SOLR, "127.0.0.1", free, 0, 0, 0, "512m", Map.of())));
    Ports ports = new Ports("127.0.0.1", List.of(other));
    assertThat(ports.next(free)).isGreaterThan(free);
    assertThatThrownBy(() -> ports.exactly(free, "--base-port"))
        .hasMessageContaining("belongs to another solrscale cluster");
  }
}
