package org.solrscale.diagnose;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The doctor's own window: counters read twice a few seconds apart (a node's CPU time, GC count and
 * time, update requests per core; this machine's /proc/stat), so that load and rates describe the
 * cluster now. A 1-minute load average or rate would still carry whatever ran just before.
 */
final class DoctorWindow {
  /** The metrics one request reads: the node's CPU time (ns), its collectors, update timers. */
  static final String PREFIXES = "os.processCpuTime,gc.,UPDATE./update.requestTimes";

  private DoctorWindow() {}

  /** A node's counters at one moment (null cpu when Solr does not report it). */
  record Counters(long atNanos, Long cpuNanos, long gcCount, long gcMs, Map<String, Long> updates) {

    /** From an answer of /admin/metrics?group=jvm,core&prefix={@link #PREFIXES}. */
    static Counters of(long atNanos, JsonNode answer) {
      JsonNode jvm = answer.path("metrics").path("solr.jvm");
      JsonNode cpuTime = jvm.path("os.processCpuTime");
      Long cpu = cpuTime.canConvertToLong() ? cpuTime.asLong() : null;
      long count = 0;
      long ms = 0;
      for (Iterator<Map.Entry<String, JsonNode>> it = jvm.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        // concurrent cycles (G1 Concurrent GC on newer JDKs) do not stop the application
        if (!e.getKey().startsWith("gc.") || e.getKey().contains("Concurrent")) {
          continue;
        }
        if (e.getKey().endsWith(".count")) {
          count += e.getValue().asLong(0);
        } else if (e.getKey().endsWith(".time")) {
          ms += e.getValue().asLong(0);
        }
      }
      Map<String, Long> updates = new LinkedHashMap<>();
      answer
          .path("metrics")
          .fields()
          .forEachRemaining(
              core -> {
                JsonNode timer = core.getValue().path("UPDATE./update.requestTimes");
                if (core.getKey().startsWith("solr.core.") && timer.has("count")) {
                  updates.put(core.getKey(), timer.get("count").asLong());
                }
              });
      return new Counters(atNanos, cpu, count, ms, updates);
    }
  }

  /** A node between two readings: its window, and update requests per second per core. */
  record Rates(DoctorFacts.Window window, Map<String, Double> updatesPerSecond) {}

  /**
   * What happened on a node between {@code a} and {@code b}; hostBusy from {@link #busyPercent}.
   */
  static Rates between(Counters a, Counters b, Double hostBusyPercent) {
    double seconds = Math.max(1e-9, (b.atNanos() - a.atNanos()) / 1e9);
    Double cores =
        a.cpuNanos() == null || b.cpuNanos() == null
            ? null
            : Math.max(0, b.cpuNanos() - a.cpuNanos()) / 1e9 / seconds;
    Map<String, Double> updates = new LinkedHashMap<>();
    b.updates()
        .forEach(
            (core, n) ->
                updates.put(core, Math.max(0, n - a.updates().getOrDefault(core, n)) / seconds));
    return new Rates(
        new DoctorFacts.Window(
            hostBusyPercent,
            cores,
            Math.max(0, b.gcCount() - a.gcCount()),
            Math.max(0, b.gcMs() - a.gcMs())),
        updates);
  }

  /** This machine's CPU time in jiffies (busy and in all) and how many CPUs it counts. */
  record CpuTimes(long atNanos, long busy, long total, int cpus, long ownNanos) {

    /** The first line of /proc/stat: user nice system idle iowait irq softirq steal ... */
    static CpuTimes parse(long atNanos, String procStat, long ownNanos) {
      long busy = 0;
      long total = 0;
      int cpus = 0;
      for (String line : procStat.split("\n")) {
        String[] p = line.strip().split("\\s+");
        if (p[0].equals("cpu")) {
          for (int i = 1; i < Math.min(p.length, 9); i++) {
            long v = Long.parseLong(p[i]);
            total += v;
            busy += i == 4 || i == 5 ? 0 : v; // idle and iowait are not busy
          }
        } else if (p[0].matches("cpu[0-9]+")) {
          cpus++;
        }
      }
      return new CpuTimes(atNanos, busy, total, Math.max(1, cpus), ownNanos);
    }

    /** Now, or null where there is no /proc/stat. */
    static CpuTimes read() {
      try {
        return parse(System.nanoTime(), Files.readString(Path.of("/proc/stat")), ownCpuNanos());
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }

    private static long ownCpuNanos() {
      return ManagementFactory.getOperatingSystemMXBean()
              instanceof com.sun.management.OperatingSystemMXBean os
          ? Math.max(0, os.getProcessCpuTime())
          : 0;
    }
  }

  /**
   * The share of this machine's CPU that was busy between two readings (percent of all its CPUs),
   * without the doctor's own, which is not the cluster's load.
   */
  static Double busyPercent(CpuTimes a, CpuTimes b) {
    if (a == null || b == null || b.total() <= a.total()) {
      return null;
    }
    double busy = (double) (b.busy() - a.busy()) / (b.total() - a.total());
    double elapsed = Math.max(1, b.atNanos() - a.atNanos());
    double own = (b.ownNanos() - a.ownNanos()) / (elapsed * b.cpus());
    return 100 * Math.max(0, Math.min(1, busy - own));
  }
}
