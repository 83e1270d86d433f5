package org.solrscale.data;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.solrscale.spec.SolrscaleException;

/**
 * {@code data log-requests}: reads Solr request logs (Solr 8 and 9 lines, Jetty's NCSA request log;
 * plain or gzip; several files, e.g. every node's and their rotations), keeps the top-level
 * requests the options ask for and writes them, merged by start time, one JSON object a line
 * ({@link LoggedRequest}).
 */
public final class LogRequests {
  /**
   * What to keep: these collections and handlers (null: any collection; search handlers, not
   * updates and admin requests), requests that started in [fromMs, toMs), a share of them.
   */
  public record Options(
      Set<String> collections,
      Set<String> handlers,
      Long fromMs,
      Long toMs,
      double samplePercent,
      long seed,
      ZoneId zone) {}

  /**
   * Parameters that belong to the client or the transport, not to the query: they are dropped (the
   * replay sets its own wt).
   */
  public static final Set<String> TRANSPORT_PARAMS =
      Set.of(
          "_",
          "wt",
          "version",
          "_stateVer_",
          "NOW",
          "shards.purpose",
          "isShard",
          "rid",
          "ie",
          "json.wrf",
          "indent");

  /** Problems shown with file:line. */
  static final int SHOWN = 5;

  private static final ObjectWriter LINE =
      new ObjectMapper().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writer();

  private LogRequests() {}

  /** Reads {@code files}, writes {@code out}, and says what it did. */
  public static LogRequestsReport run(List<Path> files, Options o, Path out) {
    long t0 = System.nanoTime();
    Counts c = new Counts();
    List<Kept> kept = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(o.seed());
    for (Path f : files) {
      read(f, o, c, kept, random);
    }
    if (c.requestLines == 0 && c.bad == 0) {
      throw SolrscaleException.usage(
          (files.size() == 1 ? files.get(0) + " has" : "none of the " + files.size() + " files has")
              + " a request line: give Solr's solr.log (lines of o.a.s.c.S.Request with webapp="
              + " path= params={...} QTime=) or Jetty's request log (NCSA: [time] \"GET"
              + " /solr/COLLECTION/select?... HTTP/1.1\" 200)");
    }
    kept.sort(Comparator.comparingLong(Kept::startMs)); // stable: ties keep file order
    write(out, kept);
    return report(files.size(), c, kept, out, (System.nanoTime() - t0) / 1e9);
  }

  /** What was seen while reading. */
  private static final class Counts {
    long lines;
    long requestLines;
    long bad;
    final List<String> problems = new ArrayList<>();
    final Map<String, Long> leftOut = new LinkedHashMap<>();
    final Set<String> formats = new TreeSet<>();

    final Map<String, String> names = new java.util.HashMap<>();

    void out(String reason) {
      leftOut.merge(reason, 1L, Long::sum);
    }

    /** One String for each handler and collection name, however many requests name it. */
    String shared(String name) {
      return names.computeIfAbsent(name, k -> k);
    }
  }

  private static void read(
      Path file, Options o, Counts c, List<Kept> kept, SplittableRandom random) {
    if (Files.isDirectory(file)) {
      throw SolrscaleException.usage(
          file + " is a directory: give the log files in it, e.g. " + file.resolve("solr.log*"));
    }
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                Corpus.input(file, new AtomicLong()),
                StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)),
            1 << 16)) {
      String line;
      long n = 0;
      String name = file.toString();
      while ((line = in.readLine()) != null) {
        n++;
        c.lines++;
        RequestLogLine.Parsed p;
        try {
          p = RequestLogLine.parse(line, o.zone());
        } catch (RequestLogLine.Bad bad) {
          c.bad++;
          if (c.problems.size() < SHOWN) {
            c.problems.add(
                name + ":" + n + ": " + bad.getMessage() + ": " + RequestLogLine.abbreviate(line));
          }
          continue;
        }
        if (p == null) {
          continue;
        }
        c.requestLines++;
        c.formats.add(p.kind() == RequestLogLine.Kind.JETTY ? "jetty" : "solr");
        String why = leaveOut(p, o);
        if (why == null
            && o.samplePercent() < 100
            && random.nextDouble() * 100 >= o.samplePercent()) {
          why = "sampled out (--sample)";
        }
        if (why != null) {
          c.out(why);
          continue;
        }
        try {
          LoggedRequest r = logged(p, name + ":" + n);
          kept.add(
              new Kept(
                  r.startMs(),
                  c.shared(r.handler()),
                  c.shared(r.collection() == null ? "(none)" : r.collection()),
                  r.hits() != null,
                  LINE.writeValueAsString(r)));
        } catch (RequestLogLine.Bad bad) {
          c.bad++;
          if (c.problems.size() < SHOWN) {
            c.problems.add(
                name + ":" + n + ": " + bad.getMessage() + ": " + RequestLogLine.abbreviate(line));
          }
        }
      }
    } catch (java.nio.file.NoSuchFileException e) {
      throw SolrscaleException.usage("log file " + file + " does not exist");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read " + file + ": " + Corpus.why(e));
    }
  }

  /** Why {@code p} is not kept, or null. */
  static String leaveOut(RequestLogLine.Parsed p, Options o) {
    if (p.kind() == RequestLogLine.Kind.SLOW) {
      return "slow-request line (a copy of its request line)";
    }
    if (p.kind() == RequestLogLine.Kind.JETTY && !"GET".equals(p.method())) {
      return "not a GET (Jetty logs no request body)";
    }
    if (p.subRequest()) {
      return "per-shard sub-request (isShard=true)";
    }
    boolean update = p.kind() == RequestLogLine.Kind.UPDATE || p.handler().startsWith("/update");
    boolean admin =
        p.adminWebapp()
            || p.handler().startsWith("/admin")
            || p.handler().startsWith("/config")
            || p.handler().startsWith("/schema");
    if (o.handlers() != null) {
      if (!o.handlers().contains(p.handler())) {
        return "other handler (--handler)";
      }
    } else if (update) {
      return "update (--handler /update keeps them)";
    } else if (admin) {
      return "admin or config request (--handler keeps them)";
    }
    if (o.collections() != null
        && (p.collection() == null || !o.collections().contains(p.collection()))) {
      return "other collection (--collection)";
    }
    if (o.fromMs() != null && p.startMs() < o.fromMs()) {
      return "before --from";
    }
    if (o.toMs() != null && p.startMs() >= o.toMs()) {
      return "at or after --to";
    }
    return null;
  }

  private static LoggedRequest logged(RequestLogLine.Parsed p, String source)
      throws RequestLogLine.Bad {
    Map<String, List<String>> params = new LinkedHashMap<>();
    p.params()
        .forEach(
            (k, v) -> {
              if (!TRANSPORT_PARAMS.contains(k)) {
                params.put(k, v);
              }
            });
    return new LoggedRequest(
        p.startMs(),
        Instant.ofEpochMilli(p.startMs()).toString(),
        p.collection(),
        p.handler(),
        params,
        p.hits(),
        p.status(),
        p.qtime(),
        source);
  }

  /**
   * A kept request as little as it can be held until all are sorted: its start, the names the
   * summary counts by, and its line of JSON.
   */
  private record Kept(
      long startMs, String handler, String collection, boolean hasHits, String json) {}

  private static void write(Path out, List<Kept> kept) {
    writeLines(out, kept.stream().map(Kept::json).toList());
  }

  /**
   * Writes {@code lines} to {@code out} whole or not at all (gzip when its name ends .gz), creating
   * its folder.
   */
  private static void writeLines(Path out, List<String> lines) {
    try {
      if (out.toAbsolutePath().getParent() != null) {
        Files.createDirectories(out.toAbsolutePath().getParent());
      }
      Outputs.whole(
          out,
          file -> {
            OutputStream os = Outputs.newOutputStream(file);
            if (out.getFileName().toString().endsWith(".gz")) {
              os = new GZIPOutputStream(os, 1 << 16);
            }
            try (Writer w =
                new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16)) {
              for (String l : lines) {
                w.write(l);
                w.write('\n');
              }
            }
          });
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write " + out + ": " + Corpus.why(e));
    }
  }

  /** Widths a rate histogram's bucket may have, in seconds. */
  private static final long[] BUCKETS = {
    1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400
  };

  /** At most this many buckets in the rate histogram (more for a span beyond 24 days). */
  static final int MAX_BUCKETS = 24;

  private static LogRequestsReport report(
      int files, Counts c, List<Kept> kept, Path out, double seconds) {
    Map<String, Long> byHandler = new TreeMap<>();
    Map<String, Long> byCollection = new TreeMap<>();
    long withHits = 0;
    for (Kept r : kept) {
      byHandler.merge(r.handler(), 1L, Long::sum);
      byCollection.merge(r.collection(), 1L, Long::sum);
      withHits += r.hasHits() ? 1 : 0;
    }
    Long first = kept.isEmpty() ? null : kept.get(0).startMs();
    Long last = kept.isEmpty() ? null : kept.get(kept.size() - 1).startMs();
    long bucket = 1;
    List<Long> per = new ArrayList<>();
    if (first != null) {
      long span = (last - first) / 1000 + 1;
      bucket = BUCKETS[BUCKETS.length - 1];
      for (long b : BUCKETS) {
        if ((span + b - 1) / b <= MAX_BUCKETS) {
          bucket = b;
          break;
        }
      }
      int n = (int) ((last - first) / 1000 / bucket) + 1;
      long[] counts = new long[n];
      for (Kept r : kept) {
        counts[(int) ((r.startMs() - first) / 1000 / bucket)]++;
      }
      for (long k : counts) {
        per.add(k);
      }
    }
    return new LogRequestsReport(
        files,
        c.lines,
        c.requestLines,
        kept.size(),
        c.leftOut,
        c.bad,
        List.copyOf(c.problems),
        byHandler,
        byCollection,
        List.copyOf(c.formats),
        first,
        last,
        bucket,
        per,
        withHits,
        out.toAbsolutePath().normalize().toString(),
        seconds);
  }

  /**
   * A time given to --from or --to: {@code 2026-11-29 05:52[:30[.123]]} (or with a T) in {@code
   * zone}, or an instant with its offset ({@code 2026-11-29T05:52:30Z}, {@code ...+01:00}).
   */
  public static long parseTime(String text, ZoneId zone, String option) {
    String t = text.strip().replace(' ', 'T');
    try {
      return OffsetDateTime.parse(t).toInstant().toEpochMilli();
    } catch (DateTimeParseException notOffset) {
      try {
        return LocalDateTime.parse(t).atZone(zone).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        throw SolrscaleException.usage(
            option
                + " '"
                + text
                + "' is not a time: give e.g. 2026-11-29 05:52 or 2026-11-29T05:52:30Z");
      }
    }
  }

  /**
   * What {@code data queries --from-log} wrote: requests in the log's order (so its mix and its
   * repeats), those without q left out (a query file needs one), how many distinct ones.
   */
  public record FromLog(
      @com.fasterxml.jackson.annotation.JsonProperty("written") long written,
      @com.fasterxml.jackson.annotation.JsonProperty("distinct") long distinct,
      @com.fasterxml.jackson.annotation.JsonProperty("without_q") long withoutQ,
      @com.fasterxml.jackson.annotation.JsonProperty("by_handler") Map<String, Long> byHandler,
      @com.fasterxml.jackson.annotation.JsonProperty("output") String output) {}

  /** Writes the requests of {@code log} as a query file, one {@code /handler?params} a line. */
  public static FromLog toQueryFile(Path log, Path out) {
    List<LoggedRequest> requests = LoggedRequest.read(log, "--from-log");
    List<String> lines = new ArrayList<>();
    long withoutQ = 0;
    Map<String, Long> byHandler = new TreeMap<>();
    for (LoggedRequest r : requests) {
      if (!r.params().containsKey("q") && !r.params().containsKey("q.alt")) {
        withoutQ++;
        continue;
      }
      lines.add(r.handler() + "?" + r.query());
      byHandler.merge(r.handler(), 1L, Long::sum);
    }
    if (lines.isEmpty()) {
      throw SolrscaleException.usage(
          log
              + ": no request has a q parameter, which a query file needs: replay it with bench"
              + " --replay instead");
    }
    List<String> file = new ArrayList<>(lines.size() + 1);
    file.add(
        "# solrscale data queries --from-log "
            + log
            + ": "
            + lines.size()
            + " requests in the log's"
            + " order");
    file.addAll(lines);
    writeLines(out, file);
    return new FromLog(
        lines.size(),
        new java.util.HashSet<>(lines).size(),
        withoutQ,
        byHandler,
        out.toAbsolutePath().normalize().toString());
  }
}
