package org.solrscale.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.solrscale.data.Format;
import org.solrscale.data.Inputs;
import org.solrscale.diagnose.Profiler;
import org.solrscale.index.IndexOptions;
import org.solrscale.index.IndexRun;
import org.solrscale.index.Rejects;
import org.solrscale.results.Diagnosis;
import org.solrscale.results.IndexProgressLog;
import org.solrscale.results.IndexResult;
import org.solrscale.results.RunProgress;
import org.solrscale.results.RunResults;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale index`: bulk-loads corpus files into a collection, losing nothing. */
@Command(
    name = "index",
    description =
        "Index corpus files (Solr XML, JSONL, JSON, CSV; plain or gzip) into a collection.")
final class IndexCommand implements Callable<Integer> {
  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Input files or globs.")
  List<String> inputs;

  @Mixin SolrTarget target;

  @Option(names = "--collection", required = true, description = "Target collection.")
  String collection;

  @Option(
      names = "--format",
      description =
          "Input format when the names do not tell: xml, jsonl, "
              + "json, csv (several values in a cell joined by '|'), or csv-plain (one value per cell, as "
              + "it is).")
  String format;

  @Option(
      names = "--threads",
      description = "Sending threads (default: the number of cores, at least 2).")
  Integer threads;

  @Option(
      names = "--batch",
      defaultValue = "1000",
      description = "Documents per request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--commit",
      defaultValue = "end",
      description = "end, none, or 'every N' documents (default: ${DEFAULT-VALUE}).")
  String commit;

  @Option(
      names = "--route-prefix",
      description = "Field whose value prefixes ids (value!id): related documents share a shard.")
  String routePrefix;

  @Option(
      names = "--rejects",
      description =
          "Rejects file, JSON Lines (default: ./COLLECTION-rejects.jsonl, written only if "
              + "needed; one that is not empty is refused, never overwritten).")
  Path rejects;

  @Option(
      names = "--retries",
      defaultValue = "8",
      description = "Retries of a batch on transient errors (default: ${DEFAULT-VALUE}).")
  int retries;

  @Option(names = "--json", description = "Print the summary as JSON.")
  boolean json;

  @Option(
      names = "--strict",
      description =
          "Exit 1 also when any input item was rejected (for CI: "
              + "a corpus that must index whole).")
  boolean strict;

  @Option(
      names = "--profile",
      description =
          "Record every Solr node with Java Flight Recorder while indexing: allocation, GC, lock"
              + " waits, hot methods and flame graphs in --out/profile (a cluster solrscale started).")
  boolean profile;

  @Option(
      names = "--out",
      description =
          "Directory for the summary as a run that report and compare read (results.json), the"
              + " documents accepted twice a second (index-progress.csv, written as it goes), and"
              + " --profile's recordings and findings.")
  Path out;

  @Mixin LiveOption liveView;

  @Override
  public Integer call() throws Exception {
    return liveView.around(out, "index", 0, this::index);
  }

  private int index() {
    List<Path> files = Inputs.expand(inputs);
    int senders =
        threads != null ? threads : Math.max(2, Runtime.getRuntime().availableProcessors());
    IndexOptions options =
        new IndexOptions(
            files,
            format == null ? null : Format.parse(format),
            collection,
            senders,
            batch,
            IndexOptions.parseCommit(commit),
            routePrefix,
            rejects != null ? rejects : Path.of(collection + "-rejects.jsonl"),
            retries + 1);
    Inputs.checkOutput(options.rejects(), files);
    Rejects.requireUnused(options.rejects());
    IndexResult r;
    Diagnosis diagnosis = null;
    try (Profiler profiler = Profiling.start(profile, target, out);
        IndexProgressBar bar = new IndexProgressBar();
        IndexProgressLog log = out == null ? null : new IndexProgressLog(out)) {
      long[] shown = {0};
      r =
          IndexRun.run(
              target.connect(),
              options,
              Terminal.progress(),
              p -> {
                bar.accept(p);
                if (log != null) {
                  if (log.record(p.seconds(), p.accepted())) { // the first: the load has begun
                    RunProgress.stepStarted(
                        out,
                        "index",
                        collection,
                        System.currentTimeMillis() - Math.round(p.seconds() * 1000));
                  }
                  liveView.progress(
                      shown,
                      "share",
                      p.totalBytes() > 0 ? (double) p.bytesRead() / p.totalBytes() : null,
                      "eta_s",
                      p.etaSeconds() >= 0 ? p.etaSeconds() : null);
                }
              });
      diagnosis = profiler == null ? null : profiler.stop();
    }
    if (out != null) {
      RunResults.writeCommandOut(out, "index.json", "index", r, r.seconds());
    }
    if (json) {
      Terminal.printJson(r);
    } else {
      System.out.printf(
          "read %,d, accepted %,d, rejected %,d in %.1f s (on average over it: %,.0f docs/s,"
              + " %.1f MB/s of input on disk), %d retries%n",
          r.read(),
          r.accepted(),
          r.rejected(),
          r.seconds(),
          r.docsPerSec(),
          r.mbPerSec(),
          r.retries());
      if (r.cpu() != null && !r.cpu().solrS().isEmpty()) {
        IndexResult.Cpu c = r.cpu();
        System.out.printf(
            "CPU: client %.1f s, Solr %.1f s on %d node(s): the client did %.0f %% of the work%s%n",
            c.clientS(),
            c.solrTotal(),
            c.solrS().size(),
            100 * c.clientShare(),
            c.coresBusy() == null
                ? ""
                : String.format(
                    Locale.ROOT,
                    "; %.1f of %d cores busy (client and Solr share this machine)",
                    c.coresBusy(),
                    c.cores()));
      }
      if (r.rejectsFile() != null) {
        System.out.println("rejected documents and why: " + r.rejectsFile());
      }
      r.unreadInputs().forEach(u -> System.out.println("NOT read to the end: " + u));
      if (diagnosis != null) {
        Profiling.print(diagnosis, out);
      }
      String added =
          r.accepted()
              + (r.acceptedChildren() == 0 ? "" : " + " + r.acceptedChildren() + " child documents")
              + " accepted"
              + (r.replaced() == 0 ? "" : " - " + r.replaced() + " they replaced (same id)");
      System.out.println(
          r.searchableAfter() < 0
              ? "not verified (--commit none)"
              : r.verified()
                  ? "verified: "
                      + r.searchableAfter()
                      + " searchable ("
                      + r.searchableBefore()
                      + " before + "
                      + added
                      + ")"
                  : "NOT verified: "
                      + r.searchableAfter()
                      + " searchable, expected "
                      + r.searchableBefore()
                      + " before + "
                      + added
                      + (r.searchableAfter() - r.searchableBefore()
                              == r.accepted() + r.acceptedChildren() - r.replaced()
                          ? " (but what they replaced could not all be counted: see the warning above)"
                          : " (did something else write to or delete from the collection meanwhile, or did"
                              + " Solr apply a batch that was rejected after its retries?)"));
    }
    if (strict && r.rejected() > 0 && !json) {
      System.out.println("--strict: " + r.rejected() + " rejected, so the exit code is 1");
    }
    return r.searchableAfter() >= 0 && !r.verified()
            || !r.unreadInputs().isEmpty()
            || strict && r.rejected() > 0
        ? 1
        : 0;
  }
}
