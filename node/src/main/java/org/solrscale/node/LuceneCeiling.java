package org.solrscale.node;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.core.SolrConfig;
import org.apache.solr.index.DefaultMergePolicyFactory;
import org.apache.solr.index.MergePolicyFactoryArgs;
import org.apache.solr.schema.FieldType;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.IndexSchemaFactory;
import org.apache.solr.search.similarities.SchemaSimilarityFactory;
import org.apache.solr.update.DocumentBuilder;
import org.apache.solr.update.SolrIndexConfig;

/**
 * The Lucene ceiling of the index benchmark: a Solr XML corpus held in memory, written by an
 * in-process IndexWriter exactly as a Solr 9 core with the given configset would write it.
 */
public final class LuceneCeiling {
  private static final String USAGE =
      "usage: LuceneCeiling CONF_DIR CORPUS.xml INDEX_DIR THREADS [RAM_BUFFER_MB]";
  private static final int TIMED_RUNS = 2;
  private static final String ROOT_FIELD = "_root_";
  private static final String VERSION_FIELD = "_version_";

  private final IndexSchema schema;
  private final SolrIndexConfig indexConfig;
  private final double ramBufferMb;
  private final int threads;
  private final List<SolrInputDocument> docs;
  private final AtomicLong clock = new AtomicLong();

  private LuceneCeiling(
      SolrConfig config,
      IndexSchema schema,
      double ramBufferMb,
      int threads,
      List<SolrInputDocument> docs) {
    this.schema = schema;
    this.indexConfig = config.indexConfig;
    this.ramBufferMb = ramBufferMb;
    this.threads = threads;
    this.docs = docs;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 4 || args.length > 5) {
      System.err.println(USAGE);
      System.exit(2);
    }
    Path conf = Path.of(args[0]).toAbsolutePath();
    Path indexDir = Path.of(args[2]);
    int threads = Integer.parseInt(args[3]);
    // The instance dir is conf's parent: that is where SolrResourceLoader looks for conf/.
    SolrConfig config = new SolrConfig(conf.getParent(), "solrconfig.xml");
    IndexSchema schema = IndexSchemaFactory.buildIndexSchema("schema.xml", config);
    requireDefaults(config.indexConfig, schema);
    double ram =
        args.length == 5 ? Double.parseDouble(args[4]) : config.indexConfig.ramBufferSizeMB;
    List<SolrInputDocument> docs = read(Path.of(args[1]));
    new LuceneCeiling(config, schema, ram, threads, docs).measure(indexDir);
  }

  /** Warm-up, then the timed runs, each into a fresh directory; prints each and the best. */
  private void measure(Path indexDir) throws Exception {
    run("warm-up", indexDir.resolve("warm-up"));
    List<Run> runs = new ArrayList<>();
    for (int i = 1; i <= TIMED_RUNS; i++) {
      runs.add(run("run " + i, indexDir.resolve("run-" + i)));
    }
    Run best = runs.stream().min(Comparator.comparingDouble(Run::seconds)).orElseThrow();
    System.out.println(best.line("lucene", threads));
    System.out.println(json(runs, best));
  }

  private Run run(String label, Path dir) throws Exception {
    deleteTree(dir);
    // The previous run's garbage is collected now, not on this run's clock.
    System.gc();
    long start = System.nanoTime();
    long cpuStart = processCpuNanos();
    try (Directory directory = directory(dir);
        IndexWriter writer = new IndexWriter(directory, writerConfig())) {
      feed(writer);
      writer.commit();
    }
    Run run =
        new Run(
            docs.size(),
            (System.nanoTime() - start) / 1e9,
            (processCpuNanos() - cpuStart) / 1e9,
            sizeMb(dir));
    System.out.println(run.line("lucene " + label, threads));
    return run;
  }

  /** THREADS threads take the next document from one shared counter until none is left. */
  private void feed(IndexWriter writer) throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement();
                      i < docs.size();
                      i = next.getAndIncrement()) {
                    add(writer, docs.get(i));
                  }
                  return null;
                }));
      }
      for (Future<?> worker : workers) {
        worker.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * What Solr 9.10's AddUpdateCommand and DirectUpdateHandler2 do with a document without children:
   * _version_ from the update log's clock, _root_ = id when the schema has _root_, then
   * updateDocuments by the _root_ term (by the id term without _root_).
   */
  private void add(IndexWriter writer, SolrInputDocument doc) throws IOException {
    String id = doc.getFieldValue(schema.getUniqueKeyField().getName()).toString();
    if (schema.getFieldOrNull(VERSION_FIELD) != null) {
      doc.setField(VERSION_FIELD, nextVersion());
    }
    boolean rooted = schema.isUsableForChildDocs();
    if (rooted) {
      doc.setField(ROOT_FIELD, id);
    }
    String termField = rooted ? ROOT_FIELD : schema.getUniqueKeyField().getName();
    Term term = new Term(termField, schema.indexableUniqueKey(id));
    writer.updateDocuments(term, List.of(DocumentBuilder.toDocument(doc, schema)));
  }

  /** As Solr's VersionInfo.getNewClock: milliseconds shifted left 20 bits, always increasing. */
  private long nextVersion() {
    return clock.updateAndGet(v -> Math.max(v + 1, System.currentTimeMillis() << 20));
  }

  /**
   * Solr's SolrIndexConfig.toIndexWriterConfig without a core: the schema's analyzer, the
   * configset's buffer settings and compound-file choice, Solr's default merge policy
   * (DefaultMergePolicyFactory) and merge scheduler (a plain ConcurrentMergeScheduler).
   */
  private IndexWriterConfig writerConfig() {
    IndexWriterConfig iwc = new IndexWriterConfig(schema.getIndexAnalyzer());
    iwc.setRAMBufferSizeMB(ramBufferMb);
    if (indexConfig.maxBufferedDocs != -1) {
      iwc.setMaxBufferedDocs(indexConfig.maxBufferedDocs);
    }
    // The schema's SchemaSimilarityFactory only works inside a core; without per-field
    // similarities (requireDefaults checks) it is BM25Similarity, IndexWriterConfig's default.
    iwc.setMergePolicy(
        new DefaultMergePolicyFactory(
                schema.getResourceLoader(), new MergePolicyFactoryArgs(), schema)
            .getMergePolicy());
    iwc.setMergeScheduler(new ConcurrentMergeScheduler());
    iwc.setUseCompoundFile(indexConfig.useCompoundFile);
    // SchemaCodecFactory's codec is Lucene's default codec (BEST_SPEED stored fields) as long as
    // no field type names its own postings or docValues format (requireDefaults checks that).
    iwc.setCodec(Codec.getDefault());
    return iwc;
  }

  /** As Solr's NRTCachingDirectoryFactory with its defaults: 4 MB segments, 48 MB in all. */
  private static Directory directory(Path dir) throws IOException {
    return new NRTCachingDirectory(FSDirectory.open(dir), 4, 48);
  }

  /** Refuses configsets whose index settings this class does not reproduce. */
  private static void requireDefaults(SolrIndexConfig config, IndexSchema schema) {
    if (config.mergePolicyFactoryInfo != null
        || config.mergeSchedulerInfo != null
        || config.mergedSegmentWarmerInfo != null
        || config.ramPerThreadHardLimitMB != -1) {
      fail(
          "the configset sets a merge policy, merge scheduler, segment warmer or per-thread RAM"
              + " limit; the Lucene ceiling only reproduces Solr's defaults for those");
    }
    if (!(schema.getSimilarityFactory() instanceof SchemaSimilarityFactory)) {
      fail("the schema sets a global similarity; the Lucene ceiling only reproduces the default");
    }
    for (FieldType type : schema.getFieldTypes().values()) {
      if (type.getPostingsFormat() != null
          || type.getDocValuesFormat() != null
          || type.getSimilarityFactory() != null) {
        fail(
            "field type "
                + type.getTypeName()
                + " names its own postings format, docValues"
                + " format or similarity; the Lucene ceiling only reproduces Solr's defaults");
      }
    }
  }

  /** Parses a Solr XML update file ({@code <add><doc><field name="x">v</field>...}) into memory. */
  static List<SolrInputDocument> read(Path corpus) throws IOException, XMLStreamException {
    List<SolrInputDocument> docs = new ArrayList<>();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(corpus))) {
      XMLStreamReader xml = XMLInputFactory.newFactory().createXMLStreamReader(in);
      while (xml.hasNext()) {
        if (xml.next() != XMLStreamConstants.START_ELEMENT) {
          continue;
        }
        if (xml.getLocalName().equals("doc")) {
          docs.add(new SolrInputDocument());
        } else if (xml.getLocalName().equals("field") && !docs.isEmpty()) {
          docs.get(docs.size() - 1)
              .addField(xml.getAttributeValue(null, "name"), xml.getElementText());
        }
      }
      xml.close();
    }
    return docs;
  }

  private static double sizeMb(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      long bytes = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
      return bytes / 1e6;
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(p);
      }
    }
  }

  private String json(List<Run> runs, Run best) {
    String each = runs.stream().map(Run::json).collect(Collectors.joining(","));
    return String.format(
        Locale.ROOT,
        "{\"docs\":%d,\"threads\":%d,\"ram_buffer_mb\":%.0f,\"runs\":[%s],\"best_docs_per_s\":%.0f}",
        docs.size(),
        threads,
        ramBufferMb,
        each,
        best.docsPerSecond());
  }

  private static void fail(String message) {
    System.err.println(message);
    System.exit(2);
  }

  /**
   * The CPU time of this whole JVM (every thread: writers, merges, compilers, collector), to set
   * beside a Solr node's from /proc; -1e9 where the JVM cannot tell.
   */
  private static long processCpuNanos() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1_000_000_000L;
  }

  /**
   * One timed run: documents, wall seconds from the first add through commit and close, the CPU
   * seconds the JVM used meanwhile, MB.
   */
  private record Run(int docs, double seconds, double cpuSeconds, double indexMb) {
    double docsPerSecond() {
      return docs / seconds;
    }

    String line(String label, int threads) {
      return String.format(
          Locale.ROOT,
          "%s: %d docs in %.2f s (%.0f docs/s), %d threads, CPU %.1f s, index %.1f MB",
          label,
          docs,
          seconds,
          docsPerSecond(),
          threads,
          cpuSeconds,
          indexMb);
    }

    String json() {
      return String.format(
          Locale.ROOT,
          "{\"seconds\":%.3f,\"docs_per_s\":%.0f,\"cpu_seconds\":%.2f,\"index_mb\":%.1f}",
          seconds,
          docsPerSecond(),
          cpuSeconds,
          indexMb);
    }
  }
}
