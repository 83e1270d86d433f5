package org.solrscale.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.spec.SolrscaleException;

/**
 * Picks a lab network's subnet, 10.201.K.0/24: the first K no other net of solrscale's uses and no
 * route of this machine overlaps.
 */
final class Subnets {
  private static final Pattern PREFIX =
      Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:/(\\d{1,2}))?");
  private static final Pattern OURS = Pattern.compile("10\\.201\\.(\\d{1,3})\\.0/24");

  /** The words `ip route` may put before a route's destination. */
  private static final Set<String> ROUTE_TYPES =
      Set.of(
          "unicast",
          "local",
          "broadcast",
          "multicast",
          "throw",
          "unreachable",
          "prohibit",
          "blackhole",
          "nat",
          "anycast");

  private Subnets() {}

  static String subnet(int k) {
    return "10.201." + k + ".0/24";
  }

  static String address(int k, int host) {
    return "10.201." + k + "." + host;
  }

  /** K of a subnet this class made, or -1 for another. */
  static int k(String subnet) {
    Matcher m = OURS.matcher(subnet == null ? "" : subnet);
    return m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }

  /**
   * The first K in 0..255 not in {@code taken} whose /24 overlaps none of the destinations in
   * {@code routes} (lines of `ip -4 route show table all`; default routes overlap nothing here).
   */
  static int choose(Set<Integer> taken, List<String> routes) {
    List<long[]> prefixes = destinations(routes);
    for (int k = 0; k <= 255; k++) {
      long base = (10L << 24) | (201L << 16) | ((long) k << 8);
      boolean free = !taken.contains(k);
      for (long[] p : prefixes) {
        free &= !overlaps(base, 24, p[0], (int) p[1]);
      }
      if (free) {
        return k;
      }
    }
    throw SolrscaleException.environment(
        "no free subnet 10.201.K.0/24 for a lab network: other nets or this machine's routes "
            + "(ip -4 route) use all 256; take a net down (solrscale net down --name NET)");
  }

  /** The destinations (address, prefix length) of route lines, leaving out default routes. */
  static List<long[]> destinations(List<String> routes) {
    List<long[]> result = new ArrayList<>();
    for (String line : routes) {
      String[] words = line.strip().split("\\s+");
      int i = 0;
      if (i < words.length && ROUTE_TYPES.contains(words[i])) {
        i++;
      }
      if (i >= words.length) {
        continue;
      }
      Matcher m = PREFIX.matcher(words[i]);
      if (!m.matches()) {
        continue; // "default", or nothing we can read
      }
      long addr = 0;
      for (int g = 1; g <= 4; g++) {
        addr = (addr << 8) | (Integer.parseInt(m.group(g)) & 0xff);
      }
      int len = m.group(5) == null ? 32 : Integer.parseInt(m.group(5));
      if (len > 0) {
        result.add(new long[] {addr, len});
      }
    }
    return result;
  }

  /** Whether two prefixes share an address (one contains the other). */
  static boolean overlaps(long a, int lenA, long b, int lenB) {
    int len = Math.min(lenA, lenB);
    long mask = len == 0 ? 0 : (0xffffffffL << (32 - len)) & 0xffffffffL;
    return (a & mask) == (b & mask);
  }
}
