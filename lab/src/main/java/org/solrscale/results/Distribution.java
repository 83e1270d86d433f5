package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * An index distribution (distribute.json, and a distribute step's summary in results.json): the
 * collection, the method (chain, tree, solr), new replicas per shard and their type, the time to
 * set up and in all, and per shard its route, targets and progress. Written by
 * distribute.Distributor and read by the report.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Distribution(
    @JsonProperty("collection") String collection,
    @JsonProperty("method") String method,
    @JsonProperty("replicas") int replicas,
    @JsonProperty("type") String type,
    @JsonProperty("setup_seconds") double setupSeconds,
    @JsonProperty("seconds") double seconds,
    @JsonProperty("shards") List<ShardRun> shards) {
  public boolean ok() {
    return shards.stream()
        .allMatch(s -> s.targets().stream().allMatch(t -> "active".equals(t.state())));
  }

  /** One new replica: where, how its bytes came, when it had its data and when it was active. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Target(
      @JsonProperty("shard") String shard,
      @JsonProperty("node") String node,
      @JsonProperty("core") String core,
      @JsonProperty("replica") String replica,
      @JsonProperty("state") String state,
      @JsonProperty("bytes_received") long bytesReceived,
      @JsonProperty("bytes_had") long bytesHad,
      @JsonProperty("resent_chunks") int resentChunks,
      @JsonProperty("solr_bytes_downloaded") Long solrBytesDownloaded,
      @JsonProperty("seconds_to_data") Double secondsToData,
      @JsonProperty("seconds_to_active") Double secondsToActive,
      @JsonProperty("docs") Long docs,
      @JsonProperty("data_dir") String dataDir,
      @JsonProperty("replaced") String replaced,
      @JsonProperty("error") String error) {}

  /** What one target had received, once a second from the start of the run. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Progress(
      @JsonProperty("node") String node,
      @JsonProperty("seconds") List<Double> seconds,
      @JsonProperty("bytes") List<Long> bytes) {}

  /** One shard's distribution. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ShardRun(
      @JsonProperty("shard") String shard,
      @JsonProperty("leader") String leader,
      @JsonProperty("leader_docs") long leaderDocs,
      @JsonProperty("generation") Long generation,
      @JsonProperty("files") Integer files,
      @JsonProperty("index_bytes") Long indexBytes,
      @JsonProperty("route") Route route,
      @JsonProperty("targets") List<Target> targets,
      @JsonProperty("progress") List<Progress> progress,
      @JsonProperty("phases") Map<String, Double> phases) {}
}
