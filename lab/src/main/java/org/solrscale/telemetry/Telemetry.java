package org.solrscale.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.FourLetterWords;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.SolrHttp;
import org.solrscale.results.CsvTable;
import org.solrscale.results.TelemetrySample;

/**
 * Scrapes the cluster while a step runs: every Solr node's metrics API (CPU, heap, GC, /select
 * requests, cache hit ratios) and every ZooKeeper's {@code mntr} (latency, outstanding requests,
 * whether it serves and leads, and a leader's synced followers), every {@code period}. Each sample
 * goes to telemetry.csv (time, node, metric, value); the run's figures per node come back from
 * {@link #stop()}.
 */
public final class Telemetry implements AutoCloseable {
  private static final String PREFIXES =
      "memory.heap.used,gc.,os.processCpuLoad,"
          + "QUERY./select.requestTimes,CACHE.searcher.queryResultCache,CACHE.searcher.filterCache";

  private final List<NodeState> nodes;
  private final Duration period;
  private final CsvTable<TelemetrySample>.RowWriter csv;
  private final CsvTable<TelemetrySample>.RowWriter clusterCsv;
  private final SolrHttp http;
  private final Thread thread;
  private final long start = System.nanoTime();

  /** node -> metric -> [first, last, min, max, sum, n, rises]. */
  private final Map<String, Map<String, double[]>> stats = new ConcurrentHashMap<>();

  private volatile boolean running = true;

  /** The ZooKeeper servers whose tickTime and syncLimit were read (once each). */
  private final java.util.Set<String> limitRead = ConcurrentHashMap.newKeySet();

  public Telemetry(List<NodeState> nodes, Access access, Path dir, Duration period)
      throws IOException {
    this.http = new SolrHttp(access);
    this.nodes = List.copyOf(nodes);
    this.period = period;
    this.csv = TelemetrySample.TABLE.open(dir.resolve("telemetry.csv"));
    this.clusterCsv = TelemetrySample.TABLE.open(dir.resolve(CLUSTER_FILE));
    thread = new Thread(this::loop, "solrscale-telemetry");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      long t = System.nanoTime();
      for (NodeState n : nodes) {
        if (n.isSolr()) {
          solr(n);
        } else {
          zk(n);
        }
      }
      clusterState();
      long sleep = period.toMillis() - (System.nanoTime() - t) / 1_000_000;
      try {
        Thread.sleep(Math.max(10, sleep));
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void solr(NodeState n) {
    SolrHttp.Reply r =
        http.get(
            n.baseUrl()
                + "/admin/metrics?wt=json&group=jvm,core&prefix="
                + URLEncoder.encode(PREFIXES, StandardCharsets.UTF_8),
            Duration.ofSeconds(5));
    if (Thread.currentThread().isInterrupted()) {
      return; // stopping
    }
    if (r.status() == 0 || r.status() == 200 && r.body() == null) { // no answer, or not JSON
      sample(n.id(), "scrape_errors", 1);
      return;
    }
    if (r.status() != 200) {
      return;
    }
    Map<String, Double> m = new LinkedHashMap<>();
    JsonNode metrics = r.body().path("metrics");
    for (Iterator<Map.Entry<String, JsonNode>> regs = metrics.fields(); regs.hasNext(); ) {
      Map.Entry<String, JsonNode> reg = regs.next();
      for (Iterator<Map.Entry<String, JsonNode>> ms = reg.getValue().fields(); ms.hasNext(); ) {
        Map.Entry<String, JsonNode> e = ms.next();
        flatten(m, e.getKey(), e.getValue());
      }
    }
    m.forEach((k, v) -> sample(n.id(), k, v));
  }

  /**
   * A cluster.csv metric {@code leader:COLLECTION/SHARD}: its node is the node that leads the shard
   * (an active replica on a live node), "none" (value 0) when no one does.
   */
  public static final String LEADER = "leader:";

  /** Our id of the Solr node CLUSTERSTATUS names {@code host:port_solr}, or that name. */
  private String nodeId(String nodeName) {
    int u = nodeName.indexOf('_');
    String hostPort = u < 0 ? nodeName : nodeName.substring(0, u);
    for (NodeState n : nodes) {
      if (n.isSolr() && n.baseUrl().contains("://" + hostPort + "/")) {
        return n.id();
      }
    }
    return nodeName;
  }

  /** The step's cluster.csv: the cluster's state as CLUSTERSTATUS tells it, every period. */
  public static final String CLUSTER_FILE = "cluster.csv";

  /**
   * The cluster's state from the first Solr node that answers CLUSTERSTATUS: the live nodes (as
   * node "cluster"), and per collection its shards, the shards with a leader on a live node, and
   * its replicas active, recovering and down (or on a node not live).
   */
  private void clusterState() {
    for (NodeState n : nodes) {
      if (!n.isSolr()) {
        continue;
      }
      SolrHttp.Reply r =
          http.get(
              n.baseUrl() + "/admin/collections?action=CLUSTERSTATUS&wt=json",
              Duration.ofSeconds(5));
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
      if (!r.ok()) {
        continue;
      }
      JsonNode c = r.body().path("cluster");
      java.util.Set<String> live = new java.util.HashSet<>();
      c.path("live_nodes").forEach(l -> live.add(l.asText()));
      double second = Math.round((System.nanoTime() - start) / 1e8) / 10.0;
      clusterCsv.write(new TelemetrySample(second, "cluster", "live_nodes", live.size()));
      for (Iterator<Map.Entry<String, JsonNode>> cs = c.path("collections").fields();
          cs.hasNext(); ) {
        Map.Entry<String, JsonNode> col = cs.next();
        int shards = 0;
        int leaders = 0;
        int active = 0;
        int recovering = 0;
        int down = 0;
        String name = col.getKey();
        for (Iterator<Map.Entry<String, JsonNode>> sh = col.getValue().path("shards").fields();
            sh.hasNext(); ) {
          Map.Entry<String, JsonNode> shard = sh.next();
          shards++;
          String leader = null;
          for (JsonNode rep : shard.getValue().path("replicas")) {
            boolean onLive = live.contains(rep.path("node_name").asText());
            String state = rep.path("state").asText();
            if (!onLive || state.equals("down")) {
              down++;
            } else if (state.equals("active")) {
              active++;
              if (rep.path("leader").asBoolean()) {
                leader = nodeId(rep.path("node_name").asText());
              }
            } else {
              recovering++; // recovering, or still starting up
            }
          }
          leaders += leader != null ? 1 : 0;
          // which node leads the shard: the node column names it ("none" without one)
          clusterCsv.write(
              new TelemetrySample(
                  second,
                  leader == null ? "none" : leader,
                  LEADER + name + "/" + shard.getKey(),
                  leader == null ? 0 : 1));
        }
        clusterCsv.write(new TelemetrySample(second, name, "shards", shards));
        clusterCsv.write(new TelemetrySample(second, name, "leaders", leaders));
        clusterCsv.write(new TelemetrySample(second, name, "active", active));
        clusterCsv.write(new TelemetrySample(second, name, "recovering", recovering));
        clusterCsv.write(new TelemetrySample(second, name, "down", down));
      }
      return;
    }
  }

  /**
   * The numbers that matter: plain gauges, counts of timers, hit ratios of caches (summed over
   * cores).
   */
  private static void flatten(Map<String, Double> m, String name, JsonNode v) {
    if (v.isNumber()) {
      String key =
          name.equals("os.processCpuLoad")
              ? "cpu"
              : name.equals("memory.heap.used")
                  ? "heap_used"
                  : name.startsWith("gc.") && name.endsWith(".count")
                      ? "gc_count"
                      : name.startsWith("gc.") && name.endsWith(".time") ? "gc_ms" : null;
      if (key != null) {
        m.merge(key, v.asDouble(), Double::sum);
      }
    } else if (name.equals("QUERY./select.requestTimes")) {
      m.merge("select_requests", v.path("count").asDouble(), Double::sum);
    } else if (name.startsWith("CACHE.searcher.")) {
      String cache = name.substring("CACHE.searcher.".length());
      m.merge(cache + "_lookups", v.path("lookups").asDouble(), Double::sum);
      m.merge(cache + "_hits", v.path("hits").asDouble(), Double::sum);
    }
  }

  private void zk(NodeState n) {
    if (!limitRead.contains(n.id())) { // its own word on the limit a follower must sync within
      Map<String, String> conf =
          FourLetterWords.ask(n.host(), n.port(), "conf", 2000)
              .map(t -> FourLetterWords.pairs(t, "="))
              .orElse(Map.of());
      Double tick = number(conf.get("tickTime"));
      Double sync = number(conf.get("syncLimit"));
      if (tick != null && sync != null) {
        limitRead.add(n.id());
        sample(n.id(), "sync_limit_ms", tick * sync);
      }
    }
    Map<String, String> mntr =
        FourLetterWords.ask(n.host(), n.port(), "mntr", 2000)
            .map(t -> FourLetterWords.pairs(t, "\t"))
            .orElse(Map.of());
    if (Thread.currentThread().isInterrupted()) {
      return; // stopping
    }
    for (String key :
        List.of(
            "zk_avg_latency", "zk_max_latency", "zk_outstanding_requests", "zk_synced_followers")) {
      Double v = number(mntr.get(key));
      if (v != null) {
        sample(n.id(), key.substring(3), v);
      }
    }
    // a server that is electing answers with a sentence, one cut off not at all: not serving
    String state = mntr.get("zk_server_state");
    sample(n.id(), "serving", state == null ? 0 : 1);
    sample(n.id(), "leading", "leader".equals(state) ? 1 : 0);
  }

  /** A figure of a four-letter word's reply, or null (absent, or written another way). */
  private static Double number(String v) {
    try {
      return v == null ? null : Double.valueOf(v);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private synchronized void sample(String node, String metric, double value) {
    csv.write(
        new TelemetrySample(
            Math.round((System.nanoTime() - start) / 1e8) / 10.0, node, metric, value));
    double[] s =
        stats
            .computeIfAbsent(node, k -> new ConcurrentHashMap<>())
            .computeIfAbsent(metric, k -> new double[] {value, value, value, value, 0, 0, 0});
    if (value > s[1]) {
      s[6]++; // a rise: for "leading", this server became the leader
    }
    s[1] = value;
    s[2] = Math.min(s[2], value);
    s[3] = Math.max(s[3], value);
    s[4] += value;
    s[5]++;
  }

  /**
   * Stops scraping; per node: mean CPU (percent of the machine), largest heap used (MB), GC
   * collections and milliseconds during the step, /select requests per second, cache hit ratios,
   * and for ZooKeeper the mean and largest latency and outstanding requests, the seconds it did not
   * serve (electing, or not answering: the sampled share of the step), the share of samples it led,
   * how often it became the leader during the step, while it led its fewest synced followers, and
   * its syncLimit x tickTime (from its {@code conf}).
   */
  public Map<String, Map<String, Double>> stop() {
    running = false;
    thread.interrupt();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    double seconds = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
    Map<String, Map<String, Double>> out = new LinkedHashMap<>();
    stats.forEach(
        (node, m) -> {
          Map<String, Double> r = new LinkedHashMap<>();
          m.forEach(
              (metric, s) -> {
                double mean = s[5] > 0 ? s[4] / s[5] : 0;
                switch (metric) {
                  case "cpu" -> r.put("cpu_percent", mean * 100);
                  case "heap_used" -> r.put("heap_used_max_mb", s[3] / 1e6);
                  case "gc_count" -> r.put("gc_count", s[1] - s[0]);
                  case "gc_ms" -> r.put("gc_ms", s[1] - s[0]);
                  case "select_requests" -> r.put("select_per_sec", (s[1] - s[0]) / seconds);
                  case "avg_latency" -> r.put("zk_avg_latency_ms", mean);
                  case "max_latency" -> r.put("zk_max_latency_ms", s[3]);
                  case "outstanding_requests" -> r.put("zk_outstanding_max", s[3]);
                  case "serving" -> r.put("zk_not_serving_s", (1 - mean) * seconds);
                  case "leading" -> {
                    r.put("zk_leading_share", mean);
                    r.put("zk_became_leader", s[6]);
                  }
                  case "synced_followers" -> r.put("zk_synced_followers_min", s[2]);
                  case "sync_limit_ms" -> r.put("zk_sync_limit_ms", s[1]);
                  default -> {}
                }
              });
          for (String cache : List.of("queryResultCache", "filterCache")) {
            double[] l = m.get(cache + "_lookups");
            double[] h = m.get(cache + "_hits");
            if (l != null && h != null && l[1] - l[0] > 0) {
              r.put(cache + "_hit_ratio", (h[1] - h[0]) / (l[1] - l[0]));
            }
          }
          out.put(node, r);
        });
    csv.close();
    clusterCsv.close();
    return out;
  }

  @Override
  public void close() {
    if (running) {
      stop();
    }
  }
}
