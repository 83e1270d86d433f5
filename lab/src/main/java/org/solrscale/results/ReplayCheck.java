package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What a replay of logged requests sent and whether the lab answered as production did: {@code
 * checked} requests had logged hits and a replay answer, {@code equal} of them the same hits; the
 * others by how far they differ ({@code differences}: share of the logged count) and the ten that
 * differ most. {@code flagged} when more than {@link #FLAG_SHARE} differ: the lab's index does not
 * answer like production's. Latency against the logged QTime: {@code slower} requests took more
 * than {@code slower_factor} times their QTime (the ten slowest by that ratio listed), {@code
 * scatter} a sample of (QTime ms, replay latency ms). {@code offered_per_second}: the schedule's
 * requests in each second of the replay (first pass).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReplayCheck(
    @JsonProperty("file") String file,
    @JsonProperty("speed") double speed,
    @JsonProperty("max_gap_seconds") Double maxGapSeconds,
    @JsonProperty("loop") boolean loop,
    @JsonProperty("log_seconds") double logSeconds,
    @JsonProperty("schedule_seconds") double scheduleSeconds,
    @JsonProperty("scheduled") long scheduled,
    @JsonProperty("answered") long answered,
    @JsonProperty("failed") long failed,
    @JsonProperty("checked") long checked,
    @JsonProperty("equal") long equal,
    @JsonProperty("equal_share") double equalShare,
    @JsonProperty("differences") Map<String, Long> differences,
    @JsonProperty("most_different") List<Differing> mostDifferent,
    @JsonProperty("flagged") boolean flagged,
    @JsonProperty("slower_factor") double slowerFactor,
    @JsonProperty("with_qtime") long withQtime,
    @JsonProperty("slower") long slower,
    @JsonProperty("slowest") List<Slower> slowest,
    @JsonProperty("scatter") List<double[]> scatter,
    @JsonProperty("offered_per_second") List<Integer> offeredPerSecond) {

  /** Above this share of checked requests with other hits, a replay is flagged. */
  public static final double FLAG_SHARE = 0.01;

  /** A request whose hits differ: where it was logged, what it asked and both counts. */
  public record Differing(
      @JsonProperty("source") String source,
      @JsonProperty("kind") String kind,
      @JsonProperty("params") String params,
      @JsonProperty("logged_hits") long logged,
      @JsonProperty("replay_hits") long replayed) {}

  /** A request slower here than in production by more than the factor. */
  public record Slower(
      @JsonProperty("source") String source,
      @JsonProperty("kind") String kind,
      @JsonProperty("params") String params,
      @JsonProperty("qtime_ms") int qtimeMs,
      @JsonProperty("latency_ms") double latencyMs) {}

  /** The share of checked requests whose hits differ. */
  public double differingShare() {
    return checked == 0 ? 0 : (double) (checked - equal) / checked;
  }
}
