package org.solrscale.cli;

import java.time.Duration;
import java.util.List;
import org.solrscale.load.Workload;
import picocli.CommandLine.Option;

/** What a query load sends, and how long a request may take: bench's and capacity's options. */
final class QueryOptions {
  @Option(
      names = "--queries",
      paramLabel = "FILE[:WEIGHT][,FILE:WEIGHT...]",
      description =
          "Query files (one request a line: q=...&fq=... or a JSON object) and their shares.")
  String queries;

  @Option(
      names = "--templates",
      split = ",",
      paramLabel = "T",
      description =
          "Send only the requests of these templates (a query file's _template, e.g. the kinds"
              + " data queries writes: term, and, or, phrase, filter, sort, facet).")
  List<String> templates;

  @Option(
      names = "--timeout",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description = "Per-request timeout (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  /** The query files read, keeping only the requests of --templates when given. */
  List<Workload.Part> parts() {
    required();
    return Workload.only(Workload.parseMix(queries), templates);
  }

  /** --queries, which every load but a replay needs. */
  String required() {
    if (queries == null) {
      throw org.solrscale.spec.SolrscaleException.usage(
          "give the requests to send: --queries FILE (a query file, e.g. from solrscale data"
              + " queries) or --replay FILE (from solrscale data log-requests)");
    }
    return queries;
  }
}
