package org.solrscale.chaos;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Judges a history after healing: every id Solr acknowledged must be found. Lost = acknowledged
 * minus found, listed by id. Ids whose add failed or timed out may or may not be there; they are
 * counted apart ("maybe"), never as lost.
 */
public final class LossChecker {
  /** How many ids to ask about at once. */
  static final int BATCH = 500;

  /** The verdict. {@code lost} lists ids (the first {@code MAX_LISTED}); the counts are exact. */
  public record Verdict(@JsonProperty("acknowledged") long acknowledged,
      @JsonProperty("found") long found, @JsonProperty("lost") long lost,
      @JsonProperty("lost_ids") List<String> lostIds,
      @JsonProperty("unacknowledged_found") long unacknowledgedFound) {
    public boolean ok() {
      return lost == 0;
    }
  }

  public static final int MAX_LISTED = 1000;

  private LossChecker() {}

  /**
   * Checks {@code history} with {@code present}, which answers which of a batch of ids the
   * collection holds (a query for them, in production; a planted set in tests).
   */
  public static Verdict check(Path history, Function<Collection<String>, Set<String>> present) {
    Set<String> acked = new LinkedHashSet<>();
    Set<String> unsure = new LinkedHashSet<>();
    History.read(history, e -> {
      if (!"add".equals(e.op())) {
        return;
      }
      if (e.acknowledgedAdd()) {
        acked.addAll(e.ids());
      } else {
        unsure.addAll(e.ids());
      }
    });
    unsure.removeAll(acked); // acknowledged on a retry: it counts as acknowledged
    long found = 0;
    long lost = 0;
    List<String> lostIds = new ArrayList<>();
    for (List<String> batch : batches(acked)) {
      Set<String> there = present.apply(batch);
      for (String id : batch) {
        if (there.contains(id)) {
          found++;
        } else {
          lost++;
          if (lostIds.size() < MAX_LISTED) {
            lostIds.add(id);
          }
        }
      }
    }
    long maybe = 0;
    for (List<String> batch : batches(unsure)) {
      maybe += present.apply(batch).size();
    }
    return new Verdict(acked.size(), found, lost, lostIds, maybe);
  }

  private static List<List<String>> batches(Set<String> ids) {
    List<List<String>> out = new ArrayList<>();
    List<String> cur = new ArrayList<>(BATCH);
    for (String id : ids) {
      cur.add(id);
      if (cur.size() == BATCH) {
        out.add(cur);
        cur = new ArrayList<>(BATCH);
      }
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }
}
