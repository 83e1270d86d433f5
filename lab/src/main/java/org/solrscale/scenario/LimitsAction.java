package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.solrscale.cluster.HostLimits;
import org.solrscale.spec.Sizes;
import org.solrscale.spec.StepSpec;

/**
 * A limits step: each host's memory limit (absolute, or what the nodes hold now plus room for the
 * page cache), huge pages and swap, changed until the repeat ends; and a cached step: how much of a
 * collection's index each host holds and has in its page cache.
 */
final class LimitsAction implements StepAction<StepSpec.Limits> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public JsonNode run(StepSpec.Limits l, StepRun run) {
    HostLimits limits = run.cluster().hosts().limits();
    List<String> hosts = l.hosts() != null ? l.hosts() : limits.hosts(); // those with nodes
    ArrayNode out = JSON.createArrayNode();
    List<String> said = new ArrayList<>();
    for (String host : hosts) {
      ObjectNode h = out.addObject().put("host", host);
      List<String> line = new ArrayList<>();
      if (l.thp() != null) {
        String before = limits.thp(host, l.thp());
        run.changes().thpSet(host, before);
        h.put("thp", l.thp()).put("thp_before", before);
        line.add("huge pages " + l.thp() + " (were " + before + ")");
      }
      long swap = l.swapBytes();
      if (swap >= 0) {
        if (run.changes().swapIsOn(host)) {
          limits.swapOff(host);
          run.changes().swapOff(host);
        }
        if (swap > 0) {
          limits.swapOn(host, swap);
          run.changes().swapOn(host);
        }
        h.put("swap_mb", swap >> 20);
        line.add(swap > 0 ? "swap file of " + (swap >> 20) + " MB on" : "no swap file");
      }
      if (l.readIops() != null && l.readIops() > 0) {
        int moved = limits.readIops(host, l.readIops());
        run.changes().readIopsSet(host, l.readIops());
        h.put("read_iops", l.readIops()).put("processes_throttled", moved);
        line.add("disk reads " + l.readIops() + "/s (" + moved + " processes)");
      } else if (l.readIops() != null) {
        if (run.changes().readIopsUnset(host)) {
          limits.readIops(host, null);
        }
        h.put("read_iops", 0);
        line.add("disk reads unthrottled");
      }
      if (l.memory() != null || l.pageCache() != null) {
        HostLimits.Memory now = limits.memory(host, null);
        long limit =
            l.memory() != null
                ? Sizes.bytes(l.memory())
                : now.rss() + now.swap() + Sizes.bytes(l.pageCache());
        HostLimits.Memory after = limits.memory(host, limit);
        run.changes().memorySet(host, limit);
        h.put("limit_mb", mb(after.limit()))
            .put("nodes_hold_mb", mb(now.rss() + now.swap()))
            .put("page_cache_room_mb", mb(after.limit() - now.rss() - now.swap()))
            .put("limit_before_mb", mb(now.limit()))
            .put("cache_before_mb", mb(now.cache()))
            .put("cache_after_mb", mb(after.cache()));
        line.add(
            String.format(
                Locale.ROOT,
                "memory limit %.0f MB: the nodes hold %.0f MB, %.0f MB left for the page cache"
                    + " (it held %.0f MB, now %.0f MB)",
                mb(after.limit()),
                mb(now.rss() + now.swap()),
                mb(after.limit() - now.rss() - now.swap()),
                mb(now.cache()),
                mb(after.cache())));
      }
      said.add(host + ": " + String.join(", ", line));
      run.progress().accept("    " + host + ": " + String.join(", ", line));
    }
    ObjectNode summary = JSON.createObjectNode();
    summary.put("text", String.join("; ", said));
    summary.set("hosts", out);
    return summary;
  }

  static double mb(long bytes) {
    return Math.round(bytes / 1048576.0 * 10) / 10.0;
  }

  /** A cached step: per host the collection's index bytes and of them in the page cache. */
  static final class CachedAction implements StepAction<StepSpec.Cached> {
    @Override
    public JsonNode run(StepSpec.Cached c, StepRun run) {
      String collection = run.collection(c.collection());
      HostLimits limits = run.cluster().hosts().limits();
      List<HostLimits.Cached> cores = limits.cached(collection);
      Map<String, long[]> byHost = new LinkedHashMap<>();
      for (HostLimits.Cached core : cores) {
        long[] t = byHost.computeIfAbsent(core.host(), h -> new long[2]);
        t[0] += core.cached();
        t[1] += core.size();
      }
      ObjectNode summary = JSON.createObjectNode();
      ArrayNode hosts = summary.putArray("hosts");
      List<String> said = new ArrayList<>();
      long cached = 0;
      long size = 0;
      for (Map.Entry<String, long[]> e : byHost.entrySet()) {
        long[] t = e.getValue();
        cached += t[0];
        size += t[1];
        ObjectNode h =
            hosts
                .addObject()
                .put("host", e.getKey())
                .put("index_mb", mb(t[1]))
                .put("cached_mb", mb(t[0]));
        String line =
            String.format(
                Locale.ROOT,
                "%s: %.1f MB of %s's index, %.1f MB (%.0f %%) in the page cache",
                e.getKey(),
                mb(t[1]),
                collection,
                mb(t[0]),
                t[1] == 0 ? 0.0 : 100.0 * t[0] / t[1]);
        if (run.cluster().requireState().spec().hostNamed(e.getKey()) != null
            && run.cluster().requireState().spec().hostNamed(e.getKey()).memory() != null) {
          HostLimits.Memory m = limits.memory(e.getKey(), null);
          h.put("limit_mb", mb(m.limit()))
              .put("nodes_hold_mb", mb(m.rss() + m.swap()))
              .put("cache_mb", mb(m.cache()));
          line +=
              String.format(
                  Locale.ROOT,
                  "; the nodes hold %.0f MB of a %.0f MB limit",
                  mb(m.rss() + m.swap()),
                  mb(m.limit()));
        }
        said.add(line);
        run.progress().accept("    " + line);
      }
      summary.put("text", String.join("; ", said));
      summary.put("index_mb", mb(size));
      summary.put("cached_mb", mb(cached));
      summary.set("cores", JSON.valueToTree(cores));
      return summary;
    }
  }
}
