package org.solrscale.index;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.solrscale.data.Corpus;
import org.solrscale.results.IndexResult;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.SolrscaleException;

/** Sends a corpus to a collection and verifies the count: commits and counts before and after. */
public final class BulkIndexer {
  private final SolrClient client;
  private final IndexOptions options;
  private final Consumer<String> warnings;
  private final Consumer<IndexProgress> progress;
  private final Retries retries;

  /** {@code progress} hears about the load twice a second and once at its end. */
  public BulkIndexer(
      SolrClient client,
      IndexOptions options,
      Consumer<String> warnings,
      Consumer<IndexProgress> progress) {
    this.client = client;
    this.options = options;
    this.warnings = warnings;
    this.progress = progress;
    this.retries = new Retries(options.maxAttempts());
  }

  /**
   * Commits and counts, loads through a {@link Pipeline}, commits and counts again. Every input
   * item ends up accepted or in the rejects file; what accepted documents replaced ({@link
   * ReplaceLedger}) is subtracted from the count expected.
   */
  public IndexResult run() {
    boolean commits = options.commitEvery() != IndexOptions.NO_COMMIT;
    if (commits) {
      // documents sent before and not yet committed would count as this run's: the run commits
      // anyway, so it commits first and counts them as there before
      commit();
    }
    long before = count();
    long totalBytes = BatchReader.totalBytes(options.inputs());
    ReplaceLedger ledger =
        new ReplaceLedger(
            new IdLookups(client, options.collection()),
            options.collection(),
            before > 0,
            new SeenIds(BatchReader.inputEstimate(options.inputs())),
            warnings);
    BatchSender sender = null;
    try (Rejects rejects = new Rejects(options.rejects())) {
      sender = new BatchSender(client, options.collection(), retries, rejects, ledger);
      Pipeline pipeline =
          new Pipeline(
              options, ledger, sender, rejects, this::commit, warnings, progress, totalBytes);
      pipeline.load();
      if (commits) {
        commit();
      }
      double seconds = pipeline.seconds();
      long after = commits ? count() : -1;
      return result(pipeline, sender, ledger, rejects, before, after, seconds, totalBytes);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot close the rejects file: " + Corpus.why(e));
    } catch (RuntimeException e) {
      if (Interruption.signalled()) { // Ctrl-C: say what got in, never that it verified
        throw SolrscaleException.failed(
            "stopped after "
                + (sender == null ? 0 : sender.accepted())
                + " documents were accepted (the collection keeps them); not verified");
      }
      throw e;
    }
  }

  private IndexResult result(
      Pipeline pipeline,
      BatchSender sender,
      ReplaceLedger ledger,
      Rejects rejects,
      long before,
      long after,
      double seconds,
      long totalBytes) {
    long accepted = sender.accepted();
    boolean verified =
        after >= 0
            && !ledger.uncounted()
            && after - before == accepted + sender.acceptedChildren() - ledger.replaced();
    Path rejectsFile = rejects.fileIfAny();
    return new IndexResult(
        pipeline.reader().read(),
        accepted,
        sender.acceptedChildren(),
        ledger.replaced(),
        rejects.count(),
        retries.count(),
        seconds,
        accepted / Math.max(seconds, 1e-9),
        totalBytes / 1e6 / Math.max(seconds, 1e-9),
        before,
        after,
        verified,
        rejectsFile == null ? null : rejectsFile.toAbsolutePath().normalize().toString(),
        pipeline.reader().unread(),
        null);
  }

  private void commit() {
    retries.orFail(
        () -> client.commit(options.collection()), "commit on " + options.collection() + " failed");
  }

  /**
   * Counts and family sizes are asked of the shard leaders: a PULL or TLOG replica sees a commit
   * only after its next poll of the leader (half the autoCommit time, or longer), so a count there
   * can miss what was just indexed and committed.
   */
  static final String LEADERS = "replica.leader:true";

  private long count() {
    return retries
        .orFail(
            () ->
                client.query(
                    options.collection(),
                    new SolrQuery("*:*").setRows(0).setParam("shards.preference", LEADERS)),
            "cannot count documents in " + options.collection())
        .getResults()
        .getNumFound();
  }
}
