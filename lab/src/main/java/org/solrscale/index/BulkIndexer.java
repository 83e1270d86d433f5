package org.solrscale.index;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.response.FacetField;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.ByteArrayUtf8CharSequence;
import org.solrscale.data.Corpus;
import org.solrscale.data.CorpusReader;
import org.solrscale.data.Document;
import org.solrscale.data.Format;
import org.solrscale.data.Item;
import org.solrscale.data.Utf8Text;
import org.solrscale.spec.SolrscaleException;

/**
 * Sends a corpus to a collection: one reader fills a bounded queue of batches (backpressure, so
 * memory stays bounded whatever the corpus size), worker threads send them through a routing
 * client. Transient failures are retried with backoff; a batch Solr refuses is halved until the
 * bad documents are isolated, so one bad document never takes its neighbours with it. Every input
 * item ends up accepted or in the rejects file.
 */
public final class BulkIndexer {
  /**
   * One document to send, its id as sent, and where it came from (for the rejects file); {@code
   * again} when the id may have been read before in this run.
   */
  record Entry(SolrInputDocument doc, String id, boolean again, Document source, String file,
      long ordinal, long line) {}

  /** Batches go to the workers numbered in input order ({@link #takeOff}). */
  static final class Batch {
    final long seq;
    final List<Entry> entries;
    /** Its ids, made when another batch first needs them (guarded by the flying list). */
    private Set<String> ids;

    Batch(long seq, List<Entry> entries) {
      this.seq = seq;
      this.entries = entries;
    }

    Set<String> ids() {
      if (ids == null) {
        ids = new HashSet<>();
        for (Entry e : entries) {
          ids.add(e.id());
        }
      }
      return ids;
    }
  }

  private static final Batch END = new Batch(-1, List.of());

  private final SolrClient client;
  private final IndexOptions options;
  private final Consumer<String> warnings;
  private final Consumer<IndexProgress> progress;
  private final AtomicLong read = new AtomicLong();
  private final AtomicLong accepted = new AtomicLong();
  /** The child documents of the accepted ones (at any depth): Solr counts them too. */
  private final AtomicLong acceptedChildren = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong nextCommit = new AtomicLong();
  /** Documents in the collection (or earlier in the input) that accepted ones replaced. */
  private final AtomicLong replaced = new AtomicLong();
  /**
   * Whether to look up, before sending, which ids the collection already holds: only when it was
   * not empty, since an id lookup per batch costs Solr work a load into an empty one does not need.
   */
  private volatile boolean lookUpIds;
  /**
   * The batches being sent (guarded by itself): a batch holding an id that one of them holds waits
   * until it has been sent, so that what a batch looks up includes every earlier document with that
   * id and nothing is counted twice.
   */
  private final List<Batch> flying = new ArrayList<>();
  /** The number of the batch to take off next (guarded by {@link #flying}). */
  private long nextTakeOff;
  /** The ids read so far: into an empty collection only those that may repeat are looked up. */
  private SeenIds seen;
  /**
   * The family size (root and children) of the version this run made current, for the ids it sent
   * as a family or over one: the committed index does not know it until a commit. Bounded ({@link
   * #familiesMax}); when full, such ids are asked of the update log instead.
   */
  private final Map<String, Long> families = new java.util.concurrent.ConcurrentHashMap<>();
  /**
   * About 100 bytes an entry, in a 32nd of the heap; the system property {@code
   * solrscale.index.families} sets another bound (tests use it to make the update log's turn come).
   */
  private final long familiesMax = Long.getLong("solrscale.index.families",
      Runtime.getRuntime().maxMemory() / 32 / 100);
  private volatile boolean familiesFull;
  /** Set when what accepted documents replaced could not be counted: the run cannot verify. */
  private volatile boolean uncounted;

  /** {@code progress} hears about the load twice a second and once at its end. */
  public BulkIndexer(SolrClient client, IndexOptions options, Consumer<String> warnings,
      Consumer<IndexProgress> progress) {
    this.client = client;
    this.options = options;
    this.warnings = warnings;
    this.progress = progress;
    this.nextCommit.set(options.commitEvery() > 0 ? options.commitEvery() : Long.MAX_VALUE);
  }

  /** The threads sending batches, for the reader to see whether any stopped early. */
  private final List<Future<?>> workers = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Inputs that could not be read to their end, each with why. */
  private final List<String> unread = new java.util.concurrent.CopyOnWriteArrayList<>();

  public IndexResult run() {
    if (options.commitEvery() != IndexOptions.NO_COMMIT) {
      // documents sent before and not yet committed would count as this run's: the run commits
      // anyway, so it commits first and counts them as there before
      commit();
    }
    long before = count();
    lookUpIds = before > 0;
    long totalBytes = totalBytes();
    seen = new SeenIds(inputEstimate());
    long t0 = System.nanoTime();
    BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(options.threads() * 2);
    ExecutorService pool = Executors.newFixedThreadPool(options.threads() + 1);
    try (Rejects rejects = new Rejects(options.rejects())) {
      for (int i = 0; i < options.threads(); i++) {
        workers.add(pool.submit(() -> work(queue, rejects)));
      }
      Future<?> reporter = pool.submit(() -> report(t0, totalBytes, rejects));
      try {
        readAll(queue, rejects);
      } finally {
        for (int i = 0; i < options.threads(); i++) {
          if (!put(queue, END)) {
            break; // no worker left to take it
          }
        }
      }
      for (Future<?> w : workers) {
        await(w);
      }
      reporter.cancel(true);
      progress.accept(snapshot(t0, totalBytes, rejects, true));
      if (options.commitEvery() != IndexOptions.NO_COMMIT) {
        commit();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      long after = options.commitEvery() == IndexOptions.NO_COMMIT ? -1 : count();
      boolean verified = after >= 0 && !uncounted
          && after - before == accepted.get() + acceptedChildren.get() - replaced.get();
      Path rejectsFile = rejects.fileIfAny();
      return new IndexResult(read.get(), accepted.get(), acceptedChildren.get(), replaced.get(),
          rejects.count(),
          retries.get(), seconds,
          accepted.get() / Math.max(seconds, 1e-9), totalBytes / 1e6 / Math.max(seconds, 1e-9),
          before, after, verified, rejectsFile == null ? null : rejectsFile.toString(),
          List.copyOf(unread), null);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot close the rejects file: " + org.solrscale.data.Corpus.why(e));
    } catch (RuntimeException e) {
      if (org.solrscale.spec.Interruption.signalled()) { // Ctrl-C: say what got in, never that it verified
        throw SolrscaleException.failed("stopped after " + accepted.get() + " documents were accepted (the "
            + "collection keeps them); not verified");
      }
      throw e;
    } finally {
      pool.shutdownNow();
    }
  }

  private long totalBytes() {
    long sum = 0;
    for (Path p : options.inputs()) {
      try {
        sum += Files.size(p);
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot read " + p + ": " + org.solrscale.data.Corpus.why(e));
      }
    }
    return sum;
  }

  /** About how many bytes the inputs hold once decompressed (gzip: eight times its size). */
  private long inputEstimate() {
    long sum = 0;
    for (Path p : options.inputs()) {
      try {
        sum += Files.size(p) * (p.getFileName().toString().endsWith(".gz") ? 8 : 1);
      } catch (IOException e) {
        // counted as nothing: the filter is only smaller
      }
    }
    return sum;
  }

  private void readAll(BlockingQueue<Batch> queue, Rejects rejects) {
    List<Entry> batch = new ArrayList<>(options.batchSize());
    long seq = 0;
    for (Path in : options.inputs()) {
      Format format = options.format() != null ? options.format() : Format.of(in);
      long ordinal = 0;
      long line = 0;
      try (CorpusReader r = Corpus.open(in, format, bytesRead, true)) {
        Item item;
        while ((item = r.next()) != null) {
          read.incrementAndGet();
          ordinal = item.ordinal();
          line = item.line();
          if (!item.ok()) {
            rejects.add(item.source(), item.ordinal(), item.line(), item.error(), null, item.raw());
            continue;
          }
          String problem = problem(item.document());
          if (problem != null) {
            rejects.add(item.source(), item.ordinal(), item.line(), problem, item.document(), null);
            continue;
          }
          SolrInputDocument doc = toSolr(item.document());
          String id = String.valueOf(doc.getFieldValue("id"));
          batch.add(new Entry(doc, id, seen.add(id), item.document(), item.source(),
              item.ordinal(), item.line()));
          if (batch.size() >= options.batchSize()) {
            putOrFail(queue, new Batch(seq++, batch));
            batch = new ArrayList<>(options.batchSize());
          }
        }
      } catch (IOException | java.io.UncheckedIOException e) {
        // what was sent stays sent: the run goes on, commits, verifies and says what it missed
        String why = org.solrscale.data.Corpus.why(e instanceof java.io.UncheckedIOException u
            ? u.getCause() : (IOException) e);
        String what = ordinal == 0 ? "cannot read it: " + why
            : "cannot read it after item " + ordinal + " (line " + line + "): " + why
                + "; what follows was not indexed";
        unread.add(in + ": " + what);
        read.incrementAndGet();
        rejects.add(in.toString(), ordinal + 1, line, what, null, null);
      }
    }
    if (!batch.isEmpty()) {
      putOrFail(queue, new Batch(seq, batch));
    }
  }

  /** Why a document cannot be sent at all, or null. */
  private String problem(Document d) {
    if (d.first("id") == null || d.first("id").isEmpty()) {
      return "document has no id";
    }
    String child = childWithoutId(d);
    if (child != null) {
      return "a child document of " + d.first("id") + " has no id (" + child + ")";
    }
    String prefix = options.routePrefixField();
    if (prefix != null && (d.first(prefix) == null || d.first(prefix).isEmpty())) {
      return "document has no value for the route prefix field '" + prefix + "'";
    }
    if (prefix != null && (d.first(prefix).contains("!") || d.first(prefix).contains("/"))) {
      return "the route prefix '" + d.first(prefix) + "' (field '" + prefix + "') holds '!' or '/', "
          + "which compositeId routing reads as its own syntax: the document would not land with "
          + "the others of its prefix";
    }
    if (prefix != null && d.first("id").contains("!")) {
      return "id '" + d.first("id") + "' already holds a route prefix ('!'); with --route-prefix it "
          + "would become a three-part id, which does not keep a prefix's documents on one shard";
    }
    return null;
  }

  /** A child document (at any depth) without an id, as text, or null. */
  private static String childWithoutId(Document d) {
    for (Document c : d.children()) {
      if (c.first("id") == null || c.first("id").isEmpty()) {
        return BulkIndexer.oneLine(c.fields().toString());
      }
      String deeper = childWithoutId(c);
      if (deeper != null) {
        return deeper;
      }
    }
    return null;
  }

  private SolrInputDocument toSolr(Document d) {
    SolrInputDocument s = block(d);
    if (options.routePrefixField() != null) {
      // compositeId routing: documents sharing the prefix land on one shard (children with them)
      s.setField("id", d.first(options.routePrefixField()) + "!" + d.first("id"));
    }
    return s;
  }

  /** A document and its children, which Solr indexes as one block. */
  private static SolrInputDocument block(Document d) {
    SolrInputDocument s = new SolrInputDocument();
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      for (Object v : f.getValue()) {
        // UTF-8 as read goes into the javabin request as it is, without a String in between
        s.addField(f.getKey(), v instanceof Utf8Text u
            ? new ByteArrayUtf8CharSequence(u.bytes(), u.offset(), u.byteLength())
            // numbers as their text, which Solr parses by the field's type as it does XML's:
            // a Long in an int field would be stored wrapped around, and javabin knows no
            // BigInteger or BigDecimal (it would send "java.math...:" + digits)
            : v instanceof Number ? v.toString() : v);
      }
    }
    for (Document c : d.children()) {
      s.addChildDocument(block(c));
    }
    return s;
  }

  private void work(BlockingQueue<Batch> queue, Rejects rejects) {
    try {
      while (true) {
        Batch taken = queue.take();
        if (taken == END) {
          return;
        }
        List<Entry> batch = taken.entries;
        takeOff(taken);
        try {
          send(batch, rejects, holding(batch));
        } finally {
          land(taken);
        }
        maybeCommit();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Lets the batch be sent, in input order (after every earlier batch took off), once no batch
   * being sent holds one of its ids that may be there already: all of them into a collection that
   * held documents, and into one that was empty only those that may have been read before (the
   * others are new). So two batches with one id are never sent at the same time, the earlier is
   * sent first (the input's last version of an id is the one that stays), and a batch's look-up
   * sees every earlier document with its ids. Only the batch next in order ever waits, and only
   * for batches being sent, which hold no lock. A batch of new ids costs no set of ids at all.
   */
  private void takeOff(Batch batch) throws InterruptedException {
    synchronized (flying) {
      while (batch.seq != nextTakeOff) {
        flying.wait();
      }
      try {
        List<String> mayBeThere = batch.entries.stream().filter(this::mayBeThere).map(Entry::id)
            .toList();
        while (sharesAnId(mayBeThere)) {
          flying.wait();
        }
        flying.add(batch);
      } finally {
        // its turn is over even when it fails here (its worker, and so the run, fails with that):
        // the batches after it take theirs, so no worker waits for this one for ever
        nextTakeOff++;
        flying.notifyAll();
      }
    }
  }

  /** Whether the entry's id may be in the collection already, so it must be looked up. */
  private boolean mayBeThere(Entry e) {
    return lookUpIds || e.again();
  }

  /** Whether a batch being sent holds one of these ids (the caller holds the lock). */
  private boolean sharesAnId(List<String> ids) {
    if (ids.isEmpty()) {
      return false;
    }
    for (Batch other : flying) {
      Set<String> theirs = other.ids();
      for (String id : ids) {
        if (theirs.contains(id)) {
          return true;
        }
      }
    }
    return false;
  }

  private void land(Batch batch) {
    synchronized (flying) {
      flying.remove(batch);
      flying.notifyAll();
    }
  }

  /**
   * The ids of the batch that the collection holds already, each with the size of its family there
   * (1 for a document without children); none when every id of the batch is new (nothing to look
   * up). Looked up: the ids whose first copy in the batch may be there, by
   * real-time get, which sees uncommitted documents too (no other batch with them is in flight,
   * {@link #takeOff}). A family's size is this run's own for an id it sent as a family or over one
   * ({@link #families}), else the committed index's: any other version there is the one from before
   * the run (committed first) or one without children that this run sent. Only when {@link
   * #families} overflowed are the ids this run may have sent asked of the update log.
   */
  private Map<String, Long> holding(List<Entry> batch) {
    if (batch.stream().noneMatch(this::mayBeThere)) {
      return Map.of();
    }
    Map<String, Entry> toLookUp = new LinkedHashMap<>();
    Set<String> inBatch = new HashSet<>();
    for (Entry e : batch) {
      if (inBatch.add(e.id()) && mayBeThere(e)) {
        toLookUp.put(e.id(), e);
      }
    }
    Map<String, Long> out = new HashMap<>();
    if (toLookUp.isEmpty()) {
      return out;
    }
    try {
      List<String> found = new ArrayList<>();
      for (SolrDocument d : realTimeGet(toLookUp.keySet(), "id")) {
        found.add(String.valueOf(d.getFirstValue("id")));
      }
      Map<String, Long> committed = familySizes(found);
      List<String> live = new ArrayList<>();
      for (String id : found) {
        Long mine = families.get(id);
        out.put(id, mine != null ? mine : committed.getOrDefault(id, 1L));
        Entry e = toLookUp.get(id);
        if (mine == null && familiesFull && e != null && e.again()) {
          live.add(id); // this run may have sent it as a family and forgotten its size
        }
      }
      if (!live.isEmpty()) {
        try {
          // every top-level field, so that labelled children (a schema with _nest_path_) pass fl
          for (SolrDocument d : realTimeGet(live, "*,[child limit=-1]")) {
            out.put(String.valueOf(d.getFirstValue("id")), 1 + descendants(d));
          }
        } catch (SolrServerException | IOException | RuntimeException e) {
          uncounted = true;
          warnings.accept("warning: cannot count the child documents of ids " + options.collection()
              + " holds (" + oneLine(e.getMessage()) + "); the run cannot verify its count");
        }
      }
    } catch (SolrServerException | IOException | RuntimeException e) { // the load goes on anyway
      uncounted = true; // what the batch replaced is unknown, and so what the families map holds
      warnings.accept("warning: cannot look up which ids " + options.collection() + " holds ("
          + oneLine(e.getMessage()) + "); the run cannot verify its count");
    }
    return out;
  }

  /** The documents with these ids, uncommitted ones included (real-time get), with fields {@code fl}. */
  private List<SolrDocument> realTimeGet(java.util.Collection<String> ids, String fl)
      throws SolrServerException, IOException {
    ModifiableSolrParams get = new ModifiableSolrParams();
    get.set("fl", fl);
    ids.forEach(id -> get.add("id", id));
    QueryRequest rtg = new QueryRequest(get, SolrRequest.METHOD.POST);
    rtg.setPath("/get");
    QueryResponse answer = rtg.process(client, options.collection());
    // one id gives {"doc": ...} (null if absent), several a document list
    return answer.getResults() != null ? answer.getResults()
        : answer.getResponse().get("doc") instanceof SolrDocument one ? List.of(one) : List.of();
  }

  /** The documents below this one: anonymous children and labelled ones, at any depth. */
  static long descendants(SolrDocument d) {
    long n = 0;
    if (d.getChildDocuments() != null) {
      for (SolrDocument c : d.getChildDocuments()) {
        n += 1 + descendants(c);
      }
    }
    for (String field : d.getFieldNames()) {
      for (Object v : d.getFieldValues(field)) {
        if (v instanceof SolrDocument c) {
          n += 1 + descendants(c);
        }
      }
    }
    return n;
  }

  /** The size (root and children) of the committed families among these root ids, if any. */
  private Map<String, Long> familySizes(List<String> roots) {
    Map<String, Long> sizes = new HashMap<>();
    if (roots.isEmpty()) {
      return sizes;
    }
    try {
      SolrQuery q = new SolrQuery("{!terms f=_root_ separator=$sep v=$roots}").setRows(0);
      q.set("sep", "\u001f");
      q.set("roots", String.join("\u001f", roots));
      q.setFacet(true).addFacetField("_root_").setFacetLimit(-1).setFacetMinCount(2);
      FacetField f = client.query(options.collection(), q,
          SolrRequest.METHOD.POST).getFacetField("_root_");
      if (f != null) {
        f.getValues().forEach(c -> sizes.put(c.getName(), c.getCount()));
      }
    } catch (SolrServerException | IOException | RuntimeException e) {
      // no _root_ field: no families; the old documents count one each
    }
    return sizes;
  }

  /**
   * Sends a batch and counts what it accepted and, given what the collection held ({@link
   * #holding}), what that replaced.
   */
  void send(List<Entry> batch, Rejects rejects, Map<String, Long> holding)
      throws InterruptedException {
    Set<Entry> refused = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    sendSplitting(batch, rejects, refused);
    accepted.addAndGet(batch.size() - refused.size());
    long children = 0;
    for (Entry e : batch) {
      if (!refused.contains(e)) {
        children += e.source().size() - 1;
      }
    }
    acceptedChildren.addAndGet(children);
    replaced.addAndGet(replacedBy(batch, refused, holding, this::remember));
  }

  /**
   * How many documents the accepted entries of a batch replaced: each replaces the version its id
   * had just before it, the collection's ({@code holding}: id to family size) or an earlier
   * accepted copy in the batch, with that version's children. A copy Solr refused replaced nothing.
   * {@code versions} hears of each accepted entry.
   */
  static long replacedBy(List<Entry> batch, Set<Entry> refused, Map<String, Long> holding,
      Versions versions) {
    Map<String, Long> current = new HashMap<>(holding);
    long n = 0;
    for (Entry e : batch) {
      if (!refused.contains(e)) {
        long size = e.source().size();
        Long before = current.put(e.id(), size);
        n += before == null ? 0 : before;
        versions.made(e.id(), size, before != null && before > 1);
      }
    }
    return n;
  }

  /** Hears of the versions a batch made current. */
  interface Versions {
    /** The id's version now has {@code size} documents; it replaced a family when {@code overFamily}. */
    void made(String id, long size, boolean overFamily);
  }

  /** Keeps the size of a family (or of a document over one) this run made current, while there is room. */
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

  /** Sends a batch; a refused batch is halved until single bad documents are left and rejected. */
  private void sendSplitting(List<Entry> batch, Rejects rejects, Set<Entry> refused)
      throws InterruptedException {
    String refusal = sendWithRetries(batch);
    if (refusal == null) {
      return;
    }
    if (batch.size() == 1) {
      Entry e = batch.get(0);
      rejects.add(e.file(), e.ordinal(), e.line(), refusal, e.source(), null);
      refused.add(e);
      return;
    }
    int half = batch.size() / 2;
    sendSplitting(batch.subList(0, half), rejects, refused);
    sendSplitting(batch.subList(half, batch.size()), rejects, refused);
  }

  /**
   * Null when Solr accepted the batch; else why it refused it. When the attempts run out the last
   * error counts as a refusal, so the documents are rejected, not lost.
   */
  private String sendWithRetries(List<Entry> batch) throws InterruptedException {
    List<SolrInputDocument> docs = batch.stream().map(Entry::doc).toList();
    return withRetries(() -> client.add(options.collection(), docs)).failure();
  }

  /** A request to Solr. */
  private interface Call<T> {
    T run() throws SolrServerException, IOException;
  }

  /** What a call answered, or why it failed for good (null when it did not). */
  private record Outcome<T>(T value, String failure) {}

  /**
   * Runs a call with the load's attempts: transient failures (connection errors, 5xx such as 503
   * during a leader change) are retried with exponential backoff; a 4xx is Solr's answer and is
   * not.
   */
  private <T> Outcome<T> withRetries(Call<T> call) throws InterruptedException {
    String last = null;
    for (int attempt = 1; attempt <= options.maxAttempts(); attempt++) {
      try {
        return new Outcome<>(call.run(), null);
      } catch (SolrException e) {
        if (e.code() >= 400 && e.code() < 500) {
          return new Outcome<>(null, "Solr refused it (HTTP " + e.code() + "): "
              + oneLine(e.getMessage()));
        }
        last = "HTTP " + e.code() + ": " + oneLine(e.getMessage());
      } catch (SolrServerException | IOException | RuntimeException e) {
        last = oneLine(e.getMessage() == null ? e.toString() : e.getMessage());
      }
      if (attempt < options.maxAttempts()) {
        retries.incrementAndGet();
        long backoff = Math.min(10_000, 200L << Math.min(attempt - 1, 10));
        Thread.sleep(backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1));
      }
    }
    return new Outcome<>(null, "gave up after " + options.maxAttempts() + " attempts: " + last);
  }

  /** As {@link #withRetries}, for a call the run cannot go on without: a failure ends it. */
  private <T> T orFail(Call<T> call, String what) {
    try {
      Outcome<T> o = withRetries(call);
      if (o.failure() != null) {
        throw SolrscaleException.failed(what + ": " + o.failure());
      }
      return o.value();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed(what + ": interrupted");
    }
  }

  private void maybeCommit() {
    long at = nextCommit.get();
    if (accepted.get() >= at && nextCommit.compareAndSet(at, at + options.commitEvery())) {
      try {
        commit();
      } catch (SolrscaleException e) {
        // a periodic commit failing must not stop a worker; the final commit and count decide
        warnings.accept("warning: " + e.getMessage());
      }
    }
  }

  private void commit() {
    orFail(() -> client.commit(options.collection()), "commit on " + options.collection() + " failed");
  }

  private long count() {
    return orFail(() -> client.query(options.collection(), new SolrQuery("*:*").setRows(0)),
        "cannot count documents in " + options.collection()).getResults().getNumFound();
  }

  private void report(long t0, long totalBytes, Rejects rejects) {
    try {
      while (true) {
        Thread.sleep(500);
        progress.accept(snapshot(t0, totalBytes, rejects, false));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private IndexProgress snapshot(long t0, long totalBytes, Rejects rejects, boolean done) {
    return new IndexProgress(accepted.get(), rejects.count(), bytesRead.get(), totalBytes,
        (System.nanoTime() - t0) / 1e9, done);
  }

  /**
   * Queues a batch of documents. A worker stops before the end only on an unexpected failure (out
   * of memory, say); then the run stops with that failure instead of waiting for room in the queue
   * that no worker will make, or going on with fewer workers.
   */
  private void putOrFail(BlockingQueue<Batch> q, Batch batch) {
    if (!put(q, batch)) {
      throw SolrscaleException.failed("every worker stopped before the end of the input");
    }
  }

  /**
   * Puts the batch in the queue; false when no worker is left to take it. A worker that stopped
   * with a failure while input was left makes this throw that failure.
   */
  private boolean put(BlockingQueue<Batch> q, Batch batch) {
    try {
      while (!q.offer(batch, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        boolean anyLeft = false;
        for (Future<?> w : workers) {
          if (!w.isDone()) {
            anyLeft = true;
          } else if (batch != END) {
            await(w); // throws what stopped it
          }
        }
        if (!anyLeft) {
          return false;
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
  }

  private static void await(Future<?> f) {
    try {
      f.get();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error err) { // out of memory, say: reported as such
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
  }

  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replaceAll("\\s+", " ").trim();
    return t.length() > 300 ? t.substring(0, 300) + "..." : t;
  }
}
