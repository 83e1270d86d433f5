package org.solrscale.diagnose;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What the doctor read from a live SolrCloud, as plain data (null where it could not be read), so
 * that every check is a function of it and can be tried on planted facts. Rates and load come from
 * the doctor's own window ({@code window_s}) when it sampled one, so that they describe the cluster
 * now rather than what ran before the doctor started. When no node could read the cluster's state
 * ({@code cluster_state_unread} says how they failed), only ZooKeeper's facts are there.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DoctorFacts(
    @JsonProperty("layout") Layout layout,
    @JsonProperty("window_s") Double windowSeconds,
    @JsonProperty("solr_version") String solrVersion,
    @JsonProperty("zookeeper") List<Zk> zookeeper,
    @JsonProperty("nodes") List<Node> nodes,
    @JsonProperty("collections") List<Collection> collections,
    @JsonProperty("cluster_properties") Map<String, String> clusterProperties,
    @JsonProperty("cluster_state_unread") String clusterStateUnread) {

  /** Facts read while the cluster's state could be read (the usual case). */
  public DoctorFacts(
      Layout layout,
      Double windowSeconds,
      String solrVersion,
      List<Zk> zookeeper,
      List<Node> nodes,
      List<Collection> collections,
      Map<String, String> clusterProperties) {
    this(
        layout, windowSeconds, solrVersion, zookeeper, nodes, collections, clusterProperties, null);
  }

  /**
   * Who laid the cluster out, which decides what a fix can ask for: solrscale on this machine alone
   * (hosts cannot be separated there), solrscale on hosts (SSH or lab network; the cluster spec
   * places nodes), or a cluster solrscale did not start (--zk/--url).
   */
  public enum Layout {
    @JsonProperty("one-machine")
    ONE_MACHINE,
    @JsonProperty("hosts")
    HOSTS,
    @JsonProperty("external")
    EXTERNAL
  }

  /** Whether rates were sampled over the doctor's window (else they are Solr's own averages). */
  boolean sampled() {
    return windowSeconds != null;
  }

  /**
   * One ZooKeeper server: where, its {@code conf} and {@code mntr} answers (null when it does not
   * allow those words), and the round trips measured to it (ms).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Zk(
      @JsonProperty("address") String address,
      @JsonProperty("host") String host,
      @JsonProperty("conf") Map<String, String> conf,
      @JsonProperty("mntr") Map<String, String> mntr,
      @JsonProperty("round_trip_ms") List<Double> roundTripMs,
      @JsonProperty("peer_round_trip_ms") Map<String, Double> peerRoundTripMs) {

    public Zk(
        String address,
        String host,
        Map<String, String> conf,
        Map<String, String> mntr,
        List<Double> roundTripMs) {
      this(address, host, conf, mntr, roundTripMs, null);
    }

    Long confLong(String key) {
      String v = conf == null ? null : conf.get(key);
      try {
        return v == null ? null : Long.parseLong(v.strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }

    /** The longest round trip from this server's host to another server of the ensemble, or 0. */
    double maxPeerRoundTripMs() {
      return peerRoundTripMs == null
          ? 0
          : peerRoundTripMs.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    double maxRoundTripMs() {
      return roundTripMs == null
          ? 0
          : roundTripMs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
  }

  /**
   * One live Solr node: its name and host, heap, the host's memory and swap, its open-file and
   * process limits, index bytes on it, zkClientTimeout, dc/rack labels, the host's 1-minute load
   * average (it includes the minute before the doctor started), what the doctor's window measured,
   * and the longest GC pause in its GC log since it started (null when not on this machine).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Node(
      @JsonProperty("name") String name,
      @JsonProperty("host") String host,
      @JsonProperty("heap_max_bytes") Long heapMaxBytes,
      @JsonProperty("physical_bytes") Long physicalBytes,
      @JsonProperty("free_physical_bytes") Long freePhysicalBytes,
      @JsonProperty("swap_total_bytes") Long swapTotalBytes,
      @JsonProperty("swap_free_bytes") Long swapFreeBytes,
      @JsonProperty("max_open_files") Long maxOpenFiles,
      @JsonProperty("max_processes") Long maxProcesses,
      @JsonProperty("index_bytes") Long indexBytes,
      @JsonProperty("zk_client_timeout_ms") Long zkClientTimeoutMs,
      @JsonProperty("labels") Map<String, String> labels,
      @JsonProperty("processors") Integer processors,
      @JsonProperty("load_average") Double loadAverage,
      @JsonProperty("window") Window window,
      @JsonProperty("longest_gc_pause_ms") Double longestGcPauseMs,
      @JsonProperty("gc_log") String gcLog) {}

  /**
   * A node over the doctor's window: the share of this machine's CPU that was busy (only for a node
   * on this machine; the doctor's own CPU left out), the cores the node's process used, and its
   * garbage collections and their time.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Window(
      @JsonProperty("host_cpu_busy_percent") Double hostCpuBusyPercent,
      @JsonProperty("cpu_cores") Double cpuCores,
      @JsonProperty("gc_count") Long gcCount,
      @JsonProperty("gc_ms") Long gcMs) {}

  /**
   * One collection: its commit and cache settings, update requests per second (over the doctor's
   * window, else Solr's 1-minute rate), and its shards' replicas.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Collection(
      @JsonProperty("name") String name,
      @JsonProperty("auto_commit_ms") Long autoCommitMs,
      @JsonProperty("open_searcher") Boolean openSearcher,
      @JsonProperty("auto_soft_commit_ms") Long autoSoftCommitMs,
      @JsonProperty("num_version_buckets") Long numVersionBuckets,
      @JsonProperty("cache_autowarm") Map<String, String> cacheAutowarm,
      @JsonProperty("updates_per_s") Double updatesPerSecond,
      @JsonProperty("shards") List<Shard> shards) {}

  /** A shard's replicas: node name, whether it leads, its type. */
  public record Shard(
      @JsonProperty("name") String name, @JsonProperty("replicas") List<Replica> replicas) {}

  public record Replica(
      @JsonProperty("node") String node,
      @JsonProperty("leader") boolean leader,
      @JsonProperty("type") String type) {}
}
