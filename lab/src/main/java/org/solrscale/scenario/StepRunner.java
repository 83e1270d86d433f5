package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.solrscale.chaos.ChaosRun;
import org.solrscale.chaos.FaultRecord;
import org.solrscale.chaos.FaultRunner;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.Target;
import org.solrscale.index.BulkIndexer;
import org.solrscale.index.IndexOptions;
import org.solrscale.load.Bench;
import org.solrscale.load.BenchPlan;
import org.solrscale.load.Clock;
import org.solrscale.load.Driver;
import org.solrscale.load.HttpSender;
import org.solrscale.load.LoadModel;
import org.solrscale.load.Workload;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.Durations;
import org.solrscale.spec.ErrorRate;
import org.solrscale.spec.ReplicaCounts;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/** Runs one step of a scenario against a running cluster and returns what it measured. */
final class StepRunner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final Target target;
  private final DataPrep.Data data;
  private final String defaultCollection;
  private final java.util.function.Consumer<String> progress;
  private final Path scenarioDir;

  StepRunner(Target target, DataPrep.Data data, String defaultCollection, Path scenarioDir,
      java.util.function.Consumer<String> progress) {
    this.progress = progress;
    this.scenarioDir = scenarioDir;
    this.target = target;
    this.data = data;
    this.defaultCollection = defaultCollection;
  }

  /**
   * Runs {@code step} with {@code faults} injected alongside it (their offsets counting from the
   * step's start; faults.json records what they did); returns its summary (or null).
   */
  JsonNode run(StepSpec step, Path dir, List<StepSpec.Fault> faults) throws InterruptedException {
    if (step instanceof StepSpec.Chaos c) {
      return JSON.valueToTree(ChaosRun.run(target, new ChaosRun.Options(collection(c.collection()),
          Durations.parse(c.duration()), Durations.parse(c.after()), c.writeRate(), c.batch(),
          c.queryRate(), Durations.parse(c.timeout()), dir), faults, progress));
    }
    if (faults.isEmpty()) {
      return run(step, dir, false);
    }
    FaultRunner runner = new FaultRunner(cluster(), defaultCollection, null, progress);
    runner.start(faults);
    try {
      return run(step, dir, true);
    } finally {
      List<FaultRecord> records = runner.finish();
      try {
        JSON.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("faults.json").toFile(), records);
      } catch (java.io.IOException e) {
        throw SolrscaleException.environment("cannot write faults.json: " + e.getMessage());
      }
    }
  }

  /**
   * Runs {@code step}, its files going to {@code dir}; returns its summary (or null). {@code
   * faulted}: faults run alongside it.
   */
  JsonNode run(StepSpec step, Path dir, boolean faulted) throws InterruptedException {
    if (step instanceof StepSpec.Index i) {
      return index(i, dir);
    }
    if (step instanceof StepSpec.Bench b) {
      return bench(b, dir, faulted);
    }
    if (step instanceof StepSpec.Wait w) {
      Thread.sleep(Durations.parse(w.duration()).toMillis());
      return null;
    }
    if (step instanceof StepSpec.Restart r) {
      return restart(r);
    }
    return collection((StepSpec.Collection) step);
  }

  private String collection(String c) {
    return c != null ? c : defaultCollection;
  }

  private JsonNode index(StepSpec.Index i, Path dir) {
    List<Path> files = i.files().isEmpty() ? data.corpus()
        : org.solrscale.data.Inputs.expand(i.files().stream().map(f -> DataPrep.resolve(scenarioDir, f)).toList());
    int threads = i.threads() != null ? i.threads() : Math.max(2, Runtime.getRuntime().availableProcessors());
    IndexOptions o = new IndexOptions(files, null, collection(i.collection()), threads, i.batch(),
        IndexOptions.parseCommit(i.commit()), null, dir.resolve("rejects.jsonl"), 9);
    try (CloudHttp2SolrClient client = new CloudHttp2SolrClient.Builder(target.solrUrls()).build()) {
      return JSON.valueToTree(new BulkIndexer(client, o, s -> { }, p -> { }).run());
    } catch (java.io.IOException e) {
      throw SolrscaleException.environment("cannot close the Solr client: " + e.getMessage());
    }
  }

  private JsonNode bench(StepSpec.Bench b, Path dir, boolean faulted) throws InterruptedException {
    List<Workload.Part> parts = b.queries() != null ? Workload.parseMix(b.queries(), scenarioDir)
        : data.queries().stream().map(q -> new Workload.Part(q, 1, org.solrscale.load.QueryFile.read(q))).toList();
    Workload w = new Workload(parts, b.order().equals("sequential"), b.zipf(), b.seed());
    LoadModel model = BenchPlan.model(b.threads(), b.rate(), b.arrivals(),
        Durations.parse(b.stepDuration()).toNanos());
    Driver.Bounds bounds = BenchPlan.bounds(Durations.parse(b.warmup()).toNanos(), b.warmupRequests(),
        b.duration() == null ? null : Durations.parse(b.duration()).toNanos(), b.requests());
    long timeout = Durations.parse(b.timeout()).toMillis();
    try (HttpSender sender = BenchPlan.sender(b.routing(), urls(b.routing()), collection(b.collection()),
        BenchPlan.extraParams(b.shardsPreference(), b.shardsTolerant()), b.compression(), timeout,
        b.connections())) {
      double maxErrors = ErrorRate.parse(b.maxErrorRate() != null ? b.maxErrorRate() : faulted ? "100%"
          : ErrorRate.DEFAULT);
      return JSON.valueToTree(Bench.run(new Bench.Options(w, model, bounds, b.seed(),
          timeout * 1_000_000L, dir, maxErrors), sender, Clock.SYSTEM, i -> { }));
    }
  }

  private List<String> urls(String routing) {
    if (routing.startsWith("node:")) {
      String id = routing.substring(5);
      if (id.startsWith("http")) {
        return List.of(id);
      }
      return List.of(cluster().requireState().find(id).filter(NodeState::isSolr).map(NodeState::baseUrl)
          .orElseThrow(() -> SolrscaleException.usage("bench routing: no Solr node '" + id + "'")));
    }
    return target.solrUrls();
  }

  /** The cluster solrscale started (restarts, collection steps and faults need one; checked before the run). */
  private Cluster cluster() {
    return target.cluster().orElseThrow(() -> SolrscaleException.usage("this step needs a cluster solrscale "
        + "started, not " + target.describe()));
  }

  private JsonNode restart(StepSpec.Restart r) {
    List<String> ids = r.nodes().contains("all")
        ? cluster().requireState().solrNodes().stream().map(NodeState::id).toList() : r.nodes();
    for (String id : ids) {
      cluster().node(Cluster.NodeOp.RESTART, id, TIMEOUT);
    }
    cluster().waitForCollections(TIMEOUT);
    return JSON.valueToTree(java.util.Map.of("restarted", ids));
  }

  private JsonNode collection(StepSpec.Collection c) {
    String name = collection(c.collection());
    switch (c.action() == null ? "" : c.action()) {
      case "create" -> cluster().createCollection(new CollectionSpec(name, c.shards(),
          ReplicaCounts.nrt(c.replicas() == null ? 1 : c.replicas()), null, null, null), TIMEOUT);
      case "delete" -> cluster().deleteCollection(name);
      case "split-shard", "add-replica" -> {
        try (CloudHttp2SolrClient client = new CloudHttp2SolrClient.Builder(cluster().solrUrls()).build()) {
          String shard = c.shard() == null ? "shard1" : c.shard();
          var req = c.action().equals("split-shard")
              ? CollectionAdminRequest.splitShard(name).setShardName(shard)
              : CollectionAdminRequest.addReplicaToShard(name, shard);
          req.process(client);
        } catch (Exception e) {
          throw SolrscaleException.failed(c.action() + " on " + name + " failed: " + e.getMessage());
        }
        cluster().waitForCollections(TIMEOUT);
      }
      default -> throw SolrscaleException.usage("collection step: action must be create, delete, "
          + "split-shard or add-replica; got '" + c.action() + "'");
    }
    return JSON.valueToTree(shape(c.action(), name));
  }

  /** What the collection looks like after the operation: active shards and their replicas. */
  private java.util.Map<String, Object> shape(String action, String name) {
    java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("action", action);
    out.put("collection", name);
    cluster().status(false).collections().stream().filter(s -> s.name().equals(name)).findFirst()
        .ifPresent(s -> {
          var active = s.shards().stream().filter(sh -> "active".equals(sh.state())).toList();
          out.put("active_shards", active.size());
          out.put("replicas", active.stream().mapToInt(sh -> sh.replicas().size()).sum());
        });
    return out;
  }
}
