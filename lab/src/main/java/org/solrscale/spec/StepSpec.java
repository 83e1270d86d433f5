package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One step of a scenario, written as a one-key map whose key is the kind: {@code - index: {...}},
 * {@code - bench: {...}}, {@code - wait: 5s}, {@code - restart: {nodes: all}}, {@code - collection:
 * {...}}. Each kind is a record, registered with its key in {@link StepKinds}; the scenario layer
 * runs each with its own action.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.WRAPPER_OBJECT)
public interface StepSpec {
  /** The step's kind, as written in the scenario (its key in {@link StepKinds}). */
  default String kind() {
    return StepKinds.of(this).name();
  }

  /** A name for result directories and reports. */
  String name();

  /**
   * Whether the step is recorded with Java Flight Recorder ({@code profile: true}); only steps that
   * put load on the cluster (index, bench, chaos) have the setting.
   */
  default Boolean profile() {
    return null;
  }

  /**
   * What is wrong with this step where it runs ({@code c}), each problem at the pointer of its
   * setting inside the step ({@code /duration}); empty when it can run.
   */
  default List<Problem> problems(StepContext c) {
    return List.of();
  }

  /** The collection the step works on (its own or the scenario's first), or null for none. */
  default String collectionIn(StepContext c) {
    return null;
  }

  /**
   * The collections there are after this step (name to shards), given those before; most keep them.
   */
  default Map<String, Integer> collectionsAfter(Map<String, Integer> before, StepContext c) {
    return before;
  }

  /**
   * Templates as written, a list or comma-separated ({@code [term, sort]}, {@code "term,sort"}).
   */
  private static List<String> templateList(List<String> templates) {
    return templates == null
        ? null
        : templates.stream()
            .flatMap(t -> java.util.Arrays.stream(t.split(",")))
            .map(String::strip)
            .filter(t -> !t.isEmpty())
            .toList();
  }

  /** A step that works on a collection: the one it names, or the scenario's first. */
  interface OnCollection extends StepSpec {
    String collection();

    @Override
    default String collectionIn(StepContext c) {
      return collection() != null ? collection() : c.defaultCollection();
    }
  }

  /** Index the scenario's corpus (or {@code files}) into a collection. */
  record Index(
      @JsonProperty("name") String name,
      @JsonProperty("collection") String collection,
      @JsonProperty("files") List<String> files,
      @JsonProperty("threads") Integer threads,
      @JsonProperty("batch") Integer batch,
      @JsonProperty("commit") String commit,
      @JsonProperty("profile") Boolean profile)
      implements OnCollection {
    public Index {
      name = name == null ? "index" : name;
      files = files == null ? List.of() : List.copyOf(files);
      batch = batch == null ? 1000 : batch;
      commit = commit == null ? "end" : commit;
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      Checks.collection(out, this, c, collection != null);
      Checks.range(out, "/threads", "threads", threads, 1, 256);
      Checks.range(out, "/batch", "batch", batch, 1, 100_000);
      if (!commit.matches("(?i)\\s*(end|none|(every\\s*)?[1-9][0-9]*)\\s*")) {
        out.add(
            Problem.error("commit '" + commit + "' is not end, none or 'every N' (N >= 1)")
                .at("/commit"));
      }
      return out;
    }
  }

  /**
   * Run the load driver; the options are `solrscale bench`'s. {@code max_error_rate}: above this
   * share of failed requests the step measured nothing (default 1 %, or 100 % when faults run
   * alongside it, where errors are what is measured).
   */
  record Bench(
      @JsonProperty("name") String name,
      @JsonProperty("collection") String collection,
      @JsonProperty("queries") String queries,
      @JsonProperty("templates") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          List<String> templates,
      @JsonProperty("threads") Integer threads,
      @JsonProperty("rate") String rate,
      @JsonProperty("arrivals") String arrivals,
      @JsonProperty("step_duration") String stepDuration,
      @JsonProperty("duration") String duration,
      @JsonProperty("requests") Long requests,
      @JsonProperty("warmup") String warmup,
      @JsonProperty("warmup_requests") Long warmupRequests,
      @JsonProperty("order") String order,
      @JsonProperty("zipf") Double zipf,
      @JsonProperty("seed") Long seed,
      @JsonProperty("timeout") String timeout,
      @JsonProperty("routing") String routing,
      @JsonProperty("shards_preference") String shardsPreference,
      @JsonProperty("shards_tolerant") Boolean shardsTolerant,
      @JsonProperty("time_allowed") String timeAllowed,
      @JsonProperty("compression") String compression,
      @JsonProperty("connections") Integer connections,
      @JsonProperty("max_error_rate") String maxErrorRate,
      @JsonProperty("drivers") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          List<String> drivers,
      @JsonProperty("profile") Boolean profile,
      @JsonProperty("replay") String replay,
      @JsonProperty("speed") Double speed,
      @JsonProperty("max_gap") String maxGap,
      @JsonProperty("loop") Boolean loop,
      @JsonProperty("slower_than") Double slowerThan,
      @JsonProperty("attribute") String attribute)
      implements OnCollection {
    /**
     * The share of requests sampled with shards.info for the tail's attribution, or null for none;
     * IllegalArgumentException for one that is no share.
     */
    public Double attributeShare() {
      return attribute == null ? null : attributeShare(attribute);
    }

    /** "5%", "0.05" -> 0.05; IllegalArgumentException with a one-line reason otherwise. */
    public static double attributeShare(String text) {
      String v = text.strip();
      try {
        double x =
            v.endsWith("%")
                ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100
                : Double.parseDouble(v);
        if (x > 0 && x <= 1) {
          return x;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new IllegalArgumentException(
          "attribute '" + text + "' is not a share of requests above 0, like 5% or 0.05");
    }

    public Bench {
      speed = speed == null ? 1 : speed;
      loop = loop != null && loop;
      slowerThan = slowerThan == null ? 3 : slowerThan;
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
      drivers = drivers == null ? null : List.copyOf(drivers);
      templates = templateList(templates);
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      if (attribute != null) {
        try {
          attributeShare(attribute);
        } catch (IllegalArgumentException e) {
          out.add(Problem.error("bench step '" + name + "': " + e.getMessage()).at("/attribute"));
        }
        if (drivers != null) {
          out.add(
              Problem.error(
                      "bench step '"
                          + name
                          + "': attribute samples on one driver; leave out drivers for it")
                  .at("/attribute"));
        }
      }
      if ((threads != null ? 1 : 0) + (rate != null ? 1 : 0) + (replay != null ? 1 : 0) != 1) {
        out.add(
            Problem.error(
                "bench step '" + name + "' needs exactly one of threads, rate or replay"));
      }
      if (replay != null) {
        if (queries != null || templates != null) {
          out.add(
              Problem.error(
                      "bench step '"
                          + name
                          + "': replay sends the logged requests; leave out queries and templates")
                  .at("/replay"));
        }
        if (!(speed > 0) || speed.isInfinite()) {
          out.add(
              Problem.error("speed " + speed + " must be above 0, e.g. 1, 2 or 0.5").at("/speed"));
        }
        Checks.duration(out, "/max_gap", maxGap);
        if (!(slowerThan > 0)) {
          out.add(Problem.error("slower_than must be above 0, e.g. 3").at("/slower_than"));
        }
        if (loop && duration == null && requests == null) {
          out.add(
              Problem.error(
                      "bench step '"
                          + name
                          + "': loop replays the log again and again; give duration to end it")
                  .at("/loop"));
        }
      } else if (maxGap != null || loop || speed != 1) {
        out.add(
            Problem.error(
                    "bench step '"
                        + name
                        + "': speed, max_gap and loop are for a replay: give replay")
                .at(maxGap != null ? "/max_gap" : loop ? "/loop" : "/speed"));
      }
      Checks.collection(out, this, c, collection != null);
      Checks.range(out, "/threads", "threads", threads, 1, 100_000);
      if (rate != null) {
        Checks.problem(out, "/rate", () -> Rates.parse(rate));
      }
      Checks.oneOf(out, "/arrivals", "arrivals", arrivals, Arrivals.NAMES);
      Checks.oneOf(out, "/order", "order", order, QueryOrder.NAMES);
      Checks.duration(out, "/step_duration", stepDuration);
      Checks.duration(out, "/duration", duration);
      Checks.duration(out, "/time_allowed", timeAllowed);
      if (timeAllowed != null
          && out.stream().noneMatch(p -> "/time_allowed".equals(p.path()))
          && Durations.parse(timeAllowed).toMillis() < 1) {
        out.add(Problem.error("time_allowed must be 1ms or more, e.g. 100ms").at("/time_allowed"));
      }
      Checks.duration(out, "/warmup", warmup);
      Checks.duration(out, "/timeout", timeout);
      Checks.range(out, "/requests", "requests", requests, 1, Long.MAX_VALUE);
      Checks.range(out, "/warmup_requests", "warmup_requests", warmupRequests, 1, Long.MAX_VALUE);
      if (zipf < 0) {
        out.add(Problem.error("zipf " + zipf + " must be 0 (uniform) or more").at("/zipf"));
      }
      Routing parsed = null;
      try {
        parsed = Routing.parse(routing);
      } catch (IllegalArgumentException e) {
        out.add(Problem.error(e.getMessage()).at("/routing"));
      }
      if (parsed != null && parsed.mode() == Routing.Mode.NODE) {
        String id = parsed.node();
        if (!c.knowsCollections() && !id.startsWith("http")) {
          out.add(
              Problem.error(
                      "routing '"
                          + routing
                          + "': on a SolrCloud solrscale did not start a node is "
                          + "named by its URL, node:http://HOST:PORT/solr")
                  .at("/routing"));
        } else if (c.knowsCollections() && !c.solrNodeIds().contains(id)) {
          out.add(
              Problem.error(
                      "routing '"
                          + routing
                          + "' names no Solr node of this cluster; it has "
                          + String.join(", ", c.solrNodeIds()))
                  .at("/routing"));
        }
      }
      if (compression != null && !compression.equals("gzip")) {
        out.add(
            Problem.error("compression takes gzip; got '" + compression + "'").at("/compression"));
      }
      Checks.range(out, "/connections", "connections", connections, 1, 10_000);
      if (maxErrorRate != null) {
        Checks.problem(out, "/max_error_rate", () -> ErrorRate.parse(maxErrorRate));
      }
      if (drivers != null) {
        if (drivers.isEmpty() || drivers.stream().anyMatch(d -> d == null || d.isBlank())) {
          out.add(Problem.error("bench step '" + name + "': drivers lists no host").at("/drivers"));
        } else if (drivers.stream().distinct().count() < drivers.size()) {
          out.add(
              Problem.error("bench step '" + name + "': a host is listed twice in drivers")
                  .at("/drivers"));
        }
        if (requests != null || warmupRequests != null) {
          out.add(
              Problem.error(
                      "bench step '"
                          + name
                          + "': drivers run for a time; give duration and warmup, not requests or"
                          + " warmup_requests")
                  .at(requests != null ? "/requests" : "/warmup_requests"));
        }
        if (threads != null && threads < drivers.size()) {
          out.add(
              Problem.error(
                      "bench step '"
                          + name
                          + "': threads "
                          + threads
                          + " are fewer than its "
                          + drivers.size()
                          + " drivers")
                  .at("/threads"));
        }
      }
      return out;
    }

    /** The routing, parsed (the loader has refused a bad one). */
    public Routing routingParsed() {
      return Routing.parse(routing);
    }

    /** The arrivals, parsed (the loader has refused bad ones). */
    public Arrivals arrivalsParsed() {
      return Arrivals.parse(arrivals);
    }

    /** The order, parsed (the loader has refused a bad one). */
    public QueryOrder orderParsed() {
      return QueryOrder.parse(order);
    }
  }

  /**
   * Find the highest open-loop query rate that meets {@code slo} (solrscale capacity): doubling
   * from {@code start_rate} (none: a share of what a short closed loop reached), then bisection to
   * {@code tolerance} percent, each probe with its own warm-up and long enough for the objective's
   * percentile, or shorter once its verdict is clear (unless {@code full_probes}). {@code target}
   * (e.g. {@code rate=500}) is the rate the report recommends a topology for.
   */
  record Capacity(
      @JsonProperty("name") String name,
      @JsonProperty("collection") String collection,
      @JsonProperty("queries") String queries,
      @JsonProperty("templates") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          List<String> templates,
      @JsonProperty("slo") String slo,
      @JsonProperty("start_rate") Double startRate,
      @JsonProperty("max_rate") Double maxRate,
      @JsonProperty("tolerance") Double tolerance,
      @JsonProperty("warmup") String warmup,
      @JsonProperty("min_duration") String minDuration,
      @JsonProperty("max_probes") Integer maxProbes,
      @JsonProperty("arrivals") String arrivals,
      @JsonProperty("connections") Integer connections,
      @JsonProperty("seed") Long seed,
      @JsonProperty("timeout") String timeout,
      @JsonProperty("target") String target,
      @JsonProperty("profile") Boolean profile,
      @JsonProperty("replay") String replay,
      @JsonProperty("max_gap") String maxGap,
      @JsonProperty("full_probes") Boolean fullProbes)
      implements OnCollection {
    public Capacity {
      name = name == null ? "capacity" : name;
      fullProbes = fullProbes != null && fullProbes;
      tolerance = tolerance == null ? 5.0 : tolerance;
      warmup = warmup == null ? "5s" : warmup;
      minDuration = minDuration == null ? "5s" : minDuration;
      maxProbes = maxProbes == null ? 24 : maxProbes;
      arrivals = arrivals == null ? "uniform" : arrivals;
      connections = connections == null ? 64 : connections;
      seed = seed == null ? 42L : seed;
      timeout = timeout == null ? "10s" : timeout;
      templates = templateList(templates);
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      Checks.collection(out, this, c, collection != null);
      if (replay != null && (queries != null || templates != null)) {
        out.add(
            Problem.error(
                    "capacity step '"
                        + name
                        + "': replay sends the logged requests; leave out queries and templates")
                .at("/replay"));
      }
      if (maxGap != null && replay == null) {
        out.add(
            Problem.error("capacity step '" + name + "': max_gap is for a replay: give replay")
                .at("/max_gap"));
      }
      Checks.duration(out, "/max_gap", maxGap);
      if (slo == null) {
        out.add(
            Problem.error(
                "capacity step '" + name + "' needs an slo, e.g. slo: 'p99<200ms,errors<0.1%'"));
      } else {
        try {
          Slo.parse(slo);
        } catch (SolrscaleException e) {
          out.add(Problem.error(e.getMessage()).at("/slo"));
        }
      }
      if (target != null) {
        try {
          CapacityTarget.parse(target);
        } catch (SolrscaleException e) {
          out.add(Problem.error(e.getMessage()).at("/target"));
        }
      }
      if (startRate != null && !(startRate > 0)) {
        out.add(
            Problem.error("start_rate must be above 0, e.g. 10 (or leave it out: found by a ramp)")
                .at("/start_rate"));
      }
      if (maxRate != null && !(maxRate > 0)) {
        out.add(Problem.error("max_rate must be above 0").at("/max_rate"));
      } else if (maxRate != null && startRate != null && !(maxRate >= startRate)) {
        out.add(
            Problem.error("max_rate must be at least start_rate (" + Slo.fmt(startRate) + ")")
                .at("/max_rate"));
      }
      if (!(tolerance > 0 && tolerance < 100)) {
        out.add(
            Problem.error("tolerance is a percentage between 0 and 100, e.g. 5").at("/tolerance"));
      }
      Checks.range(out, "/max_probes", "max_probes", maxProbes, 2, 1000);
      Checks.range(out, "/connections", "connections", connections, 1, 10_000);
      Checks.oneOf(out, "/arrivals", "arrivals", arrivals, Arrivals.NAMES);
      Checks.duration(out, "/warmup", warmup);
      Checks.duration(out, "/min_duration", minDuration);
      Checks.duration(out, "/timeout", timeout);
      return out;
    }
  }

  /** Do nothing for a while, e.g. to let merges settle. */
  record Wait(String duration) implements StepSpec {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public Wait {}

    @Override
    public String name() {
      return "wait";
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      if (duration == null) {
        out.add(Problem.error("a wait step needs a duration, e.g. - wait: 5s"));
      }
      Checks.duration(out, "", duration);
      return out;
    }
  }

  /** Restart Solr nodes ({@code all}, or ids), for unwarmed measurements. */
  record Restart(
      @JsonProperty("name") String name,
      @JsonProperty("nodes") List<String> nodes,
      @JsonProperty("drop_caches") Boolean dropCaches)
      implements StepSpec {
    public Restart {
      name = name == null ? "restart" : name;
      nodes = nodes == null ? List.of("all") : List.copyOf(nodes);
      dropCaches = dropCaches != null && dropCaches;
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      for (String id : nodes) {
        if (!id.equals("all") && !c.solrNodeIds().contains(id)) {
          out.add(
              Problem.error(
                      "'"
                          + id
                          + "' is no Solr node of this cluster; give all or some of "
                          + String.join(", ", c.solrNodeIds()))
                  .at("/nodes"));
        }
      }
      return out;
    }
  }

  /**
   * What the cluster's hosts give its nodes, changed for the rest of the repeat (and back after
   * it): the memory limit of the nodes' cgroup on each host ({@code memory}, or {@code page_cache}:
   * what the nodes hold now plus this much for the page cache), transparent huge pages ({@code
   * thp}), a swap file ({@code swap}: a size, or {@code off}) and the reads a second the nodes may
   * make from their disk ({@code read_iops}: a slower disk; 0 for no throttle, e.g. in a matrix).
   */
  record Limits(
      @JsonProperty("name") String name,
      @JsonProperty("hosts") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          List<String> hosts,
      @JsonProperty("memory") String memory,
      @JsonProperty("page_cache") String pageCache,
      @JsonProperty("thp") String thp,
      @JsonProperty("swap") String swap,
      @JsonProperty("read_iops") Integer readIops)
      implements StepSpec {
    public static final List<String> THP = List.of("always", "madvise", "never");

    public Limits {
      name = name == null ? "limits" : name;
      hosts = hosts == null ? null : List.copyOf(hosts);
      // YAML reads a bare off as false
      swap = swap == null ? null : swap.equals("false") || swap.equals("0") ? "off" : swap;
    }

    /** The swap file's size in bytes, 0 for {@code off}, -1 when the step leaves swap alone. */
    public long swapBytes() {
      return swap == null ? -1 : swap.equals("off") ? 0 : Sizes.bytes(swap);
    }

    /** The hosts the step changes: those it names, else every host of the cluster. */
    public List<String> hostsIn(StepContext c) {
      return hosts != null ? hosts : c.hosts().stream().map(HostSpec::ssh).toList();
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      if (memory == null && pageCache == null && thp == null && swap == null && readIops == null) {
        out.add(
            Problem.error(
                "a limits step changes memory, page_cache, thp, swap or read_iops; give one, e.g."
                    + " - limits: {page_cache: 100m}"));
      }
      Checks.range(out, "/read_iops", "read_iops", readIops, 0, 10_000_000);
      if (memory != null && pageCache != null) {
        out.add(
            Problem.error(
                    "give memory (the limit itself) or page_cache (room for the cache beside what"
                        + " the nodes hold), not both")
                .at("/page_cache"));
      }
      for (String[] size : new String[][] {{"memory", memory}, {"page_cache", pageCache}}) {
        if (size[1] != null && Sizes.bytes(size[1]) <= 0) {
          out.add(
              Problem.error(size[0] + " '" + size[1] + "' is not a size like 100m or 2g")
                  .at("/" + size[0]));
        }
      }
      if (swap != null && !swap.equals("off") && Sizes.bytes(swap) < (1 << 20)) {
        out.add(
            Problem.error("swap '" + swap + "' is not off or a size of at least 1m, like 512m")
                .at("/swap"));
      }
      Checks.oneOf(out, "/thp", "thp", thp, THP);
      if (c.hosts().isEmpty()) {
        out.add(
            Problem.error(
                "a limits step changes what the cluster's hosts give its nodes; this cluster runs"
                    + " on this machine (give it hosts:, e.g. lab hosts of net up)"));
        return out;
      }
      List<String> known = c.hosts().stream().map(HostSpec::ssh).toList();
      for (String h : hostsIn(c)) {
        HostSpec spec = c.hosts().stream().filter(x -> x.ssh().equals(h)).findFirst().orElse(null);
        if (spec == null) {
          out.add(
              Problem.error(
                      "'"
                          + h
                          + "' is no host of this cluster; give some of "
                          + String.join(", ", known))
                  .at("/hosts"));
        } else if (readIops != null && readIops > 0 && !spec.limited()) {
          out.add(
              Problem.error(
                      "host "
                          + h
                          + " runs the cluster's nodes in no cgroup of their own; give it memory,"
                          + " cpus or cores in the cluster spec for read_iops")
                  .at("/read_iops"));
        } else if ((memory != null || pageCache != null) && spec.memory() == null) {
          out.add(
              Problem.error(
                      "host "
                          + h
                          + " gives the cluster's nodes no memory limit to change; give it one in"
                          + " the cluster spec, e.g. hosts: [{ssh: "
                          + h
                          + ", memory: 8g}]")
                  .at(memory != null ? "/memory" : "/page_cache"));
        }
      }
      return out;
    }
  }

  /**
   * How much of a collection's index each host holds, and how much of it is in the page cache now:
   * after a restart with drop_caches and a bench, the bytes those searches touched.
   */
  record Cached(@JsonProperty("name") String name, @JsonProperty("collection") String collection)
      implements OnCollection {
    public Cached {
      name = name == null ? "cached" : name;
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      Checks.collection(out, this, c, collection != null);
      if (c.hosts().isEmpty()) {
        out.add(
            Problem.error(
                "a cached step reads the page cache of the cluster's hosts; this cluster runs on"
                    + " this machine (give it hosts:, e.g. lab hosts of net up)"));
      }
      return out;
    }
  }

  /**
   * New replicas of a collection's shards by chain, tree or Solr's own copy (solrscale distribute),
   * taken away again after the step unless {@code keep}, so that every combination starts alike.
   */
  record Distribute(
      @JsonProperty("name") String name,
      @JsonProperty("collection") String collection,
      @JsonProperty("shards") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          List<String> shards,
      @JsonProperty("replicas") Integer replicas,
      @JsonProperty("type") String type,
      @JsonProperty("method") String method,
      @JsonProperty("nodes") List<String> nodes,
      @JsonProperty("chunk_kb") Integer chunkKb,
      @JsonProperty("timeout") String timeout,
      @JsonProperty("max_mbit") Integer maxMbit,
      @JsonProperty("refresh") Boolean refresh,
      @JsonProperty("create") String create,
      @JsonProperty("keep") Boolean keep)
      implements OnCollection {
    public Distribute {
      create = create == null ? "together" : create;
      refresh = refresh != null && refresh;
      maxMbit = maxMbit == null ? 0 : maxMbit;
      name = name == null ? "distribute" : name;
      replicas = replicas == null ? 1 : replicas;
      type = type == null ? "pull" : type;
      method = method == null ? "chain" : method;
      chunkKb = chunkKb == null ? 1024 : chunkKb;
      timeout = timeout == null ? "10m" : timeout;
      keep = keep != null && keep;
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      Checks.collection(out, this, c, collection != null);
      Checks.range(out, "/replicas", "replicas", replicas, refresh ? 0 : 1, 100);
      if (refresh && "solr".equals(method)) {
        out.add(
            Problem.error(
                    "refresh needs method chain or tree: with Solr's own replication, PULL and"
                        + " TLOG replicas fetch each new commit from their leader by themselves")
                .at("/refresh"));
      }
      Checks.oneOf(out, "/type", "type", type, List.of("pull", "tlog", "nrt"));
      Checks.oneOf(out, "/method", "method", method, List.of("chain", "tree", "solr"));
      Checks.oneOf(out, "/create", "create", create, List.of("together", "each"));
      Checks.range(out, "/chunk_kb", "chunk_kb", chunkKb, 16, 65536);
      Checks.range(out, "/max_mbit", "max_mbit", maxMbit, 0, 100_000);
      Checks.duration(out, "/timeout", timeout);
      if (nodes != null) {
        for (String id : nodes) {
          if (c.knowsCollections() && !c.solrNodeIds().contains(id)) {
            out.add(
                Problem.error(
                        "'"
                            + id
                            + "' is no Solr node of this cluster; it has "
                            + String.join(", ", c.solrNodeIds()))
                    .at("/nodes"));
          }
        }
      }
      return out;
    }
  }

  /** A Collections API operation: create, delete, split-shard, add-replica. */
  record Collection(
      @JsonProperty("name") String name,
      @JsonProperty("action") String action,
      @JsonProperty("collection") String collection,
      @JsonProperty("shards") Integer shards,
      @JsonProperty("replicas") Integer replicas,
      @JsonProperty("shard") String shard)
      implements OnCollection {
    public Collection {
      name = name == null ? "collection" : name;
    }

    /** The actions there are. */
    public static final List<String> ACTIONS = CollectionOp.NAMES;

    /** The action, parsed (the loader has refused an unknown one). */
    public CollectionOp op() {
      return CollectionOp.named(action)
          .orElseThrow(() -> new IllegalStateException("collection action '" + action + "'"));
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      if (CollectionOp.named(action).isEmpty()) {
        out.add(
            Problem.error(
                    "collection step: action must be "
                        + String.join(", ", ACTIONS)
                        + "; got '"
                        + action
                        + "'")
                .at(action == null ? "" : "/action"));
        return out;
      }
      String target = collectionIn(c);
      if (op() == CollectionOp.CREATE) {
        if (target == null) {
          out.add(
              Problem.error("collection step '" + name + "' needs collection: the name to create"));
        } else if (c.collections().containsKey(target)) {
          out.add(
              Problem.error(
                      "collection step '"
                          + name
                          + "' creates '"
                          + target
                          + "', which exists at that point")
                  .at("/collection"));
        }
        Checks.range(out, "/shards", "shards", shards, 1, 10_000);
        Checks.range(out, "/replicas", "replicas", replicas, 1, 1_000);
      } else {
        Checks.collection(out, this, c, collection != null);
      }
      return out;
    }

    /** The collections after this step: created, deleted, or with shards no longer known. */
    @Override
    public Map<String, Integer> collectionsAfter(Map<String, Integer> before, StepContext c) {
      Map<String, Integer> out = new LinkedHashMap<>(before);
      String target = collectionIn(c);
      switch (CollectionOp.named(action).orElse(CollectionOp.ADD_REPLICA)) {
        case CREATE -> out.put(target, shards == null ? 1 : shards);
        case DELETE -> out.remove(target);
        case SPLIT_SHARD -> out.put(target, null);
        case ADD_REPLICA -> {}
      }
      return out;
    }
  }

  /**
   * A fault, injected {@code at} after the start of the next step that is not a fault (so it runs
   * alongside that index, bench or chaos step) and healed after {@code duration}; the kinds are
   * {@link FaultKind}'s.
   */
  record Fault(
      @JsonProperty("name") String name,
      @JsonProperty("fault") String fault,
      @JsonProperty("target") String target,
      @JsonProperty("at") String at,
      @JsonProperty("duration") String duration,
      @JsonProperty("seed") Long seed,
      @JsonProperty("unsafe") Boolean unsafe,
      @JsonProperty("faults") List<String> faults,
      @JsonProperty("interval") String interval,
      @JsonProperty("fault_duration") String faultDuration,
      @JsonProperty("rate") String rate,
      @JsonProperty("delay") String delay,
      @JsonProperty("jitter") String jitter,
      @JsonProperty("distribution") String distribution,
      @JsonProperty("loss") String loss,
      @JsonProperty("direction") String direction,
      @JsonProperty("reorder") Boolean reorder)
      implements StepSpec {
    /** A fault without the slow link's fields (every kind but latency and loss). */
    public Fault(
        String name,
        String fault,
        String target,
        String at,
        String duration,
        Long seed,
        Boolean unsafe,
        List<String> faults,
        String interval,
        String faultDuration,
        String rate) {
      this(
          name,
          fault,
          target,
          at,
          duration,
          seed,
          unsafe,
          faults,
          interval,
          faultDuration,
          rate,
          null,
          null,
          null,
          null,
          null,
          null);
    }

    /** How slow a latency or loss fault makes its link; IllegalArgumentException when unclear. */
    public Slowness slowness() {
      return Slowness.of(delay, jitter, distribution, loss, direction, reorder);
    }

    /** Whether this fault (or a kind its monkey draws) makes a link slow. */
    private boolean slows() {
      FaultKind k = FaultKind.named(fault).orElse(null);
      return k == FaultKind.LATENCY
          || k == FaultKind.LOSS
          || k == FaultKind.MONKEY
              && (faults.contains(FaultKind.LATENCY.id()) || faults.contains(FaultKind.LOSS.id()));
    }

    /** A link rate as tc writes it: 100mbit, 1gbit, 512kbit. */
    static final Pattern LINK_RATE = Pattern.compile("[1-9][0-9]*(\\.[0-9]+)?(bit|kbit|mbit|gbit)");

    public Fault {
      if (fault == null) {
        throw new IllegalArgumentException(
            "a fault step needs 'fault:' (" + String.join(", ", FaultKind.names()) + ")");
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
      if (FaultKind.named(fault).isEmpty()) {
        return "unknown fault '" + fault + "'; use one of " + String.join(", ", FaultKind.names());
      }
      for (String d : List.of(at, duration, interval, faultDuration)) {
        try {
          Durations.parse(d);
        } catch (IllegalArgumentException e) {
          return e.getMessage();
        }
      }
      if (FaultKind.named(fault).orElseThrow() == FaultKind.BANDWIDTH
          && (rate == null || !LINK_RATE.matcher(rate).matches())) {
        return "bandwidth needs rate, a link rate such as 1mbit, 512kbit or 1gbit"
            + (rate == null ? "" : " (not '" + rate + "')");
      }
      String slow = slowProblem();
      if (slow != null) {
        return slow;
      }
      if (FaultKind.named(fault).orElseThrow() == FaultKind.MONKEY) {
        for (String k : faults) {
          if (!FaultKind.monkeyNames().contains(k)) {
            return "the monkey cannot use '"
                + k
                + "'; use "
                + String.join(", ", FaultKind.monkeyNames());
          }
        }
      }
      return null;
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      String where = "fault step '" + name + "': ";
      if (FaultKind.named(fault).isEmpty()) {
        out.add(
            Problem.error(
                    where
                        + "unknown fault '"
                        + fault
                        + "'; use one of "
                        + String.join(", ", FaultKind.names()))
                .at("/fault"));
      }
      Checks.duration(out, "/at", at);
      Checks.duration(out, "/duration", duration);
      Checks.duration(out, "/interval", interval);
      Checks.duration(out, "/fault_duration", faultDuration);
      for (String k :
          FaultKind.named(fault).orElse(null) == FaultKind.MONKEY ? faults : List.<String>of()) {
        if (!FaultKind.monkeyNames().contains(k)) {
          out.add(
              Problem.error(
                      where
                          + "the monkey cannot use '"
                          + k
                          + "'; use "
                          + String.join(", ", FaultKind.monkeyNames()))
                  .at("/faults"));
        }
      }
      String problem = targetProblem(c);
      if (problem != null) {
        out.add(Problem.error(where + problem).at("/target"));
      }
      String slow = FaultKind.named(fault).isEmpty() ? null : slowProblem();
      if (slow != null) {
        out.add(
            Problem.error(where + slow).at(delay == null && loss == null ? "/fault" : "/delay"));
      }
      return out;
    }

    /** Why a latency or loss fault's fields do not say how slow, or why another kind has them. */
    private String slowProblem() {
      boolean given =
          delay != null
              || jitter != null
              || distribution != null
              || loss != null
              || direction != null
              || reorder != null;
      if (!slows()) {
        return given
            ? "delay, jitter, distribution, loss, direction and reorder are for latency and loss"
                + " faults, not "
                + fault
            : null;
      }
      FaultKind k = FaultKind.named(fault).orElseThrow();
      if (k == FaultKind.LATENCY && delay == null) {
        return "latency needs delay, the one-way delay such as 50ms (and optionally jitter, loss)";
      }
      if (k == FaultKind.LOSS && loss == null) {
        return "loss needs loss, the share of packets dropped such as 1%";
      }
      if (k == FaultKind.MONKEY && faults.contains(FaultKind.LATENCY.id()) && delay == null) {
        return "a monkey that draws latency needs delay, such as 50ms";
      }
      if (k == FaultKind.MONKEY && faults.contains(FaultKind.LOSS.id()) && loss == null) {
        return "a monkey that draws loss needs loss, such as 1%";
      }
      try {
        slowness();
      } catch (IllegalArgumentException e) {
        return e.getMessage();
      }
      return null;
    }

    /** Why a network fault's target names no host of the cluster, or null. */
    private String hostTargetProblem(StepContext c) {
      if (c.hosts().isEmpty()) {
        return fault + " needs a cluster on hosts: give the cluster hosts (cluster.hosts)";
      }
      List<String> names = c.hosts().stream().map(HostSpec::ssh).toList();
      List<String> ids = new ArrayList<>(c.solrNodeIds());
      ids.addAll(c.zkNodeIds());
      if (target.contains("<->")
          && FaultKind.named(fault).orElse(null) != FaultKind.LATENCY
          && FaultKind.named(fault).orElse(null) != FaultKind.LOSS) {
        return "a link target (A<->B) is for latency and loss; " + fault + " takes hosts";
      }
      for (String part : target.split(",|<->")) {
        String p = part.strip();
        if (p.startsWith("host-of:")) {
          if (!ids.contains(p.substring(8))) {
            return "target '" + p + "' names no node; the nodes are " + String.join(", ", ids);
          }
        } else if (p.contains("=")) {
          String key = p.substring(0, p.indexOf('='));
          String value = p.substring(p.indexOf('=') + 1);
          if (c.hosts().stream().noneMatch(h -> value.equals(h.labels().get(key)))) {
            return "target '" + p + "': no host has that label";
          }
        } else if (!names.contains(p)) {
          return "target '"
              + p
              + "' is no host of this cluster; give a host ("
              + String.join(", ", names)
              + "), host-of:NODE, a label such as dc=east, or random";
        }
      }
      return null;
    }

    /**
     * Why the target names nothing on this cluster, or null (leaders are only known at run time).
     */
    private String targetProblem(StepContext c) {
      if (target == null || target.equals("random")) {
        return null;
      }
      FaultKind kind = FaultKind.named(fault).orElse(null);
      if (kind == FaultKind.PARTITION
          || kind == FaultKind.BANDWIDTH
          || kind == FaultKind.LINK_DOWN
          || kind == FaultKind.LATENCY
          || kind == FaultKind.LOSS) {
        return hostTargetProblem(c);
      }
      if (target.equals("overseer")) {
        return null;
      }
      if (target.startsWith("leader-of:") || target.startsWith("replicas-of:")) {
        String shard = target.substring(target.indexOf(':') + 1);
        int most =
            c.collections().values().stream()
                .mapToInt(n -> n == null ? Integer.MAX_VALUE : n)
                .max()
                .orElse(0);
        boolean valid =
            shard.matches("shard[1-9][0-9]{0,5}") && Integer.parseInt(shard.substring(5)) <= most
                || most == Integer.MAX_VALUE && !shard.isEmpty();
        return valid
            ? null
            : "target '"
                + target
                + "' names no shard of the collections here, which have "
                + "shard1"
                + (most > 1 ? " to shard" + most : "");
      }
      List<String> ids = new ArrayList<>(c.solrNodeIds());
      ids.addAll(c.zkNodeIds());
      return ids.contains(target)
          ? null
          : "target '"
              + target
              + "' is no node of this cluster; give a "
              + "node id ("
              + String.join(", ", ids)
              + "), leader-of:shardN, replicas-of:shardN, overseer or random";
    }
  }

  /**
   * The workload for faults: writes of unique ids at a steady rate and queries, every outcome in a
   * history, then (after healing) the checkers: loss, replica agreement, recovery, availability.
   */
  record Chaos(
      @JsonProperty("name") String name,
      @JsonProperty("collection") String collection,
      @JsonProperty("duration") String duration,
      @JsonProperty("after") String after,
      @JsonProperty("write_rate") Double writeRate,
      @JsonProperty("batch") Integer batch,
      @JsonProperty("query_rate") Double queryRate,
      @JsonProperty("timeout") String timeout,
      @JsonProperty("into") String into,
      @JsonProperty("keep") Boolean keep,
      @JsonProperty("doc_template") String docTemplate,
      @JsonProperty("profile") Boolean profile,
      @JsonProperty("min_rf") Integer minRf)
      implements OnCollection {
    public Chaos {
      keep = keep != null && keep;
      name = name == null ? "chaos" : name;
      duration = duration == null ? "60s" : duration;
      after = after == null ? "10s" : after;
      writeRate = writeRate == null ? 200.0 : writeRate;
      batch = batch == null ? 10 : batch;
      queryRate = queryRate == null ? 10.0 : queryRate;
      timeout = timeout == null ? "10s" : timeout;
    }

    @Override
    public List<Problem> problems(StepContext c) {
      List<Problem> out = new ArrayList<>();
      Checks.collection(out, this, c, collection != null);
      Checks.duration(out, "/duration", duration);
      Checks.duration(out, "/after", after);
      Checks.duration(out, "/timeout", timeout);
      if (writeRate <= 0) {
        out.add(
            Problem.error(
                    "write_rate must be above 0: chaos proves that acknowledged writes survive the"
                        + " faults (a bench step with a fault step before it measures queries alone)")
                .at("/write_rate"));
      }
      if (queryRate < 0) {
        out.add(Problem.error("query_rate must be 0 or more").at("/query_rate"));
      }
      Checks.range(out, "/batch", "batch", batch, 1, 100_000);
      if (minRf != null) {
        Checks.range(out, "/min_rf", "min_rf", minRf, 1, 100);
      }
      if (docTemplate != null && into == null) {
        out.add(
            Problem.error(
                    "doc_template is for into: the scratch collection takes the default documents")
                .at("/doc_template"));
      }
      return out;
    }
  }
}
