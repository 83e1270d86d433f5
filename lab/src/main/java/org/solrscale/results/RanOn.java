package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Collection;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Where and with what one repeat ran, recorded as it starts: the machine's boot (Linux's boot id,
 * new at every boot and on every machine), the solrscale revision, the start, and a CPU score (a
 * short single-thread calibration, MiB/s of SHA-256, best of three). A run that is resumed can run
 * its repeats on several machines or revisions, and environment.json names only the last; this
 * names each repeat's, so that compare and report can say when they pool repeats that ran apart.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RanOn(
    @JsonProperty("boot_id") String bootId,
    @JsonProperty("git_revision") String gitRevision,
    @JsonProperty("started") String started,
    @JsonProperty("cpu_score") Double cpuScore) {

  /**
   * A warning when {@code repeats} ran on more than one boot or revision, else null: which boots
   * (their ids' first 8 characters) with how many repeats and CPU scores each, and which revisions;
   * repeats recorded before solrscale kept this are counted apart.
   */
  public static String mixed(Collection<CombinationRun> repeats) {
    Map<String, List<CombinationRun>> byBoot = new LinkedHashMap<>();
    Map<String, Integer> byRevision = new LinkedHashMap<>();
    int unknown = 0;
    for (CombinationRun c : repeats) {
      RanOn r = c.ranOn();
      if (r == null || r.bootId() == null) {
        unknown++;
        continue;
      }
      byBoot.computeIfAbsent(r.bootId(), k -> new ArrayList<>()).add(c);
      byRevision.merge(Objects.requireNonNullElse(r.gitRevision(), "unknown"), 1, Integer::sum);
    }
    if (byBoot.isEmpty() || (byBoot.size() == 1 && byRevision.size() == 1 && unknown == 0)) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    if (byBoot.size() > 1) {
      List<String> boots = new ArrayList<>();
      byBoot.forEach((boot, runs) -> boots.add(boot(boot, runs)));
      parts.add(byBoot.size() + " machines or boots (" + String.join("; ", boots) + ")");
    }
    if (byRevision.size() > 1) {
      List<String> revisions = new ArrayList<>();
      byRevision.forEach((rev, n) -> revisions.add(shortRevision(rev) + ": " + repeats(n)));
      parts.add(byRevision.size() + " solrscale revisions (" + String.join(", ", revisions) + ")");
    }
    String unrecorded =
        unknown == 0
            ? ""
            : repeats(unknown) + " with no record of where (run by an older solrscale)";
    String where;
    if (parts.isEmpty()) { // one boot and revision, beside repeats from before the record
      String boot = byBoot.keySet().iterator().next();
      where =
          "include "
              + unrecorded
              + " beside "
              + repeats(repeats.size() - unknown)
              + " on "
              + shortId(boot);
    } else {
      where = "ran on " + String.join(" and ", parts) + (unknown == 0 ? "" : ", and " + unrecorded);
    }
    return "the repeats pooled here "
        + where
        + ": a difference between them may be the machine's, not the setting's; rerun them in"
        + " one go to judge";
  }

  private static String boot(String id, List<CombinationRun> runs) {
    DoubleSummaryStatistics scores =
        runs.stream()
            .map(c -> c.ranOn().cpuScore())
            .filter(Objects::nonNull)
            .mapToDouble(Double::doubleValue)
            .summaryStatistics();
    String score =
        scores.getCount() == 0
            ? ""
            : scores.getMin() == scores.getMax()
                ? String.format(Locale.ROOT, ", CPU score %.0f", scores.getMin())
                : String.format(
                    Locale.ROOT, ", CPU score %.0f-%.0f", scores.getMin(), scores.getMax());
    return shortId(id) + ": " + repeats(runs.size()) + score;
  }

  /** A boot id's or revision's first 8 characters, as tables and warnings show them. */
  public static String shortId(String id) {
    return id == null ? "unknown" : id.substring(0, Math.min(8, id.length()));
  }

  private static String repeats(int n) {
    return n + (n == 1 ? " repeat" : " repeats");
  }

  private static String shortRevision(String rev) {
    return rev.length() > 7 && rev.matches("[0-9a-f]+") ? rev.substring(0, 7) : rev;
  }
}
