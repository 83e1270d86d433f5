package org.solrscale.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.solrscale.load.Interval;
import org.solrscale.load.RunLog;
import org.solrscale.results.BenchSummary;

/**
 * Writes run directories with plausible numbers, as `solrscale run` would: results.json,
 * environment.json, scenario.yaml, and per bench step summary.json, timeline.csv and latency.hlog
 * (through the bench's own RunLog). A closed loop whose latency falls during the first seconds (a
 * cold start), lognormal noise, latency growing with the number of hits.
 */
final class RunFixture {
  static final ObjectMapper JSON = new ObjectMapper();
  static final long NS = 1_000_000_000L;

  /** How one bench step behaves. */
  record Load(
      int threads,
      double baseMs,
      double slowdown,
      long seed,
      int warmupSeconds,
      int seconds,
      long errorsPerSecond,
      int telemetryNodes) {}

  private final Path dir;
  private final String scenario;
  private final ArrayNode combinations = JSON.createArrayNode();

  RunFixture(Path dir, String scenario) {
    this.dir = dir;
    this.scenario = scenario;
  }

  /** A distribute step's summary as Distributor writes it: one shard, n targets. */
  private static org.solrscale.results.Distribution distribution(String method, int n) {
    List<org.solrscale.results.Distribution.Target> targets = new ArrayList<>();
    List<org.solrscale.results.Distribution.Progress> progress = new ArrayList<>();
    boolean peer = !method.equals("solr");
    for (int i = 0; i < n; i++) {
      String node = "solr" + (i + 2);
      targets.add(
          new org.solrscale.results.Distribution.Target(
              "shard1",
              node,
              "c_shard1_replica_p" + i,
              "core_node" + i,
              i == 2 ? "failed" : "active",
              peer ? 50_000_000L : 0,
              0,
              0,
              peer ? 0L : 50_000_000L,
              peer ? 8.0 + i : null,
              i == 2 ? null : 10.0 + (peer ? i : 9 * i),
              i == 2 ? null : 1000L,
              "/d/" + node,
              null,
              i == 2 ? "its relay ended without a result (killed?)" : null));
      if (peer) {
        progress.add(
            new org.solrscale.results.Distribution.Progress(
                node, List.of(1.0, 2.0, 3.0), List.of(10_000_000L, 30_000_000L, 50_000_000L)));
      }
    }
    return new org.solrscale.results.Distribution(
        "c",
        method,
        n,
        "pull",
        0.0,
        10.0 + (peer ? n : 9 * n),
        List.of(
            new org.solrscale.results.Distribution.ShardRun(
                "shard1",
                "c_shard1_replica_n1",
                1000,
                peer ? 3L : null,
                peer ? 12 : null,
                peer ? 50_000_000L : null,
                null,
                targets,
                peer ? progress : null,
                null)));
  }

  /**
   * Adds four distribute steps to the first combination: chain and solr, 1 and 3 new replicas (the
   * third target of a 3 failed).
   */
  static void addDistributeSteps(Path dir) throws IOException {
    ObjectNode results = (ObjectNode) JSON.readTree(dir.resolve("results.json").toFile());
    ArrayNode steps = (ArrayNode) results.get("combinations").get(0).get("steps");
    int index = steps.size() + 1;
    for (String method : List.of("chain", "solr")) {
      for (int n : new int[] {1, 3}) {
        ObjectNode step = steps.addObject();
        step.put("index", index++).put("kind", "distribute").put("name", method + n);
        step.set("summary", JSON.valueToTree(distribution(method, n)));
      }
    }
    JSON.writeValue(dir.resolve("results.json").toFile(), results);
  }

  /**
   * The scalability law a capacity fixture's server follows: lambda 100, sigma 0.05, kappa 0.002.
   */
  static double law(double n) {
    return 100 * n / (1 + 0.05 * (n - 1) + 0.002 * n * (n - 1));
  }

  /**
   * A sweep of nodes x zookeeper with a capacity step ("cap", objective p99<200ms) in every repeat,
   * each a real CapacitySearch against a model server of {@link #law} capacity at N nodes (2 %
   * noise per repeat), whose p99 is 20 ms / (1 - rate / capacity): the objective holds up to 0.9 of
   * it. ZooKeepers make no difference. target: the step's own target, or null.
   */
  static Path capacities(Path dir, int[] nodes, int[] zookeepers, int repeats, String target)
      throws Exception {
    return capacities(dir, nodes, zookeepers, repeats, target, 1.0, 11);
  }

  /**
   * The same, the law's capacity times {@code factor} (a faster or slower server), the noise drawn
   * from {@code seed}.
   */
  static Path capacities(
      Path dir, int[] nodes, int[] zookeepers, int repeats, String target, double factor, long seed)
      throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    ArrayNode combos = JSON.createArrayNode();
    int id = 0;
    for (int n : nodes) {
      for (int zk : zookeepers) {
        id++;
        for (int r = 1; r <= repeats; r++) {
          double x = factor * law(n) * (1 + 0.02 * (random.nextDouble() * 2 - 1));
          ObjectNode summary = capacityStep(x, target);
          ObjectNode c = combos.addObject();
          String cid = String.format("c%03d", id);
          c.put("id", cid);
          Map<String, Object> params = new LinkedHashMap<>();
          params.put("cluster.nodes", n);
          params.put("cluster.zookeeper", zk);
          c.set("params", JSON.valueToTree(params));
          c.put("repeat", r).put("dir", cid + "/r" + r).put("status", "done");
          ObjectNode step = c.putArray("steps").addObject();
          step.put("index", 0).put("kind", "capacity").put("name", "cap");
          step.set("summary", summary);
        }
      }
    }
    ObjectNode results = JSON.createObjectNode();
    results.put("scenario", "capacity-test");
    results.set("combinations", combos);
    Files.writeString(dir.resolve("results.json"), results.toPrettyString());
    Files.writeString(dir.resolve("scenario.yaml"), "name: capacity-test\n");
    return dir;
  }

  /**
   * A capacity step's summary: a real CapacitySearch (objective p99<200ms) against a model server
   * of capacity x whose p99 is 20 ms / (1 - rate / x).
   */
  static ObjectNode capacityStep(double x, String target) throws InterruptedException {
    org.solrscale.results.CapacityResult result =
        org.solrscale.capacity.CapacitySearch.search(
            org.solrscale.spec.Slo.parse("p99<200ms"),
            org.solrscale.capacity.CapacitySearch.Options.defaults(10, null),
            rate -> {
              double p99 = rate >= x ? 10_000 : Math.min(10_000, 20 / (1 - rate / x));
              return new org.solrscale.results.CapacityResult.Measured(
                  rate,
                  Math.min(rate, x),
                  2000,
                  Map.of("p50", p99 / 3, "p99", p99, "p99.9", p99 * 1.5),
                  0,
                  null);
            });
    ObjectNode summary = JSON.valueToTree(result);
    if (target != null) {
      summary.put("target", target);
    }
    return summary;
  }

  /** Adds a capacity step ("cap") to every combination: {@link #law} at its nodes. */
  static void addCapacitySteps(Path dir) throws Exception {
    ObjectNode results = (ObjectNode) JSON.readTree(dir.resolve("results.json").toFile());
    for (JsonNode c : results.get("combinations")) {
      ArrayNode steps = (ArrayNode) c.get("steps");
      ObjectNode step = steps.addObject();
      step.put("index", steps.size()).put("kind", "capacity").put("name", "cap");
      step.set("summary", capacityStep(law(c.path("params").path("nodes").asInt(1)), "rate=100"));
    }
    JSON.writeValue(dir.resolve("results.json").toFile(), results);
  }

  /** nodes 1,2 x threads 1,2,4, two repeats each, plus an index step; c004 has a few errors. */
  static Path sweep(Path dir) throws IOException {
    RunFixture f = new RunFixture(dir, "scaling-test");
    int id = 0;
    for (int nodes : new int[] {1, 2}) {
      for (int threads : new int[] {1, 2, 4}) {
        id++;
        for (int repeat = 1; repeat <= 2; repeat++) {
          Map<String, Object> params = new LinkedHashMap<>();
          params.put("nodes", nodes);
          params.put("bench.threads", threads);
          double base = 4.0 * Math.pow(threads, 0.35) / Math.sqrt(nodes);
          f.combination(
              String.format("c%03d", id),
              params,
              repeat,
              new Load(threads, base, 1.0, id * 100L + repeat, 3, 20, id == 4 ? 1 : 0, nodes));
        }
      }
    }
    return f.finish();
  }

  /**
   * Two Solr versions, four repeats each: 9.10.1's latencies 1.5 times 9.8.1's, indexing alike;
   * every index step with its per-second progress.
   */
  static Path versions(Path dir) throws IOException {
    RunFixture f = new RunFixture(dir, "upgrade");
    int id = 0;
    for (String v : new String[] {"9.8.1", "9.10.1"}) {
      id++;
      for (int repeat = 1; repeat <= 4; repeat++) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("cluster.solr_version", v);
        f.combination(
            String.format("c%03d", id),
            params,
            repeat,
            new Load(2, 4.0, v.equals("9.10.1") ? 1.5 : 1.0, id * 100L + repeat, 3, 20, 0, 0));
        Path idx = dir.resolve(String.format("c%03d/r%d/s0-index-load", id, repeat));
        Files.createDirectories(idx);
        Files.writeString(
            idx.resolve("index-progress.csv"),
            "seconds,accepted\n1.0,2400\n2.0,4800\n3.0,7100\n4.0,9500\n4.2,10000\n");
      }
    }
    return f.finish();
  }

  /** nodes x shards x threads, 3 values each, one repeat: more lines than a chart can hold. */
  static Path bigSweep(Path dir) throws IOException {
    RunFixture f = new RunFixture(dir, "big");
    int id = 0;
    for (int nodes = 1; nodes <= 3; nodes++) {
      for (int shards = 1; shards <= 3; shards++) {
        for (int threads : new int[] {1, 2, 4}) {
          Map<String, Object> params = new LinkedHashMap<>();
          params.put("cluster.nodes", nodes);
          params.put("collection.shards", shards);
          params.put("bench.threads", threads);
          f.combination(
              String.format("c%03d", ++id),
              params,
              1,
              new Load(threads, 3.0 + shards / (double) nodes, 1.0, id, 1, 5, 0, 0));
        }
      }
    }
    return f.finish();
  }

  /** One combination, one bench step per repeat, latencies times slowdown. */
  static Path single(Path dir, double slowdown, long seed, int repeats) throws IOException {
    RunFixture f = new RunFixture(dir, "single");
    for (int r = 1; r <= repeats; r++) {
      f.combination(
          "c001", Map.of("bench.threads", 4), r, new Load(4, 6.0, slowdown, seed + r, 5, 40, 0, 0));
    }
    return f.finish();
  }

  /**
   * threads 1, 2, 4: c001 measured, c002 a bench whose every request was a 404 (recorded failed, as
   * a run records it now), c003 the same as a run before runs recorded it: status done.
   */
  static Path allNotFound(Path dir) throws IOException {
    RunFixture f = new RunFixture(dir, "not-found");
    for (int t : new int[] {1, 2, 4}) {
      String id = "c00" + (t == 4 ? 3 : t);
      f.combination(id, Map.of("bench.threads", t), 1, new Load(t, 4.0, 1.0, t, 2, 20, 0, 0));
      if (t == 1) {
        continue;
      }
      ObjectNode c = (ObjectNode) f.combinations.get(f.combinations.size() - 1);
      ObjectNode bench = (ObjectNode) c.get("steps").get(1);
      ObjectNode summary = (ObjectNode) bench.get("summary");
      long count = summary.get("count").asLong();
      ObjectNode errors = summary.putObject("errors");
      errors.put("total", count);
      errors
          .putObject("by_kind")
          .putObject("http_404")
          .put("count", count)
          .putArray("samples")
          .add("404 Not Found: Collection: itemz not found");
      if (t == 2) {
        String why =
            "all of "
                + count
                + " requests failed (100.0 %, above the 1 % allowed); http_404: "
                + count;
        summary.put("failed", why).put("max_error_rate", 0.01);
        bench.put("status", "failed").put("reason", why);
        c.put("status", "failed").put("reason", "step 1 (bench search) measured nothing: " + why);
      } else {
        summary.remove("max_error_rate");
      }
      Files.writeString(
          dir.resolve(bench.get("dir").asText()).resolve("summary.json"), summary.toPrettyString());
    }
    return f.finish();
  }

  void combination(String id, Map<String, Object> params, int repeat, Load load)
      throws IOException {
    String cdir = id + "/r" + repeat;
    ObjectNode c = combinations.addObject();
    c.put("id", id);
    c.set("params", JSON.valueToTree(params));
    c.put("repeat", repeat);
    c.put("dir", cdir);
    c.put("status", "done");
    ArrayNode steps = c.putArray("steps");
    ObjectNode index = steps.addObject();
    index
        .put("index", 0)
        .put("kind", "index")
        .put("name", "load")
        .put("dir", cdir + "/s0-index-load");
    index.set(
        "summary",
        JSON.readTree(
            "{\"read\":10000,\"accepted\":10000,\"rejected\":0,\"retries\":0,"
                + "\"seconds\":4.2,\"docs_per_sec\":2380.9,\"mb_per_sec\":3.1,\"searchable_before\":0,"
                + "\"searchable_after\":10000,\"verified\":true}"));
    String sdir = cdir + "/s1-bench-search";
    ObjectNode bench = steps.addObject();
    bench.put("index", 1).put("kind", "bench").put("name", "search").put("dir", sdir);
    BenchSummary summary = bench(dir.resolve(sdir), load);
    JsonNode json = JSON.valueToTree(summary);
    Files.writeString(dir.resolve(sdir).resolve("summary.json"), json.toPrettyString());
    bench.set("summary", json);
    if (load.telemetryNodes() > 0) {
      bench.set("telemetry", telemetry(dir.resolve(sdir), load));
    }
  }

  /** telemetry.csv as `run` scrapes it every 2 s, and the per-node figures of results.json. */
  static JsonNode telemetry(Path stepDir, Load load) throws IOException {
    SplittableRandom random = new SplittableRandom(load.seed() + 7);
    StringBuilder csv = new StringBuilder("second,node,metric,value\n");
    ObjectNode perNode = JSON.createObjectNode();
    for (int n = 1; n <= load.telemetryNodes(); n++) {
      double cpuSum = 0;
      int samples = 0;
      for (int t = 0; t < load.warmupSeconds() + load.seconds(); t += 2) {
        double cpu =
            Math.min(1, 0.15 * load.threads() / load.telemetryNodes() + 0.05 * random.nextDouble());
        double heap = 180e6 + 4e6 * t + 20e6 * random.nextDouble();
        csv.append(
            String.format(
                Locale.ROOT,
                "%d.0,solr%d,cpu,%.4f%n%d.0,solr%d,heap_used,%.0f%n",
                t,
                n,
                cpu,
                t,
                n,
                heap));
        cpuSum += cpu;
        samples++;
      }
      ObjectNode m = perNode.putObject("solr" + n);
      m.put("cpu_percent", cpuSum / samples * 100)
          .put("heap_used_max_mb", 300.0)
          .put("gc_count", 3.0)
          .put("gc_ms", 41.0)
          .put("select_per_sec", 120.0 * load.threads())
          .put("queryResultCache_hit_ratio", 0.42);
    }
    perNode
        .putObject("zk1")
        .put("zk_avg_latency_ms", 0.4)
        .put("zk_max_latency_ms", 7.0)
        .put("zk_outstanding_max", 1.0);
    Files.writeString(stepDir.resolve("telemetry.csv"), csv);
    return perNode;
  }

  Path finish() throws IOException {
    ObjectNode results = JSON.createObjectNode();
    results.put("scenario", scenario);
    results.set("combinations", combinations);
    Files.writeString(dir.resolve("results.json"), results.toPrettyString());
    Files.writeString(
        dir.resolve("environment.json"),
        "{\"cpu_model\":\"Test CPU @ 2.0GHz\",\"cores\":2,"
            + "\"memory_bytes\":25769803776,\"os\":\"Linux\",\"kernel\":\"6.1.0\",\"java\":\"17.0.15\","
            + "\"solr_version\":\"9.10.1\",\"solrscale_version\":\"0.1.0-SNAPSHOT\",\"git_revision\":\"abc1234\","
            + "\"nodes\":[{\"id\":\"solr1\",\"jvm_args\":[\"-Xms512m\",\"-Xmx512m\",\"-XX:+UseG1GC\"]}]}");
    Files.writeString(dir.resolve("scenario.yaml"), "name: " + scenario + "\nrepeat: 2\n");
    return dir;
  }

  /** Runs a simulated closed loop through the bench's own RunLog; returns its summary. */
  static BenchSummary bench(Path out, Load load) {
    SplittableRandom random = new SplittableRandom(load.seed());
    Histogram total = new Histogram(3_600_000_000L, 3);
    Histogram[] byHits = new Histogram[12];
    long count = 0;
    long errors = 0;
    int totalSeconds = load.warmupSeconds() + load.seconds();
    try (RunLog log = new RunLog(0, 1_700_000_000_000L, out, i -> {})) {
      for (int s = 0; s < totalSeconds; s++) {
        boolean warmup = s < load.warmupSeconds();
        double cold = 1 + 4 * Math.exp(-s / 3.0);
        Histogram latency = new Histogram(3_600_000_000L, 3);
        double sum = 0;
        int n = 0;
        // a closed loop: as many requests as the threads finish in this second
        while (sum < 1000.0 * load.threads()) {
          double noise = Math.exp(0.35 * gaussian(random));
          int hitsBucket = random.nextInt(12);
          double ms = load.baseMs() * load.slowdown() * cold * noise * (0.6 + 0.08 * hitsBucket);
          latency.recordValue(Math.max(1, Math.round(ms * 1000)));
          if (!warmup) {
            if (byHits[hitsBucket] == null) {
              byHits[hitsBucket] = new Histogram(3_600_000_000L, 3);
            }
            byHits[hitsBucket].recordValue(Math.max(1, Math.round(ms * 1000)));
          }
          sum += ms;
          n++;
        }
        if (!warmup) {
          total.add(latency);
          count += n;
          errors += load.errorsPerSecond();
        }
        log.accept(
            List.of(
                new Interval(
                    s * NS,
                    (s + 1) * NS,
                    warmup,
                    latency,
                    latency.copy(),
                    new Histogram(3_600_000_000L, 3),
                    n,
                    warmup ? 0 : load.errorsPerSecond(),
                    n * 2048L)));
      }
    }
    double achieved = count / (double) load.seconds();
    List<BenchSummary.HitBucket> buckets = new ArrayList<>();
    for (int b = 0; b < byHits.length; b++) {
      if (byHits[b] != null) {
        long min = b == 0 ? 0 : 1L << (b - 1);
        long max = b == 0 ? 0 : (1L << b) - 1;
        buckets.add(
            new BenchSummary.HitBucket(
                min,
                max,
                byHits[b].getTotalCount(),
                byHits[b].getValueAtPercentile(50) / 1000.0,
                byHits[b].getValueAtPercentile(99) / 1000.0,
                byHits[b].getMaxValue() / 1000.0));
      }
    }
    Map<String, BenchSummary.ErrorKind> kinds = new LinkedHashMap<>();
    if (errors > 0) {
      kinds.put(
          "http_503",
          new BenchSummary.ErrorKind(
              errors, List.of("503 Service Unavailable: no servers hosting shard")));
    }
    return new BenchSummary(
        "closed",
        1_763_000_000_000L,
        count,
        new BenchSummary.Errors(errors, kinds),
        errors > 0 ? count / 10 : 0, // where a shard failed, tolerant requests answered partially
        new BenchSummary.Throughput(achieved, achieved),
        millis(total),
        millis(total),
        load.seconds() * 1000.0 * load.threads() / count * 1000,
        Map.of("p50", 2048.0),
        Map.of("p50", 120.0),
        buckets,
        List.of(
            new BenchSummary.TemplateRow(
                "q=body_t:{term}",
                count * 2 / 3,
                errors,
                millis(total).get("p50"),
                millis(total).get("p99"),
                41.5),
            new BenchSummary.TemplateRow(
                "q=body_t:{term}&facet=true&facet.field=category_s",
                count / 3,
                0,
                millis(total).get("p50") * 1.4,
                millis(total).get("p99") * 1.3,
                812.0)),
        null,
        new BenchSummary.Warmup(0, load.warmupSeconds()),
        load.seconds(),
        0,
        new BenchSummary.DriverHealth(12.5, 2, Map.of("p99", 0.1), "server"),
        0.5,
        null,
        load.threads(),
        null,
        null,
        null);
  }

  static Map<String, Double> millis(Histogram h) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (String[] p :
        new String[][] {
          {"p50", "50"},
          {"p75", "75"},
          {"p90", "90"},
          {"p95", "95"},
          {"p99", "99"},
          {"p99.9", "99.9"}
        }) {
      m.put(p[0], h.getValueAtPercentile(Double.parseDouble(p[1])) / 1000.0);
    }
    m.put("max", h.getMaxValue() / 1000.0);
    m.put("mean", h.getMean() / 1000.0);
    return m;
  }

  private static double gaussian(SplittableRandom r) {
    double u = Math.max(1e-12, r.nextDouble());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
  }
}
