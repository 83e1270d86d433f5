package org.solrscale.net;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/** The names and addresses of a lab network, derived from its name, size and subnet. */
final class NetPlan {
  static final int MAX_HOSTS = 50;

  /** Linux's limit on an interface name (IFNAMSIZ less the terminating NUL). */
  static final int MAX_INTERFACE_NAME = 15;

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]{0,7}");

  private NetPlan() {}

  static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw SolrscaleException.usage(
          "'"
              + name
              + "' cannot name a lab network: give 1 to 8 lowercase letters or digits, "
              + "starting with a letter (e.g. --name lab)");
    }
  }

  static void checkHosts(int hosts) {
    if (hosts < 1 || hosts > MAX_HOSTS) {
      throw SolrscaleException.usage(
          "a lab network has 1 to " + MAX_HOSTS + " hosts, not " + hosts + "; give --hosts N");
    }
  }

  static String hostName(String net, int i) {
    return net + "-h" + i;
  }

  static String namespace(String net, int i) {
    return "solrscale-" + net + "-h" + i;
  }

  static String bridge(String net) {
    return interfaceName("sb-" + net);
  }

  static String veth(String net, int i) {
    return interfaceName("sv-" + net + "-" + i);
  }

  private static String interfaceName(String name) {
    if (name.length() > MAX_INTERFACE_NAME) { // a name of 8 and 50 hosts make 14 at most
      throw new IllegalStateException("interface name " + name + " is longer than 15 characters");
    }
    return name;
  }

  /** Net {@code name} of {@code hosts} hosts on 10.201.K.0/24, nothing started yet (pids 0). */
  static NetState plan(SolrscaleHome home, String name, int hosts, int k, LinkRate bandwidth) {
    return plan(home, name, hosts, k, bandwidth, null);
  }

  /** The same, each host limited to {@code limits} (null: none). */
  static NetState plan(
      SolrscaleHome home,
      String name,
      int hosts,
      int k,
      LinkRate bandwidth,
      Cgroups.Limits limits) {
    checkName(name);
    checkHosts(hosts);
    List<NetHost> list = new ArrayList<>();
    for (int i = 1; i <= hosts; i++) {
      String host = hostName(name, i);
      list.add(
          new NetHost(
              host,
              Subnets.address(k, i + 1),
              namespace(name, i),
              veth(name, i),
              0,
              NetFiles.hostDir(home, name, host).toAbsolutePath().toString()));
    }
    return new NetState(
        name,
        Subnets.subnet(k),
        bridge(name),
        Subnets.address(k, 1),
        bandwidth == null ? null : bandwidth.text(),
        list,
        limits == null ? null : limits.cpus(),
        limits == null ? null : limits.memory(),
        limits == null ? null : limits.cores());
  }
}
