package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * A bulk load's summary: what `index` prints (and as JSON with --json) and an index step's summary
 * in results.json. Written by index.BulkIndexer, read by the report and the run's summary.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record IndexResult(
    @JsonProperty("read") long read,
    @JsonProperty("accepted") long accepted,
    @JsonProperty("accepted_children") long acceptedChildren,
    @JsonProperty("replaced") long replaced,
    @JsonProperty("rejected") long rejected,
    @JsonProperty("retries") long retries,
    @JsonProperty("seconds") double seconds,
    @JsonProperty("docs_per_sec") double docsPerSec,
    @JsonProperty("mb_per_sec") double mbPerSec,
    @JsonProperty("searchable_before") long searchableBefore,
    @JsonProperty("searchable_after") long searchableAfter,
    @JsonProperty("verified") boolean verified,
    @JsonProperty("rejects_file") String rejectsFile,
    @JsonProperty("unread_inputs") List<String> unreadInputs,
    @JsonProperty("cpu") Cpu cpu) {

  /** The same summary with the CPU each side used (null when it could not be measured). */
  public IndexResult withCpu(Cpu c) {
    return new IndexResult(
        read,
        accepted,
        acceptedChildren,
        replaced,
        rejected,
        retries,
        seconds,
        docsPerSec,
        mbPerSec,
        searchableBefore,
        searchableAfter,
        verified,
        rejectsFile,
        unreadInputs,
        c);
  }

  /** CPU seconds over a load; a node whose metrics could not be read is left out. */
  public record Cpu(
      @JsonProperty("client_s") double clientS,
      @JsonProperty("solr_s") Map<String, Double> solrS,
      @JsonProperty("client_share") double clientShare,
      @JsonProperty("cores_busy") Double coresBusy,
      @JsonProperty("cores") int cores) {

    public double solrTotal() {
      return solrS.values().stream().mapToDouble(Double::doubleValue).sum();
    }
  }
}
