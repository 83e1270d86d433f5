package org.solrscale.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.solrscale.results.LossVerdict;
import org.solrscale.results.LostBatches;
import org.solrscale.results.LostWrite;
import org.solrscale.spec.SolrscaleException;

/**
 * Judges a history after healing: every id Solr acknowledged must be found. Lost = acknowledged
 * minus found, listed by id. Ids whose add failed or timed out may or may not be there; they are
 * counted apart ("maybe"), never as lost. Lost ids are also counted by the replication factor Solr
 * reported when it acknowledged them: a write acknowledged with rf=1 lived on one replica only.
 */
public final class LossChecker {
  /** How many ids to ask about at once. */
  static final int BATCH = 500;

  /**
   * The findings, and why there are none ({@code notChecked}, null when the collection was asked):
   * then found and lost are null, no verdict rather than a clean one.
   */
  public record Verdict(LossVerdict findings, String notChecked) {
    public boolean ok() {
      return notChecked == null && findings.lost() == 0;
    }

    /** No verdict: the collection could not be asked, for {@code why}. */
    public static Verdict notChecked(long acknowledged, String why) {
      return new Verdict(LossVerdict.unchecked(acknowledged), why);
    }
  }

  public static final int MAX_LISTED = 1000;
  static final int MAX_WRITES = 20;

  private LossChecker() {}

  /**
   * Checks {@code history} with {@code present}, which answers which of a batch of ids the
   * collection holds (a query for them, in production; a planted set in tests).
   */
  public static Verdict check(Path history, Function<Collection<String>, Set<String>> present) {
    return check(history, present, null);
  }

  /**
   * As {@link #check(Path, Function)}, also counting the acknowledged ids in {@code partly}: on
   * some replica of their shard but not on every one (null: not known).
   */
  public static Verdict check(
      Path history, Function<Collection<String>, Set<String>> present, Set<String> partly) {
    return check(history, present, partly, null);
  }

  /**
   * As {@link #check(Path, Function, Set)}; an acknowledged id not found whose shard {@code
   * leaderless} names (its shard had no active leader) is unsettled rather than lost.
   */
  public static Verdict check(
      Path history,
      Function<Collection<String>, Set<String>> present,
      Set<String> partly,
      Leaderless leaderless) {
    Map<String, Integer> ackedRf = new LinkedHashMap<>();
    Set<String> unsure = new LinkedHashSet<>();
    History.read(
        history,
        e -> {
          if (!"add".equals(e.op())) {
            return;
          }
          if (e.acknowledgedAdd()) {
            for (String id : e.ids()) {
              ackedRf.merge(id, e.rf() == null ? 0 : e.rf(), Math::max);
            }
          } else {
            unsure.addAll(e.ids());
          }
        });
    Set<String> acked = ackedRf.keySet();
    unsure.removeAll(acked); // acknowledged on a retry: it counts as acknowledged
    Map<String, Long> lostByRf = new TreeMap<>();
    Map<String, Long> ackedByRf = new TreeMap<>();
    ackedRf.values().forEach(rf -> ackedByRf.merge(rfKey(rf), 1L, Long::sum));
    long found = 0;
    long lost = 0;
    long unsettled = 0;
    List<String> unsettledIds = new ArrayList<>();
    List<String> lostIds = new ArrayList<>();
    Set<String> allLost = new LinkedHashSet<>();
    for (List<String> batch : batches(acked)) {
      Set<String> there;
      try {
        there = present.apply(batch);
      } catch (SolrscaleException e) {
        return Verdict.notChecked(acked.size(), e.getMessage());
      }
      for (String id : batch) {
        if (there.contains(id)) {
          found++;
        } else if (leaderless != null && leaderless.shardOf(id) != null) {
          unsettled++;
          if (unsettledIds.size() < MAX_LISTED) {
            unsettledIds.add(id);
          }
        } else {
          lost++;
          allLost.add(id);
          lostByRf.merge(rfKey(ackedRf.get(id)), 1L, Long::sum);
          if (lostIds.size() < MAX_LISTED) {
            lostIds.add(id);
          }
        }
      }
    }
    Long maybe = 0L;
    try {
      for (List<String> batch : batches(unsure)) {
        maybe += present.apply(batch).size();
      }
    } catch (SolrscaleException e) {
      maybe = null; // a by-product; the loss verdict itself stands
    }
    LostWriteFacts writes = lostWrites(history, allLost, lostIds);
    return new Verdict(
        new LossVerdict(
            acked.size(),
            found,
            lost,
            lostIds,
            maybe,
            lostByRf,
            ackedByRf,
            writes.batches(),
            partly == null ? null : acked.stream().filter(partly::contains).count(),
            writes.writes(),
            leaderless == null
                ? null
                : new LossVerdict.Unsettled(leaderless.shards(), unsettled, unsettledIds)),
        null);
  }

  /**
   * The shards that had no active leader when the ids were looked for, and the shard among them an
   * id routes to (null: a shard with a leader).
   */
  public interface Leaderless {
    List<String> shards();

    String shardOf(String id);
  }

  private static String rfKey(int rf) {
    return rf == 0 ? "unknown" : Integer.toString(rf);
  }

  /** The acknowledged writes that lost ids: how many, whole or in part, and the first of them. */
  private record LostWriteFacts(LostBatches batches, List<LostWrite> writes) {}

  /**
   * The acknowledged writes that lost ids, in one read of the history: counted whole or in part (an
   * id acknowledged more than once, a retry, counts with each write that carried it), and the
   * earliest listed with the listed lost ids they carried.
   */
  private static LostWriteFacts lostWrites(Path history, Set<String> lost, List<String> listed) {
    if (lost.isEmpty()) {
      return new LostWriteFacts(LostBatches.NONE, new ArrayList<>());
    }
    Set<String> shown = Set.copyOf(listed);
    long[] n = new long[4]; // writes, whole, partial, multi-document
    List<LostWrite> out = new ArrayList<>();
    History.read(
        history,
        e -> {
          if (!e.acknowledgedAdd()) {
            return;
          }
          long gone = e.ids().stream().filter(lost::contains).count();
          if (gone == 0) {
            return;
          }
          n[0]++;
          n[gone == e.ids().size() ? 1 : 2]++;
          if (e.ids().size() > 1) {
            n[3]++;
          }
          List<String> goneShown = e.ids().stream().filter(shown::contains).toList();
          if (!goneShown.isEmpty()) {
            out.add(
                new LostWrite(
                    e.timeMs(), e.latencyMs(), e.node(), e.rf(), e.ids().size(), goneShown));
          }
        });
    // the earliest due first: answers, and so history lines, come in any order
    out.sort(Comparator.comparingLong(LostWrite::timeMs));
    return new LostWriteFacts(
        new LostBatches(n[0], n[1], n[2], n[3]),
        out.size() > MAX_WRITES ? new ArrayList<>(out.subList(0, MAX_WRITES)) : out);
  }

  private static List<List<String>> batches(Collection<String> ids) {
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
