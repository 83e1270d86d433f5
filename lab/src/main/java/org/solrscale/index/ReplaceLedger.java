package org.solrscale.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrServerException;

/** Counts what a load's accepted documents replaced, so that the run can verify its count. */
final class ReplaceLedger {
  /** Hears of the versions a batch made current. */
  interface Versions {
    /**
     * The id's version now has {@code size} documents; it replaced a family when {@code
     * overFamily}.
     */
    void made(String id, long size, boolean overFamily);
  }

  private final IdLookups lookups;
  private final String collection;
  private final Consumer<String> warnings;

  /**
   * Whether to look up, before sending, which ids the collection already holds: only when it was
   * not empty, since an id lookup per batch costs Solr work a load into an empty one does not need.
   */
  private final boolean lookUpIds;

  /** The ids read so far: into an empty collection only those that may repeat are looked up. */
  private final SeenIds seen;

  /**
   * The family size (root and children) of the version this run made current, for the ids it sent
   * as a family or over one: the committed index does not know it until a commit. Bounded ({@link
   * #familiesMax}); when full, such ids are asked of the update log instead.
   */
  private final Map<String, Long> families = new ConcurrentHashMap<>();

  /**
   * About 100 bytes an entry, in a 32nd of the heap; the system property {@code
   * solrscale.index.families} sets another bound (tests use it to make the update log's turn come).
   */
  private final long familiesMax =
      Long.getLong("solrscale.index.families", Runtime.getRuntime().maxMemory() / 32 / 100);

  private volatile boolean familiesFull;

  /** Set when what accepted documents replaced could not be counted: the run cannot verify. */
  private volatile boolean uncounted;

  private final AtomicLong replaced = new AtomicLong();

  /** {@code lookUpIds} when the collection held documents before the run. */
  ReplaceLedger(
      IdLookups lookups,
      String collection,
      boolean lookUpIds,
      SeenIds seen,
      Consumer<String> warnings) {
    this.lookups = lookups;
    this.collection = collection;
    this.lookUpIds = lookUpIds;
    this.seen = seen;
    this.warnings = warnings;
  }

  /** Records an id as read; true when it may have been read before in this run. */
  boolean read(String id) {
    return seen.add(id);
  }

  /** Whether the entry's id may be in the collection already, so it must be looked up. */
  boolean mayBeThere(Batch.Entry e) {
    return lookUpIds || e.again();
  }

  /** The documents accepted ones replaced so far. */
  long replaced() {
    return replaced.get();
  }

  /** Whether what some batch replaced could not be counted (the run cannot verify). */
  boolean uncounted() {
    return uncounted;
  }

  /**
   * The ids of the batch that the collection holds already, each with the size of its family there
   * (1 for a document without children); none when every id of the batch is new (nothing to look
   * up). Looked up: the ids whose first copy in the batch may be there, by real-time get, which
   * sees uncommitted documents too (no other batch with them is in flight, {@link BatchOrder}).
   */
  Map<String, Long> holding(List<Batch.Entry> batch) {
    if (batch.stream().noneMatch(this::mayBeThere)) {
      return Map.of();
    }
    Map<String, Batch.Entry> toLookUp = new LinkedHashMap<>();
    Set<String> inBatch = new HashSet<>();
    for (Batch.Entry e : batch) {
      if (inBatch.add(e.id()) && mayBeThere(e)) {
        toLookUp.put(e.id(), e);
      }
    }
    Map<String, Long> out = new HashMap<>();
    if (toLookUp.isEmpty()) {
      return out;
    }
    try {
      List<String> live = sizes(toLookUp, out);
      if (!live.isEmpty()) {
        askUpdateLog(live, out);
      }
    } catch (SolrServerException | IOException | RuntimeException e) { // the load goes on anyway
      uncounted = true; // what the batch replaced is unknown, and so what the families map holds
      warnings.accept(
          "warning: cannot look up which ids "
              + collection
              + " holds ("
              + OneLine.of(e.getMessage())
              + "); the run cannot verify its count");
    }
    return out;
  }

  /**
   * Puts into {@code out} the ids of {@code toLookUp} the collection holds, with their family
   * sizes: this run's own for an id it sent as a family or over one ({@link #families}), else the
   * committed index's: any other version there is the one from before the run (committed first) or
   * one without children that this run sent. Returns the ids whose size must be asked of the update
   * log instead: those this run may have sent while {@link #families} had no room.
   */
  private List<String> sizes(Map<String, Batch.Entry> toLookUp, Map<String, Long> out)
      throws SolrServerException, IOException {
    List<String> found = lookups.found(toLookUp.keySet());
    Map<String, Long> committed = lookups.familySizes(found);
    List<String> live = new ArrayList<>();
    for (String id : found) {
      Long mine = families.get(id);
      out.put(id, mine != null ? mine : committed.getOrDefault(id, 1L));
      Batch.Entry e = toLookUp.get(id);
      if (mine == null && familiesFull && e != null && e.again()) {
        live.add(id); // this run may have sent it as a family and forgotten its size
      }
    }
    return live;
  }

  private void askUpdateLog(List<String> ids, Map<String, Long> out) {
    try {
      out.putAll(lookups.liveFamilySizes(ids));
    } catch (SolrServerException | IOException | RuntimeException e) {
      uncounted = true;
      warnings.accept(
          "warning: cannot count the child documents of ids "
              + collection
              + " holds ("
              + OneLine.of(e.getMessage())
              + "); the run cannot verify its count");
    }
  }

  /** Counts what the accepted entries of a sent batch replaced, given what the collection held. */
  void sent(List<Batch.Entry> batch, Set<Batch.Entry> refused, Map<String, Long> holding) {
    replaced.addAndGet(replacedBy(batch, refused, holding, this::remember));
  }

  /**
   * How many documents the accepted entries of a batch replaced: each replaces the version its id
   * had just before it, the collection's ({@code holding}: id to family size) or an earlier
   * accepted copy in the batch, with that version's children. A copy Solr refused replaced nothing.
   * {@code versions} hears of each accepted entry.
   */
  static long replacedBy(
      List<Batch.Entry> batch,
      Set<Batch.Entry> refused,
      Map<String, Long> holding,
      Versions versions) {
    Map<String, Long> current = new HashMap<>(holding);
    long n = 0;
    for (Batch.Entry e : batch) {
      if (!refused.contains(e)) {
        long size = e.source().size();
        Long before = current.put(e.id(), size);
        n += before == null ? 0 : before;
        versions.made(e.id(), size, before != null && before > 1);
      }
    }
    return n;
  }

  /**
   * Keeps the size of a family (or of a document over one) this run made current, while there is
   * room.
   */
  private void remember(String id, long size, boolean overFamily) {
    if (size > 1 || overFamily) {
      if (families.containsKey(id) || families.size() < familiesMax) {
        families.put(id, size);
      } else {
        familiesFull = true; // this id's last size is not known: the update log is asked
      }
    } else if (!families.isEmpty() && families.containsKey(id)) {
      families.put(id, size); // no longer a family (whatever the collection says it replaced)
    }
  }
}
