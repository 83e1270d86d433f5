package org.solrscale.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.HostLimits;

/**
 * What limits steps changed on the cluster's hosts during one repeat, so that a restart keeps it
 * (starting a node sets its cgroup's memory limit to the spec's again) and the end of the repeat
 * puts everything back: each host's memory limit to the spec's, huge pages to the mode they had,
 * swap files off and deleted, disk reads unthrottled. One per repeat.
 */
final class HostChanges {
  private final Map<String, Long> memory = new LinkedHashMap<>();
  private final Map<String, String> thpBefore = new LinkedHashMap<>();
  private final Set<String> swap = new LinkedHashSet<>();
  private final Map<String, Integer> readIops = new LinkedHashMap<>();

  void readIopsSet(String host, int iops) {
    readIops.put(host, iops);
  }

  /** Forgets a throttle of {@code host}; whether there was one (to be put back now). */
  boolean readIopsUnset(String host) {
    return readIops.remove(host) != null;
  }

  void memorySet(String host, long bytes) {
    memory.put(host, bytes);
  }

  void thpSet(String host, String before) {
    thpBefore.putIfAbsent(host, before);
  }

  void swapOn(String host) {
    swap.add(host);
  }

  boolean swapIsOn(String host) {
    return swap.contains(host);
  }

  void swapOff(String host) {
    swap.remove(host);
  }

  /** After nodes started again: the memory limits this repeat set, set again. */
  void reapply(Cluster cluster) {
    if (memory.isEmpty() && readIops.isEmpty()) {
      return;
    }
    HostLimits limits = cluster.hosts().limits();
    memory.forEach(limits::memory);
    readIops.forEach(limits::readIops); // the new processes into the throttled cgroup
  }

  /**
   * Puts back what this repeat changed; what cannot be put back is a warning (the repeat's own
   * outcome stands).
   */
  void undo(Cluster cluster, Consumer<String> progress) {
    if (memory.isEmpty() && thpBefore.isEmpty() && swap.isEmpty() && readIops.isEmpty()) {
      return;
    }
    HostLimits limits = cluster.hosts().limits();
    Map<String, List<String>> said = new LinkedHashMap<>();
    for (String host : memory.keySet()) {
      long bytes = cluster.requireState().spec().hostNamed(host).memoryBytes();
      if (attempt(progress, () -> limits.memory(host, bytes))) {
        said.computeIfAbsent(host, h -> new ArrayList<>())
            .add("memory limit " + (bytes >> 20) + " MB");
      }
    }
    // last set, first put back: hosts that share a kernel (lab hosts) saw each other's change, so
    // only the first host's "before" is the mode the machine had
    List<Map.Entry<String, String>> thp = new ArrayList<>(thpBefore.entrySet());
    Collections.reverse(thp);
    for (Map.Entry<String, String> e : thp) {
      if (attempt(progress, () -> limits.thp(e.getKey(), e.getValue()))) {
        said.computeIfAbsent(e.getKey(), h -> new ArrayList<>()).add("huge pages " + e.getValue());
      }
    }
    for (String host : swap) {
      if (attempt(progress, () -> limits.swapOff(host))) {
        said.computeIfAbsent(host, h -> new ArrayList<>()).add("swap file off");
      }
    }
    for (String host : readIops.keySet()) {
      if (attempt(progress, () -> limits.readIops(host, null))) {
        said.computeIfAbsent(host, h -> new ArrayList<>()).add("disk reads unthrottled");
      }
    }
    said.forEach(
        (host, what) -> progress.accept("  put back on " + host + ": " + String.join(", ", what)));
    memory.clear();
    thpBefore.clear();
    swap.clear();
    readIops.clear();
  }

  private static boolean attempt(Consumer<String> progress, Runnable undo) {
    try {
      undo.run();
      return true;
    } catch (RuntimeException e) {
      progress.accept("warning: could not put a host back as it was: " + e.getMessage());
      return false;
    }
  }
}
