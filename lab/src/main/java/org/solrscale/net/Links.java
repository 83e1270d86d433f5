package org.solrscale.net;

import java.util.ArrayList;
import java.util.List;

/**
 * A lab host's link cap: a tbf qdisc at both ends of its link, the root-side veth shaping what the
 * host receives and eth0 in its namespace what it sends.
 */
final class Links {
  private Links() {}

  static void cap(NetHost h, LinkRate rate) {
    Ip.tc("cap the link of " + h.name(), args(null, "replace", h.veth(), rate.tbf()));
    Ip.tc("cap the link of " + h.name(), args(h.namespace(), "replace", "eth0", rate.tbf()));
  }

  /** Removes the caps (the devices' default qdisc comes back); an uncapped end stays as it is. */
  static void uncap(NetHost h) {
    if (Ip.tbfRate(null, h.veth()) != null) {
      Ip.tc("uncap the link of " + h.name(), args(null, "del", h.veth()));
    }
    if (Ip.tbfRate(h.namespace(), "eth0") != null) {
      Ip.tc("uncap the link of " + h.name(), args(h.namespace(), "del", "eth0"));
    }
  }

  /** {@code [-n NS] qdisc OP dev DEV root [QDISC...]}. */
  private static String[] args(String ns, String op, String dev, String... qdisc) {
    List<String> a = new ArrayList<>();
    if (ns != null) {
      a.addAll(List.of("-n", ns));
    }
    a.addAll(List.of("qdisc", op, "dev", dev, "root"));
    a.addAll(List.of(qdisc));
    return a.toArray(String[]::new);
  }
}
