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
  @JsonSubTypes.Type(value = StepSpec.Collection.class, name = "collection")
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
}
