package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What the loss checker found: every id Solr acknowledged must be found after healing. {@code lost}
 * = acknowledged minus found, listed by id (the first 1000; the counts are exact), and counted by
 * the replication factor Solr reported when it acknowledged them. Ids whose add failed or timed out
 * may or may not be there ({@code unacknowledged_found}), never lost. Ids not found on a shard that
 * had no leader are {@code unsettled}, apart from lost. {@code found} and {@code lost} are null
 * when the collection could not be asked: no verdict, not a clean one. A chaos verdict embeds this
 * record's fields as its own ({@link ChaosVerdict#loss()}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(value = "known_defect", allowGetters = true)
public record LossVerdict(
    @JsonProperty("acknowledged") long acknowledged,
    @JsonProperty("found") Long found,
    @JsonProperty("lost") Long lost,
    @JsonProperty("lost_ids") List<String> lostIds,
    @JsonProperty("unacknowledged_found") Long unacknowledgedFound,
    @JsonProperty("lost_by_rf") Map<String, Long> lostByRf,
    @JsonProperty("acknowledged_by_rf") Map<String, Long> acknowledgedByRf,
    @JsonProperty("lost_batches") LostBatches lostBatches,
    @JsonProperty("partly_replicated") Long partlyReplicated,
    @JsonProperty("lost_writes") List<LostWrite> lostWrites,
    @JsonProperty("unsettled") Unsettled unsettled) {

  /**
   * Acknowledged ids not found that route to a shard without an active leader when they were looked
   * for: lost, or waiting uncommitted in a replica's transaction log (invisible until a leader
   * commits it), which a read cannot tell apart. They are not counted in {@code lost}.
   */
  public record Unsettled(
      @JsonProperty("shards") List<String> shards,
      @JsonProperty("not_found") long notFound,
      @JsonProperty("ids") List<String> ids) {}

  /** Nothing could be checked: {@code acknowledged} ids, none of them asked about. */
  public static LossVerdict unchecked(long acknowledged) {
    return new LossVerdict(
        acknowledged,
        null,
        null,
        List.of(),
        null,
        Map.of(),
        Map.of(),
        LostBatches.NONE,
        null,
        List.of(),
        null);
  }

  /** Whether the ids were asked about (found and lost are known). */
  public boolean checked() {
    return found != null && lost != null;
  }

  /** One line naming SOLR-5939 when the lost ids came in acknowledged batches, else null. */
  @JsonProperty("known_defect")
  public String knownDefect() {
    return lostBatches == null ? null : lostBatches.knownDefect();
  }
}
