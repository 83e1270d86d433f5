package org.solrscale.chaos;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a fault may take down. By default never the last live replica of a shard and never a
 * ZooKeeper majority; a fault marked unsafe (or one whose purpose is exactly that, like zk-quorum)
 * is let through.
 */
final class SafetyRules {
  private SafetyRules() {}

  /**
   * Why taking down {@code take} while {@code down} already is would break a rule, or null when it
   * is safe.
   */
  static String violation(Topology t, Set<String> down, Collection<String> take) {
    Set<String> after = new HashSet<>(down);
    after.addAll(take);
    for (Map.Entry<String, List<String>> e : t.replicaNodes().entrySet()) {
      if (!e.getValue().isEmpty() && after.containsAll(e.getValue())) {
        return "it would take down the last live replica of " + e.getKey();
      }
    }
    long zkDown = t.zkNodes().stream().filter(after::contains).count();
    if (!t.zkNodes().isEmpty() && zkDown > 0 && zkDown >= t.zkNodes().size() / 2 + 1) {
      return "it would take down a ZooKeeper majority ("
          + zkDown
          + " of "
          + t.zkNodes().size()
          + ")";
    }
    return null;
  }
}
