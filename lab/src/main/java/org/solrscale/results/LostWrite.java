package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * An acknowledged write some of whose ids are lost: when it was due, how long until Solr answered,
 * which node answered, the rf it reported, and which of its ids are gone.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LostWrite(
    @JsonProperty("t_ms") long timeMs,
    @JsonProperty("latency_ms") Double latencyMs,
    @JsonProperty("node") String node,
    @JsonProperty("rf") Integer rf,
    @JsonProperty("batch") int batch,
    @JsonProperty("lost_ids") List<String> lostIds) {}
