package org.solrscale.index;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The summary `index` prints (and as JSON with --json). */
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
    @JsonProperty("cpu") CpuMeter.Cpu cpu) {

  /** The same summary with the CPU each side used (null when it could not be measured). */
  public IndexResult withCpu(CpuMeter.Cpu c) {
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
}
