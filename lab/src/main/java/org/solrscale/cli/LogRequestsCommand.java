package org.solrscale.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.solrscale.data.Inputs;
import org.solrscale.data.LogRequests;
import org.solrscale.data.LogRequestsReport;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale data log-requests`: Solr's request logs in, one request a line out, to replay. */
@Command(
    name = "log-requests",
    description =
        "Read Solr request logs (solr.log of Solr 8 or 9, Jetty's request log; plain or gzip;"
            + " every node's, merged by time) and write the top-level requests, one JSON object a"
            + " line, for bench --replay.")
final class LogRequestsCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "LOG",
      arity = "1..*",
      description = "Log files or globs, e.g. 'logs/*/solr.log*'.")
  List<String> inputs;

  @Option(
      names = {"-o", "--out"},
      required = true,
      paramLabel = "FILE",
      description = "Requests to write, one JSON object a line (.gz compresses).")
  Path out;

  @Option(
      names = "--collection",
      split = ",",
      paramLabel = "NAME",
      description = "Keep only requests to these collections.")
  List<String> collections;

  @Option(
      names = "--handler",
      split = ",",
      paramLabel = "PATH",
      description =
          "Keep only these handler paths, e.g. /select,/query (default: every search handler;"
              + " /update and admin paths only when named here).")
  List<String> handlers;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description = "Keep requests that started at or after this time (e.g. '2026-11-29 08:00').")
  String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      description = "Keep requests that started before this time.")
  String to;

  @Option(
      names = "--sample",
      paramLabel = "PCT",
      description = "Keep this share of the requests at random, at their own times (e.g. 10%%).")
  String sample;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Seed of --sample (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--zone",
      paramLabel = "ZONE",
      description =
          "Time zone the logs were written in (Solr writes times without one; default: this"
              + " machine's, ${DEFAULT-VALUE}).",
      defaultValue = "${sys:user.timezone}")
  String zone;

  @Option(names = "--json", description = "Print the summary as JSON.")
  boolean json;

  @Override
  public Integer call() {
    ZoneId z = zone();
    List<Path> files = Inputs.expand(inputs);
    Inputs.checkOutput(out, files);
    LogRequests.Options o =
        new LogRequests.Options(
            collections == null ? null : new HashSet<>(collections),
            handlers == null
                ? null
                : Set.copyOf(handlers.stream().map(LogRequestsCommand::slash).toList()),
            from == null ? null : LogRequests.parseTime(from, z, "--from"),
            to == null ? null : LogRequests.parseTime(to, z, "--to"),
            sample == null ? 100 : percent(sample),
            seed,
            z);
    LogRequestsReport r = LogRequests.run(files, o, out);
    if (json) {
      Terminal.printJson(r);
    } else {
      print(r, z);
    }
    if (r.kept() == 0) {
      throw SolrscaleException.failed(
          "no request was kept (see what was left out above): widen --collection, --handler,"
              + " --from/--to or --sample");
    }
    return 0;
  }

  private ZoneId zone() {
    try {
      return ZoneId.of(zone == null || zone.isBlank() ? ZoneId.systemDefault().getId() : zone);
    } catch (java.time.DateTimeException e) {
      throw SolrscaleException.usage(
          "--zone '" + zone + "' is not a time zone: give e.g. UTC, Europe/Berlin or +01:00");
    }
  }

  private static String slash(String h) {
    String s = h.strip();
    return s.startsWith("/") ? s : "/" + s;
  }

  static double percent(String text) {
    String t = text.strip();
    boolean pct = t.endsWith("%");
    try {
      double v = Double.parseDouble(pct ? t.substring(0, t.length() - 1) : t);
      if (v > 0 && v <= 100) {
        return v;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw SolrscaleException.usage(
        "--sample '" + text + "' is not a share above 0 and at most 100 %: give e.g. 10% or 2.5");
  }

  private static void print(LogRequestsReport r, ZoneId z) {
    System.out.printf(
        Locale.ROOT,
        "log-requests: read %,d lines of %d file(s) in %.1f s: %,d request lines, kept %,d,"
            + " wrote %s%n",
        r.lines(),
        r.files(),
        r.seconds(),
        r.requestLines(),
        r.kept(),
        r.output());
    if (!r.leftOut().isEmpty()) {
      System.out.println("  left out:");
      r.leftOut().entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .forEach(
              e -> System.out.printf(Locale.ROOT, "    %,10d  %s%n", e.getValue(), e.getKey()));
    }
    if (r.bad() > 0) {
      System.out.printf(
          Locale.ROOT,
          "  %,d line(s) looked like requests but could not be read (not kept):%n",
          r.bad());
      r.problems().forEach(p -> System.out.println("    " + p));
      if (r.bad() > r.problems().size()) {
        System.out.printf(Locale.ROOT, "    ... and %,d more%n", r.bad() - r.problems().size());
      }
    }
    if (r.formats().contains("jetty")) {
      System.out.println(
          "  Jetty's request log holds GET requests only, with no hits and no QTime: those"
              + " requests are replayed but get no answer check and no QTime comparison");
    }
    if (r.kept() == 0) {
      return;
    }
    System.out.println("  by handler:    " + counts(r.byHandler()));
    System.out.println("  by collection: " + counts(r.byCollection()));
    System.out.printf(
        Locale.ROOT,
        "  %,d of %,d kept requests have logged hits (for the answer check)%n",
        r.withHits(),
        r.kept());
    DateTimeFormatter f =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(z);
    System.out.printf(
        "  from %s to %s (%s), requests per %s:%n",
        f.format(Instant.ofEpochMilli(r.firstMs())),
        f.format(Instant.ofEpochMilli(r.lastMs())),
        z.getId(),
        width(r.bucketSeconds()));
    long max = r.perBucket().stream().mapToLong(Long::longValue).max().orElse(1);
    for (int i = 0; i < r.perBucket().size(); i++) {
      long n = r.perBucket().get(i);
      long at = r.firstMs() + i * r.bucketSeconds() * 1000;
      System.out.printf(
          Locale.ROOT,
          "    %s %9s %s%n",
          f.format(Instant.ofEpochMilli(at)),
          String.format(Locale.ROOT, "%,d", n),
          "#".repeat((int) Math.round(40.0 * n / Math.max(1, max))));
    }
  }

  private static String counts(Map<String, Long> m) {
    StringBuilder sb = new StringBuilder();
    m.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(8)
        .forEach(
            e ->
                sb.append(sb.length() > 0 ? ", " : "")
                    .append(e.getKey())
                    .append(' ')
                    .append(String.format(Locale.ROOT, "%,d", e.getValue())));
    return m.size() > 8 ? sb + ", ... (" + m.size() + " in all)" : sb.toString();
  }

  private static String width(long s) {
    return s % 3600 == 0 ? s / 3600 + " h" : s % 60 == 0 ? s / 60 + " min" : s + " s";
  }
}
