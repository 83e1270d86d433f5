package org.solrscale.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.solrscale.data.Cleaner;
import org.solrscale.data.CorpusStats;
import org.solrscale.data.CorpusTools;
import org.solrscale.data.Format;
import org.solrscale.data.Inputs;
import org.solrscale.data.LogRequests;
import org.solrscale.data.QueryDeriver;
import org.solrscale.data.QueryKind;
import org.solrscale.data.QueryOptions;
import org.solrscale.data.QueryReport;
import org.solrscale.data.SynthOptions;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * `solrscale data clean|convert|sample|split|synth|queries|log-requests`: corpus files, streamed,
 * whole documents only.
 */
@Command(
    name = "data",
    description =
        "Prepare corpora: clean, convert, sample, split, generate (synth) and derive "
            + "queries from them (Solr XML, JSONL, JSON, CSV; plain or gzip); read requests"
            + " from Solr's logs to replay.",
    subcommands = {
      DataCommand.Clean.class,
      DataCommand.Convert.class,
      DataCommand.Sample.class,
      DataCommand.Split.class,
      DataCommand.Synth.class,
      DataCommand.Queries.class,
      LogRequestsCommand.class
    })
final class DataCommand {

  abstract static class Op implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Input files or globs.")
    List<String> inputs;

    @Option(
        names = "--format",
        description =
            "Input format when the names do not tell: xml, "
                + "jsonl, json, csv (several values in a cell joined by '|'), or csv-plain (one value per "
                + "cell, as it is).")
    String format;

    @Option(names = "--json", description = "Print the summary as JSON.")
    boolean json;

    Format from() {
      return format == null ? null : Format.parse(format);
    }

    int report(CorpusStats s, String what) {
      if (json) {
        Terminal.printJson(s);
      } else {
        double mb = s.bytesIn() / 1e6;
        // the inputs' size as stored: compressed for gzip, so MB/s is the disk's side
        System.out.printf(
            "%s: read %d documents (%.1f MB on disk) in %.1f s (%.1f MB/s), wrote %d (%s) to %s%n",
            what,
            s.read(),
            mb,
            s.seconds(),
            s.seconds() > 0 ? mb / s.seconds() : 0,
            s.written(),
            sizes(s),
            s.filesWritten().size() == 1
                ? absolute(s.filesWritten().get(0))
                : s.filesWritten().size() + " files in " + folders(s));
        if (!s.emptyInputs().isEmpty()) { // not an error, but rarely what was meant
          System.out.println("  no documents in " + String.join(", ", s.emptyInputs()));
        }
      }
      failIfBad(s.bad(), s.problems(), "were not written");
      return 0;
    }
  }

  /** "17.5 MB uncompressed, 5.7 MB gzip on disk", or "17.5 MB" for files written plain. */
  static String sizes(CorpusStats s) {
    if (!s.gzipped()) {
      return String.format("%.1f MB", s.bytesOnDisk() / 1e6);
    }
    return String.format(
        "%.1f MB uncompressed, %.1f MB gzip on disk", s.bytesOut() / 1e6, s.bytesOnDisk() / 1e6);
  }

  static String absolute(String file) {
    return Path.of(file).toAbsolutePath().normalize().toString();
  }

  /** The folders the files went into, absolute. */
  private static String folders(CorpusStats s) {
    return String.join(
        ", ",
        s.filesWritten().stream()
            .map(f -> Path.of(f).toAbsolutePath().normalize().getParent().toString())
            .distinct()
            .toList());
  }

  /** Lists the input items that were not documents and exits 1, if there were any. */
  static void failIfBad(long bad, List<String> problems, String outcome) {
    if (bad > 0) {
      for (String p : problems) {
        System.err.println("  " + p);
      }
      if (bad > problems.size()) {
        System.err.println("  ... and " + (bad - problems.size()) + " more");
      }
      throw SolrscaleException.failed(
          bad
              + " input item(s) were not documents and "
              + outcome
              + " (listed above with file:line)");
    }
  }

  @Command(
      name = "clean",
      description = "Repair invalid UTF-8 and remove characters XML 1.0 forbids.")
  static final class Clean implements Callable<Integer> {
    @Parameters(
        index = "0",
        paramLabel = "FILE",
        description = "Input file (any text format, plain or gzip).")
    Path input;

    @Option(
        names = {"-o", "--out"},
        required = true,
        description = "Output file (.gz compresses).")
    Path out;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() {
      Inputs.checkOutput(out, Inputs.expand(List.of(input.toString())));
      Cleaner.Report r = Cleaner.clean(input, out);
      if (json) {
        Terminal.printJson(r);
        return 0;
      }
      double mb = r.bytesIn() / 1e6;
      System.out.printf(
          "clean: %.1f MB of input on disk%s in %.1f s (%.1f MB/s) -> %s%n",
          mb,
          input.toString().endsWith(".gz") ? " (gzip)" : "",
          r.seconds(),
          r.seconds() > 0 ? mb / r.seconds() : 0,
          absolute(out.toString()));
      System.out.printf(
          "  invalid UTF-8 sequences replaced by U+FFFD: %d%s%n",
          r.invalidUtf8(),
          r.firstInvalidUtf8().isEmpty()
              ? ""
              : " (first at " + String.join(", ", r.firstInvalidUtf8()) + ")");
      System.out.printf(
          "  characters not allowed in XML 1.0 removed: %d%s%n",
          r.invalidXmlChars(),
          r.firstInvalidXmlChars().isEmpty()
              ? ""
              : " (first at " + String.join(", ", r.firstInvalidXmlChars()) + ")");
      return 0;
    }
  }

  @Command(name = "convert", description = "Convert documents between formats into one file.")
  static final class Convert extends Op {
    @Option(
        names = {"-o", "--out"},
        required = true,
        description = "Output file (.gz compresses).")
    Path out;

    @Option(
        names = "--to",
        description =
            "Output format: xml, jsonl, json, csv or csv-plain (default: from the output's name; "
                + "csv-plain for a CSV output when the input is plain CSV).")
    String to;

    @Override
    public Integer call() {
      Format target = to == null ? Format.output(Format.ofOutput(out), from()) : Format.parse(to);
      List<Path> files = Inputs.expand(inputs);
      Inputs.checkOutput(out, files);
      return report(CorpusTools.convert(files, from(), out, target), "convert");
    }
  }

  @Command(
      name = "sample",
      description = "Keep the first N, or a seeded random N, documents (in input order).")
  static final class Sample extends Op {
    @ArgGroup(exclusive = true, multiplicity = "1")
    How how;

    static final class How {
      @Option(names = "--first", description = "The first N documents.")
      Integer first;

      @Option(names = "--random", description = "N documents chosen uniformly at random.")
      Integer random;
    }

    @Option(
        names = "--seed",
        defaultValue = "42",
        description = "Seed for --random (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = {"-o", "--out"},
        required = true,
        description = "Output file (.gz compresses).")
    Path out;

    @Option(
        names = "--to",
        description =
            "Output format: xml, jsonl, json, csv or csv-plain (default: from the output's name; "
                + "csv-plain for a CSV output when the input is plain CSV).")
    String to;

    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      int n = how.first != null ? how.first : how.random;
      if (n < 1) {
        throw SolrscaleException.usage("the sample size must be at least 1");
      }
      if (how.first != null && spec.commandLine().getParseResult().hasMatchedOption("--seed")) {
        throw SolrscaleException.usage(
            "--seed goes with --random: --first takes the first " + n + " documents as they come");
      }
      Format target = to == null ? Format.output(Format.ofOutput(out), from()) : Format.parse(to);
      List<Path> files = Inputs.expand(inputs);
      Inputs.checkOutput(out, files);
      CorpusStats s =
          CorpusTools.sample(files, from(), n, how.random != null ? seed : null, out, target);
      if (!json && s.written() < n) {
        System.out.printf(
            "sample: only %d documents could be read, fewer than the %d asked for: all "
                + "of them were written%n",
            s.written(), n);
      }
      return report(s, "sample");
    }
  }

  @Command(name = "split", description = "Split into parts, always at document boundaries.")
  static final class Split extends Op {
    @Option(names = "--parts", description = "This many parts of (nearly) equal document counts.")
    Integer parts;

    @Option(names = "--max-docs", description = "Parts of at most N documents.")
    Long maxDocs;

    @Option(names = "--max-mb", description = "Parts of at most about N MB (uncompressed).")
    Long maxMb;

    @Option(
        names = {"-o", "--out"},
        required = true,
        description = "Output directory.")
    Path out;

    @Option(
        names = "--prefix",
        defaultValue = "part",
        description = "Part file prefix (default: ${DEFAULT-VALUE}).")
    String prefix;

    @Option(names = "--to", description = "Output format (default: the input's).")
    String to;

    @Option(names = "--gzip", description = "Compress the parts.")
    boolean gzip;

    @Override
    public Integer call() {
      List<Path> files = Inputs.expand(inputs);
      Inputs.checkOutputDir(out, prefix, files);
      Format target =
          to != null ? Format.parse(to) : from() != null ? from() : Format.of(files.get(0));
      CorpusTools.SplitRule rule =
          new CorpusTools.SplitRule(parts, maxDocs, maxMb == null ? null : maxMb * 1_000_000L);
      return report(CorpusTools.split(files, from(), rule, out, prefix, target, gzip), "split");
    }
  }

  @Command(
      name = "synth",
      description =
          "Generate a synthetic corpus, the same for the same seed and options: "
              + "Zipf-distributed words, facet fields of chosen cardinalities, numbers, dates and tags.")
  static final class Synth implements Callable<Integer> {
    @Option(
        names = "--docs",
        required = true,
        paramLabel = "N",
        description = "How many documents.")
    long docs;

    @Option(
        names = "--seed",
        defaultValue = "42",
        paramLabel = "N",
        description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--vocabulary",
        defaultValue = "50000",
        paramLabel = "N",
        description = "Distinct words of title_t and body_t (default: ${DEFAULT-VALUE}).")
    int vocabulary;

    @Option(
        names = "--zipf",
        defaultValue = "1.1",
        paramLabel = "S",
        description =
            "Zipf exponent of the words: higher is more skewed (default: ${DEFAULT-VALUE}).")
    double zipf;

    @Option(
        names = "--body-words",
        defaultValue = "20..200",
        paramLabel = "MIN..MAX",
        description = "Words per body_t, MIN..MAX or MIN,MAX (default: ${DEFAULT-VALUE}).")
    String bodyWords;

    @Option(
        names = "--facets",
        defaultValue = SynthOptions.DEFAULT_FACETS,
        paramLabel = "NAME:CARD,...",
        description =
            "Facet fields NAME:CARDINALITY,... (names end in _s; 'none' for none; default: ${DEFAULT-VALUE}).")
    String facets;

    @Option(
        names = {"-o", "--out"},
        required = true,
        paramLabel = "FILE",
        description = "Output file (.gz compresses).")
    Path out;

    @Option(
        names = "--to",
        paramLabel = "FORMAT",
        description = "Output format: xml, jsonl, json or csv (default: from the output's name).")
    String to;

    @Option(names = "--json", description = "Print the summary as JSON.")
    boolean json;

    @Override
    public Integer call() {
      int[] body = SynthOptions.parseRange("--body-words", bodyWords);
      SynthOptions o =
          new SynthOptions(
              docs, seed, vocabulary, zipf, body[0], body[1], SynthOptions.parseFacets(facets));
      Format target = to == null ? Format.ofOutput(out) : Format.parse(to);
      CorpusStats s = org.solrscale.data.Synth.write(o, out, target);
      if (json) {
        Terminal.printJson(s);
      } else {
        double mb = s.bytesOut() / 1e6;
        // MB/s of the documents made, before compression: what synth's own work is
        System.out.printf(
            "synth: wrote %d documents (%s) to %s in %.1f s (%.1f MB/s uncompressed)%n",
            s.written(),
            sizes(s),
            absolute(out.toString()),
            s.seconds(),
            s.seconds() > 0 ? mb / s.seconds() : 0);
      }
      return 0;
    }
  }

  @Command(
      name = "queries",
      description =
          "Derive a query file from a corpus: term, AND, OR and phrase queries "
              + "whose hit counts span a handful to most of the index, plus filter, sort and facet variants.")
  static final class Queries implements Callable<Integer> {
    @Parameters(paramLabel = "CORPUS", arity = "0..*", description = "Corpus files or globs.")
    List<String> inputs;

    @Option(
        names = "--from-log",
        paramLabel = "FILE",
        description =
            "Write the requests of FILE (from data log-requests) as a query file instead, in the"
                + " log's order: its mix and its repeats, for closed loops and staircases.")
    Path fromLog;

    @Option(
        names = "--format",
        paramLabel = "FORMAT",
        description =
            "Input format when the names do not tell: xml, jsonl, json, csv or csv-plain.")
    String format;

    @Option(
        names = "--field",
        defaultValue = "body_t",
        paramLabel = "FIELD",
        description = "Text field to query (default: ${DEFAULT-VALUE}).")
    String field;

    @Option(
        names = "--count",
        defaultValue = "1000",
        paramLabel = "N",
        description = "Requests to write (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(
        names = "--seed",
        defaultValue = "42",
        paramLabel = "N",
        description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--kinds",
        defaultValue = "term,and,or,phrase,filter,sort,facet",
        paramLabel = "KIND,...",
        description = "Kinds of request, equally many of each (default: ${DEFAULT-VALUE}).")
    String kinds;

    @Option(
        names = "--facet-fields",
        split = ",",
        paramLabel = "FIELD",
        description =
            "Fields for facet.field and fq (default: the first six string fields, *_s or *_ss).")
    List<String> facetFields = List.of();

    @Option(
        names = "--facet-limit",
        defaultValue = "25",
        paramLabel = "N",
        description = "facet.limit (default: ${DEFAULT-VALUE}).")
    int facetLimit;

    @Option(
        names = "--rows",
        defaultValue = "10",
        paramLabel = "N",
        description = "rows of every request (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(
        names = {"-o", "--out"},
        required = true,
        paramLabel = "FILE",
        description = "Query file to write (.gz compresses).")
    Path out;

    @Option(names = "--json", description = "Print the summary as JSON.")
    boolean json;

    @Override
    public Integer call() {
      if (fromLog != null) {
        if (inputs != null && !inputs.isEmpty()) {
          throw SolrscaleException.usage(
              "--from-log reads its requests from the log: give no CORPUS with it");
        }
        Inputs.checkOutput(out, List.of(fromLog));
        LogRequests.FromLog r = LogRequests.toQueryFile(fromLog, out);
        if (json) {
          Terminal.printJson(r);
        } else {
          System.out.printf(
              "queries: wrote %,d requests (%,d distinct) to %s in the log's order%s%n",
              r.written(),
              r.distinct(),
              r.output(),
              r.withoutQ() > 0
                  ? String.format("; left out %,d without a q parameter", r.withoutQ())
                  : "");
          System.out.println("  by handler: " + r.byHandler());
        }
        return 0;
      }
      if (inputs == null || inputs.isEmpty()) {
        throw SolrscaleException.usage(
            "give the corpus to derive queries from (or --from-log FILE from data log-requests)");
      }
      QueryOptions o =
          new QueryOptions(
              field, count, seed, QueryKind.parseList(kinds), facetFields, facetLimit, rows);
      List<Path> files = Inputs.expand(inputs);
      Inputs.checkOutput(out, files);
      QueryReport r =
          QueryDeriver.derive(files, format == null ? null : Format.parse(format), o, out);
      if (json) {
        Terminal.printJson(r);
      } else {
        print(r);
      }
      failIfBad(r.bad(), r.problems(), "were left out");
      return 0;
    }

    private void print(QueryReport r) {
      System.out.printf(
          "queries: wrote %d requests to %s from %d documents in %.1f s%n",
          r.total(), absolute(out.toString()), r.documents(), r.seconds());
      StringBuilder byKind = new StringBuilder();
      r.queries()
          .forEach((k, n) -> byKind.append(byKind.length() > 0 ? ", " : "").append(k + " " + n));
      System.out.println("  by kind: " + byKind);
      String counted =
          r.distinctTerms()
              + " distinct terms counted"
              + (r.termsNotCounted() > 0 ? "; later ones were not" : "");
      if (r.minDf() == null) {
        System.out.printf(
            "  terms of %s: none chosen by document frequency, phrases are taken from "
                + "the documents (%s)%n",
            r.field(), counted);
      } else {
        System.out.printf(
            "  terms of %s: df %d to %d over %d log2 groups (%s)%n",
            r.field(), r.minDf(), r.maxDf(), r.dfGroups(), counted);
      }
      if (!r.facetFields().isEmpty()) {
        System.out.println("  facet and filter fields: " + String.join(", ", r.facetFields()));
      }
      if (!r.sortFields().isEmpty()) {
        System.out.println("  sort fields: " + String.join(", ", r.sortFields()));
      }
    }
  }
}
