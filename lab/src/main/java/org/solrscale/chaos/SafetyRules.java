package org.solrscale.chaos;

import java.util.ArrayList;
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
   * A broken rule: what the cluster has now ({@code reason}) and what the fault would need ({@code
   * needs}, e.g. "2 live replicas of shard1, so one stays up").
   */
  record Violation(String reason, String needs) {}

  /**
   * Why taking down {@code take} while {@code down} already is would break a rule, or null when it
   * is safe.
   */
  static String violation(Topology t, Set<String> down, Collection<String> take) {
    Violation v = check(t, down, take);
    return v == null ? null : v.reason();
  }

  /** The rule taking down {@code take} while {@code down} already is would break, or null. */
  static Violation check(Topology t, Set<String> down, Collection<String> take) {
    Set<String> after = new HashSet<>(down);
    after.addAll(take);
    for (Map.Entry<String, List<String>> e : t.replicaNodes().entrySet()) {
      if (!e.getValue().isEmpty() && after.containsAll(e.getValue())) {
        List<String> live = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        for (String n : e.getValue()) {
          (down.contains(n) ? gone : live).add(n);
        }
        String shard = e.getKey();
        return new Violation(
            shard
                + " has "
                + live.size()
                + " live replica"
                + (live.size() == 1 ? "" : "s")
                + (live.isEmpty() ? "" : ", on " + String.join(",", live))
                + (gone.isEmpty()
                    ? ""
                    : " (" + String.join(",", gone) + " held down by another fault)"),
            (live.size() + 1) + " live replicas of " + shard + ", so one stays up");
      }
    }
    int n = t.zkNodes().size();
    long zkDown = t.zkNodes().stream().filter(after::contains).count();
    // a quorum is more than half the ensemble: 2 of 2, 2 of 3, 3 of 4
    if (n > 0 && zkDown > 0 && n - zkDown < n / 2 + 1) {
      return new Violation(
          "it would leave " + (n - zkDown) + " of " + n + " ZooKeeper servers up, no majority",
          "an ensemble of " + (2 * zkDown + 1) + ", so a majority stays up");
    }
    return null;
  }
}
