package org.solrscale.index;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.common.SolrInputDocument;

/** Sends a batch, halving a refused one around its bad documents, and counts what it accepted. */
final class BatchSender {
  private final SolrClient client;
  private final String collection;
  private final Retries retries;
  private final Rejects rejects;
  private final ReplaceLedger ledger;
  private final AtomicLong accepted = new AtomicLong();

  /** The child documents of the accepted ones (at any depth): Solr counts them too. */
  private final AtomicLong acceptedChildren = new AtomicLong();

  BatchSender(
      SolrClient client,
      String collection,
      Retries retries,
      Rejects rejects,
      ReplaceLedger ledger) {
    this.client = client;
    this.collection = collection;
    this.retries = retries;
    this.rejects = rejects;
    this.ledger = ledger;
  }

  long accepted() {
    return accepted.get();
  }

  long acceptedChildren() {
    return acceptedChildren.get();
  }

  /**
   * Sends a batch that has taken off ({@link BatchOrder}) and counts what it accepted and, given
   * what the collection held before, what that replaced.
   */
  void send(List<Batch.Entry> batch) throws InterruptedException {
    Map<String, Long> holding = ledger.holding(batch);
    Set<Batch.Entry> refused = Collections.newSetFromMap(new IdentityHashMap<>());
    sendSplitting(batch, refused);
    accepted.addAndGet(batch.size() - refused.size());
    long children = 0;
    for (Batch.Entry e : batch) {
      if (!refused.contains(e)) {
        children += e.source().size() - 1;
      }
    }
    acceptedChildren.addAndGet(children);
    ledger.sent(batch, refused, holding);
  }

  /**
   * Sends a batch; a refused batch is halved until single bad documents are left and rejected, so
   * one bad document never takes its neighbours with it.
   */
  private void sendSplitting(List<Batch.Entry> batch, Set<Batch.Entry> refused)
      throws InterruptedException {
    String refusal = sendWithRetries(batch);
    if (refusal == null) {
      return;
    }
    if (batch.size() == 1) {
      Batch.Entry e = batch.get(0);
      rejects.add(e.file(), e.ordinal(), e.line(), refusal, e.source(), null);
      refused.add(e);
      return;
    }
    int half = batch.size() / 2;
    sendSplitting(batch.subList(0, half), refused);
    sendSplitting(batch.subList(half, batch.size()), refused);
  }

  /**
   * Null when Solr accepted the batch; else why it refused it. When the attempts run out the last
   * error counts as a refusal, so the documents are rejected, not lost.
   */
  private String sendWithRetries(List<Batch.Entry> batch) throws InterruptedException {
    List<SolrInputDocument> docs = batch.stream().map(Batch.Entry::doc).toList();
    return retries.withRetries(() -> client.add(collection, docs)).failure();
  }
}
