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
      @JsonProperty("replay_hits") long replayed) {
    /** Those that differ most first: by the difference as a share of the logged hits. */
    public static final java.util.Comparator<Differing> MOST_FIRST =
        java.util.Comparator.comparingDouble(
                (Differing d) ->
                    Math.abs(d.replayed() - d.logged()) / (double) Math.max(1, d.logged()))
            .reversed();
  }

  /** A request slower here than in production by more than the factor. */
  public record Slower(
      @JsonProperty("source") String source,
      @JsonProperty("kind") String kind,
      @JsonProperty("params") String params,
      @JsonProperty("qtime_ms") int qtimeMs,
      @JsonProperty("latency_ms") double latencyMs) {
    /** The slowest first: by latency here over the logged QTime. */
    public static final java.util.Comparator<Slower> SLOWEST_FIRST =
        java.util.Comparator.comparingDouble((Slower w) -> w.latencyMs() / Math.max(1, w.qtimeMs()))
            .reversed();
  }

  /** The share of checked requests whose hits differ. */
  public double differingShare() {
    return checked == 0 ? 0 : (double) (checked - equal) / checked;
  }

  /** The most requests listed as differing most, or as slowest. */
  static final int LISTED = 10;

  /**
   * A check from its counts and every differing and slower request found: the lists sorted and cut
   * to the {@link #LISTED} worst, the equal share and the flag worked out here, once.
   */
  public static ReplayCheck of(
      String file,
      double speed,
      Double maxGapSeconds,
      boolean loop,
      double logSeconds,
      double scheduleSeconds,
      long scheduled,
      long answered,
      long failed,
      long checked,
      long equal,
      Map<String, Long> differences,
      List<Differing> differing,
      double slowerFactor,
      long withQtime,
      long slower,
      List<Slower> slowest,
      List<double[]> scatter,
      List<Integer> offeredPerSecond) {
    List<Differing> d = new java.util.ArrayList<>(differing);
    d.sort(Differing.MOST_FIRST);
    List<Slower> w = new java.util.ArrayList<>(slowest);
    w.sort(Slower.SLOWEST_FIRST);
    return new ReplayCheck(
        file,
        speed,
        maxGapSeconds,
        loop,
        logSeconds,
        scheduleSeconds,
        scheduled,
        answered,
        failed,
        checked,
        equal,
        checked == 0 ? 1 : (double) equal / checked,
        differences,
        List.copyOf(d.subList(0, Math.min(LISTED, d.size()))),
        checked > 0 && (double) (checked - equal) / checked > FLAG_SHARE,
        slowerFactor,
        withQtime,
        slower,
        List.copyOf(w.subList(0, Math.min(LISTED, w.size()))),
        scatter,
        offeredPerSecond);
  }

  /**
   * The checks of several drivers of one replay, each of which sent its own share of the log: the
   * counts added, the differences and the slowest of all, the flag judged again on the whole; null
   * when none is a replay.
   */
  public static ReplayCheck merge(List<ReplayCheck> checks) {
    List<ReplayCheck> cs = checks.stream().filter(java.util.Objects::nonNull).toList();
    if (cs.isEmpty()) {
      return null;
    }
    if (cs.size() == 1) {
      return cs.get(0);
    }
    long scheduled = 0;
    long answered = 0;
    long failed = 0;
    long checked = 0;
    long equal = 0;
    long withQtime = 0;
    long slower = 0;
    double schedule = 0;
    Map<String, Long> differences = new java.util.LinkedHashMap<>();
    List<Differing> differing = new java.util.ArrayList<>();
    List<Slower> slowest = new java.util.ArrayList<>();
    List<double[]> scatter = new java.util.ArrayList<>();
    List<Integer> offered = new java.util.ArrayList<>();
    for (ReplayCheck c : cs) {
      scheduled += c.scheduled();
      answered += c.answered();
      failed += c.failed();
      checked += c.checked();
      equal += c.equal();
      withQtime += c.withQtime();
      slower += c.slower();
      schedule = Math.max(schedule, c.scheduleSeconds());
      c.differences().forEach((k, v) -> differences.merge(k, v, Long::sum));
      differing.addAll(c.mostDifferent());
      slowest.addAll(c.slowest());
      scatter.addAll(c.scatter().subList(0, Math.min(c.scatter().size(), 2000 / cs.size())));
      for (int i = 0; i < c.offeredPerSecond().size(); i++) {
        if (i < offered.size()) {
          offered.set(i, offered.get(i) + c.offeredPerSecond().get(i));
        } else {
          offered.add(c.offeredPerSecond().get(i));
        }
      }
    }
    ReplayCheck first = cs.get(0);
    return of(
        first.file(),
        first.speed(),
        first.maxGapSeconds(),
        first.loop(),
        first.logSeconds(),
        schedule,
        scheduled,
        answered,
        failed,
        checked,
        equal,
        differences,
        differing,
        first.slowerFactor(),
        withQtime,
        slower,
        slowest,
        scatter,
        offered);
  }
}
