package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * One step of a scenario, written as a one-key map whose key is the kind: {@code - index: {...}},
 * {@code - bench: {...}}, {@code - wait: 5s}, {@code - restart: {nodes: all}}, {@code - collection:
 * {...}}. Each kind is a record; the scenario runner has one runner per kind.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.WRAPPER_OBJECT)
@JsonSubTypes({
  @JsonSubTypes.Type(value = StepSpec.Index.class, name = "index"),
  @JsonSubTypes.Type(value = StepSpec.Bench.class, name = "bench"),
  @JsonSubTypes.Type(value = StepSpec.Wait.class, name = "wait"),
  @JsonSubTypes.Type(value = StepSpec.Restart.class, name = "restart"),
  @JsonSubTypes.Type(value = StepSpec.Collection.class, name = "collection"),
  @JsonSubTypes.Type(value = StepSpec.Fault.class, name = "fault"),
  @JsonSubTypes.Type(value = StepSpec.Chaos.class, name = "chaos")
})
public sealed interface StepSpec {
  /** The step's kind, as written in the scenario. */
  String kind();

  /** A name for result directories and reports. */
  String name();

  /** Index the scenario's corpus (or {@code files}) into a collection. */
  record Index(@JsonProperty("name") String name, @JsonProperty("collection") String collection,
      @JsonProperty("files") List<String> files, @JsonProperty("threads") Integer threads,
      @JsonProperty("batch") Integer batch, @JsonProperty("commit") String commit)
      implements StepSpec {
    public Index {
      name = name == null ? "index" : name;
      files = files == null ? List.of() : List.copyOf(files);
      batch = batch == null ? 1000 : batch;
      commit = commit == null ? "end" : commit;
    }

    @Override
    public String kind() {
      return "index";
    }
  }

  /** Run the load driver; the options are `solrscale bench`'s. */
  record Bench(@JsonProperty("name") String name, @JsonProperty("collection") String collection,
      @JsonProperty("queries") String queries, @JsonProperty("threads") Integer threads,
      @JsonProperty("rate") String rate, @JsonProperty("arrivals") String arrivals,
      @JsonProperty("step_duration") String stepDuration, @JsonProperty("duration") String duration,
      @JsonProperty("requests") Long requests, @JsonProperty("warmup") String warmup,
      @JsonProperty("warmup_requests") Long warmupRequests, @JsonProperty("order") String order,
      @JsonProperty("zipf") Double zipf, @JsonProperty("seed") Long seed,
      @JsonProperty("timeout") String timeout, @JsonProperty("routing") String routing,
      @JsonProperty("shards_preference") String shardsPreference,
      @JsonProperty("shards_tolerant") Boolean shardsTolerant,
      @JsonProperty("compression") String compression,
      @JsonProperty("connections") Integer connections) implements StepSpec {
    public Bench {
      name = name == null ? "bench" : name;
      arrivals = arrivals == null ? "uniform" : arrivals;
      stepDuration = stepDuration == null ? "30s" : stepDuration;
      warmup = warmup == null ? "10s" : warmup;
      order = order == null ? "random" : order;
      zipf = zipf == null ? 0 : zipf;
      seed = seed == null ? 42L : seed;
      timeout = timeout == null ? "10s" : timeout;
      routing = routing == null ? "cloud" : routing;
      shardsTolerant = shardsTolerant != null && shardsTolerant;
      connections = connections == null ? 32 : connections;
    }

    @Override
    public String kind() {
      return "bench";
    }
  }

  /** Do nothing for a while, e.g. to let merges settle. */
  record Wait(String duration) implements StepSpec {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public Wait {}

    @Override
    public String kind() {
      return "wait";
    }

    @Override
    public String name() {
      return "wait";
    }
  }

  /** Restart Solr nodes ({@code all}, or ids), for unwarmed measurements. */
  record Restart(@JsonProperty("name") String name, @JsonProperty("nodes") List<String> nodes)
      implements StepSpec {
    public Restart {
      name = name == null ? "restart" : name;
      nodes = nodes == null ? List.of("all") : List.copyOf(nodes);
    }

    @Override
    public String kind() {
      return "restart";
    }
  }

  /** A Collections API operation: create, delete, split-shard, add-replica. */
  record Collection(@JsonProperty("name") String name, @JsonProperty("action") String action,
      @JsonProperty("collection") String collection, @JsonProperty("shards") Integer shards,
      @JsonProperty("replicas") Integer replicas, @JsonProperty("shard") String shard)
      implements StepSpec {
    public Collection {
      name = name == null ? "collection" : name;
    }

    @Override
    public String kind() {
      return "collection";
    }
  }

  /**
   * A fault, injected {@code at} after the start of the next step that is not a fault (so it runs
   * alongside that index, bench or chaos step) and healed after {@code duration}. Kinds: kill,
   * stop, pause, zk-kill, zk-quorum, rolling-restart, monkey.
   */
  record Fault(@JsonProperty("name") String name, @JsonProperty("fault") String fault,
      @JsonProperty("target") String target, @JsonProperty("at") String at,
      @JsonProperty("duration") String duration, @JsonProperty("seed") Long seed,
      @JsonProperty("unsafe") Boolean unsafe, @JsonProperty("faults") List<String> faults,
      @JsonProperty("interval") String interval, @JsonProperty("fault_duration") String faultDuration)
      implements StepSpec {
    /** The fault kinds there are. */
    public static final List<String> KINDS = List.of("kill", "stop", "pause", "zk-kill", "zk-quorum",
        "rolling-restart", "monkey");
    /** The kinds a monkey may draw from. */
    public static final List<String> MONKEY_KINDS = List.of("kill", "stop", "pause", "zk-kill", "zk-quorum");

    public Fault {
      if (fault == null) {
        throw new IllegalArgumentException("a fault step needs 'fault:' (kill, stop, pause, zk-kill, "
            + "zk-quorum, rolling-restart or monkey)");
      }
      name = name == null ? fault : name;
      at = at == null ? "0s" : at;
      duration = duration == null ? "10s" : duration;
      seed = seed == null ? 42L : seed;
      unsafe = unsafe != null && unsafe;
      faults = faults == null ? List.of("kill", "pause") : List.copyOf(faults);
      interval = interval == null ? "20s" : interval;
      faultDuration = faultDuration == null ? "10s" : faultDuration;
    }

    /** What is wrong with this fault (an unknown kind, a bad duration), or null. */
    public String problem() {
      if (!KINDS.contains(fault)) {
        return "unknown fault '" + fault + "'; use one of " + String.join(", ", KINDS);
      }
      for (String d : List.of(at, duration, interval, faultDuration)) {
        try {
          Durations.parse(d);
        } catch (IllegalArgumentException e) {
          return e.getMessage();
        }
      }
      if (fault.equals("monkey")) {
        for (String k : faults) {
          if (!MONKEY_KINDS.contains(k)) {
            return "the monkey cannot use '" + k + "'; use " + String.join(", ", MONKEY_KINDS);
          }
        }
      }
      return null;
    }

    @Override
    public String kind() {
      return "fault";
    }
  }

  /**
   * The workload for faults: writes of unique ids at a steady rate and queries, every outcome in a
   * history, then (after healing) the checkers: loss, replica agreement, recovery, availability.
   */
  record Chaos(@JsonProperty("name") String name, @JsonProperty("collection") String collection,
      @JsonProperty("duration") String duration, @JsonProperty("after") String after,
      @JsonProperty("write_rate") Double writeRate,
      @JsonProperty("batch") Integer batch, @JsonProperty("query_rate") Double queryRate,
      @JsonProperty("timeout") String timeout) implements StepSpec {
    public Chaos {
      name = name == null ? "chaos" : name;
      duration = duration == null ? "60s" : duration;
      after = after == null ? "10s" : after;
      writeRate = writeRate == null ? 200.0 : writeRate;
      batch = batch == null ? 10 : batch;
      queryRate = queryRate == null ? 10.0 : queryRate;
      timeout = timeout == null ? "10s" : timeout;
    }

    @Override
    public String kind() {
      return "chaos";
    }
  }
}
