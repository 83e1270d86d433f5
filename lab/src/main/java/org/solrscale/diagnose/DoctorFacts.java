package org.solrscale.diagnose;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What the doctor read from a live SolrCloud, as plain data (null where it could not be read), so
 * that every check is a function of it and can be tried on planted facts.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DoctorFacts(
    @JsonProperty("solr_version") String solrVersion,
    @JsonProperty("zookeeper") List<Zk> zookeeper,
    @JsonProperty("nodes") List<Node> nodes,
    @JsonProperty("collections") List<Collection> collections,
    @JsonProperty("cluster_properties") Map<String, String> clusterProperties) {

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
      @JsonProperty("round_trip_ms") List<Double> roundTripMs) {

    Long confLong(String key) {
      String v = conf == null ? null : conf.get(key);
      try {
        return v == null ? null : Long.parseLong(v.strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }

    double maxRoundTripMs() {
      return roundTripMs == null
          ? 0
          : roundTripMs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
  }

  /**
   * One live Solr node: its name and host, heap, the host's memory and swap, its open-file and
   * process limits, index bytes on it, zkClientTimeout, dc/rack labels, load, and the longest GC
   * pause in its GC log (null when not on this machine).
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
      @JsonProperty("longest_gc_pause_ms") Double longestGcPauseMs,
      @JsonProperty("gc_log") String gcLog) {}

  /** One collection: its commit and cache settings, update rate, and its shards' replicas. */
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
