package org.solrscale.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.solrscale.data.Format;
import org.solrscale.data.Inputs;
import org.solrscale.index.BulkIndexer;
import org.solrscale.index.IndexOptions;
import org.solrscale.index.IndexResult;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale index`: bulk-loads corpus files into a collection, losing nothing. */
@Command(name = "index", description = "Index corpus files (Solr XML, JSONL, JSON, CSV; plain or gzip) into a collection.")
final class IndexCommand implements Callable<Integer> {
  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Input files or globs.")
  List<String> inputs;

  @Mixin
  SolrTarget target;

  @Option(names = "--collection", required = true, description = "Target collection.")
  String collection;

  @Option(names = "--format", description = "Input format when the names do not tell: xml, jsonl, json, csv.")
  String format;

  @Option(names = "--threads", description = "Sending threads (default: the number of cores, at least 2).")
  Integer threads;

  @Option(names = "--batch", defaultValue = "1000", description = "Documents per request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--commit", defaultValue = "end", description = "end, none, or 'every N' documents (default: ${DEFAULT-VALUE}).")
  String commit;

  @Option(names = "--route-prefix", description = "Field whose value prefixes ids (value!id): related documents share a shard.")
  String routePrefix;

  @Option(names = "--rejects", description = "Rejects file, JSON Lines (default: ./COLLECTION-rejects.jsonl, written only if needed).")
  Path rejects;

  @Option(names = "--retries", defaultValue = "8", description = "Retries of a batch on transient errors (default: ${DEFAULT-VALUE}).")
  int retries;

  @Option(names = "--json", description = "Print the summary as JSON.")
  boolean json;

  @Override
  public Integer call() {
    List<Path> files = Inputs.expand(inputs);
    int senders = threads != null ? threads : Math.max(2, Runtime.getRuntime().availableProcessors());
    IndexOptions options = new IndexOptions(files, format == null ? null : Format.parse(format),
        collection, senders, batch, IndexOptions.parseCommit(commit), routePrefix,
        rejects != null ? rejects : Path.of(collection + "-rejects.jsonl"), retries + 1);
    IndexResult r;
    try (CloudSolrClient client = target.client();
        IndexProgressBar bar = new IndexProgressBar()) {
      r = new BulkIndexer(client, options, Terminal.progress(), bar).run();
    } catch (java.io.IOException e) {
      throw SolrscaleException.environment("cannot close the Solr client: " + e.getMessage());
    }
    if (json) {
      Terminal.printJson(r);
    } else {
      System.out.printf("read %,d, accepted %,d, rejected %,d in %.1f s (%,.0f docs/s, %.1f MB/s), %d retries%n",
          r.read(), r.accepted(), r.rejected(), r.seconds(), r.docsPerSec(), r.mbPerSec(), r.retries());
      if (r.rejectsFile() != null) {
        System.out.println("rejected documents and why: " + r.rejectsFile());
      }
      System.out.println(r.searchableAfter() < 0 ? "not verified (--commit none)"
          : r.verified() ? "verified: " + r.searchableAfter() + " searchable (" + r.searchableBefore()
              + " before + " + r.accepted() + " accepted)"
          : "NOT verified: " + r.searchableAfter() + " searchable, expected " + r.searchableBefore()
              + " + " + r.accepted() + " (duplicate ids in the input replace each other)");
    }
    return r.searchableAfter() >= 0 && !r.verified() ? 1 : 0;
  }
}
