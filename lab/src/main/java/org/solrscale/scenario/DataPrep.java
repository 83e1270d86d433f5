package org.solrscale.scenario;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.data.Format;
import org.solrscale.data.Inputs;
import org.solrscale.data.QueryDeriver;
import org.solrscale.data.QueryKind;
import org.solrscale.data.QueryOptions;
import org.solrscale.data.Synth;
import org.solrscale.data.SynthOptions;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.ScenarioSpec;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.YamlPlaces;

/**
 * The corpus and query files of a run: the scenario's files, or generated once into the run's
 * {@code data/} directory (kept there, so a resumed run does not generate them again; generated
 * afresh when the data settings changed). Options are the {@code data synth} and {@code data
 * queries} ones under the scenario's key names; a message about one names the scenario key and its
 * place in the file.
 */
final class DataPrep {
  /** Corpus files and query files. */
  record Data(List<Path> corpus, List<Path> queries) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A data command's option in a message ({@code --facet-fields}). */
  private static final Pattern OPTION = Pattern.compile("--([a-z][a-z-]*)");

  private DataPrep() {}

  /** The synth options of the scenario, checked; errors name data.synth keys at their place. */
  static SynthOptions synthOptions(ScenarioSpec.Synth s, YamlPlaces places) {
    return scenarioKeys(
        places,
        "/data/synth",
        "data.synth.",
        () -> {
          int[] body =
              SynthOptions.parseRange(
                  "--body-words", s.bodyWords() == null ? "20..200" : s.bodyWords());
          return new SynthOptions(
              s.docs() == null ? 10_000 : s.docs(),
              s.seed() == null ? 42 : s.seed(),
              s.vocabulary() == null ? 50_000 : s.vocabulary(),
              s.zipf() == null ? 1.1 : s.zipf(),
              body[0],
              body[1],
              SynthOptions.parseFacets(
                  s.facets() == null ? SynthOptions.DEFAULT_FACETS : s.facets()));
        });
  }

  /** The derived queries' options, checked; errors name data.derive_queries keys at their place. */
  static QueryOptions queryOptions(ScenarioSpec.DeriveQueries q, YamlPlaces places) {
    ScenarioSpec.DeriveQueries d =
        q == null ? new ScenarioSpec.DeriveQueries(null, null, null, null, null, null, null) : q;
    return scenarioKeys(
        places,
        "/data/derive_queries",
        "data.derive_queries.",
        () ->
            new QueryOptions(
                d.field() == null ? "body_t" : d.field(),
                d.count() == null ? 1000 : d.count(),
                d.seed() == null ? 42 : d.seed(),
                QueryKind.parseList(
                    d.kinds().isEmpty()
                        ? "term,and,or,phrase,filter,sort,facet"
                        : String.join(",", d.kinds())),
                d.facetFields(),
                d.facetLimit() == null ? 25 : d.facetLimit(),
                d.rows() == null ? 10 : d.rows()));
  }

  /**
   * Runs a data command's code on scenario settings: its usage errors name options ({@code
   * --facet-fields}), which are the scenario's keys under {@code prefix} with '_' for '-'; the
   * message is placed at the first key it names.
   */
  static <T> T scenarioKeys(YamlPlaces places, String pointer, String prefix, Supplier<T> work) {
    try {
      return work.get();
    } catch (SolrscaleException e) {
      if (e.exitCode() != ExitCode.USAGE) {
        throw e;
      }
      Matcher m = OPTION.matcher(e.getMessage());
      String first = m.find() ? m.group(1).replace('-', '_') : null;
      String message =
          OPTION.matcher(e.getMessage()).replaceAll(r -> prefix + r.group(1).replace('-', '_'));
      String where =
          places == null
              ? ""
              : places.where(first == null ? pointer : pointer + "/" + first) + ": ";
      throw SolrscaleException.usage(where + message);
    }
  }

  /**
   * The corpus and queries of data settings {@code d}, generated into {@code dataDir} unless they
   * are there already from the same settings.
   */
  static Data prepare(ScenarioSpec.DataSpec d, Path dataDir, Path scenarioDir, YamlPlaces places) {
    List<Path> corpus = new ArrayList<>();
    Path settings = dataDir.resolve("settings.json");
    boolean same = sameSettings(settings, d);
    if (!d.files().isEmpty()) {
      corpus.addAll(Inputs.expand(d.files().stream().map(f -> resolve(scenarioDir, f)).toList()));
    } else if (d.synth() != null) {
      Path out = dataDir.resolve("corpus.jsonl");
      if (!same || !Files.isRegularFile(out)) {
        mkdirs(dataDir);
        Path tmp = dataDir.resolve("corpus.tmp.jsonl");
        Synth.write(synthOptions(d.synth(), places), tmp, Format.JSONL);
        move(tmp, out);
      }
      corpus.add(out);
    }
    List<Path> queries = new ArrayList<>();
    if (!d.queries().isEmpty()) {
      d.queries().forEach(q -> queries.add(Path.of(resolve(scenarioDir, q))));
    } else if (!corpus.isEmpty()) {
      Path out = dataDir.resolve("queries.txt");
      if (!same || !Files.isRegularFile(out)) {
        mkdirs(dataDir);
        Path tmp = dataDir.resolve("queries.tmp.txt");
        QueryOptions o = queryOptions(d.deriveQueries(), places);
        scenarioKeys(
            places,
            "/data/derive_queries",
            "data.derive_queries.",
            () -> QueryDeriver.derive(corpus, null, o, tmp));
        move(tmp, out);
      }
      queries.add(out);
    }
    writeSettings(settings, d);
    return new Data(corpus, queries);
  }

  /**
   * A file named in the scenario: as written when absolute, else relative to the scenario's folder.
   */
  static String resolve(Path scenarioDir, String f) {
    Path p = Path.of(f);
    return p.isAbsolute() || scenarioDir == null ? f : scenarioDir.resolve(f).toString();
  }

  /** Whether the generated data in the run directory was made with these settings. */
  private static boolean sameSettings(Path file, ScenarioSpec.DataSpec d) {
    try {
      return Files.isRegularFile(file) && JSON.readTree(file.toFile()).equals(JSON.valueToTree(d));
    } catch (IOException e) {
      return false;
    }
  }

  private static void writeSettings(Path file, ScenarioSpec.DataSpec d) {
    try {
      Files.createDirectories(file.getParent());
      JSON.writeValue(file.toFile(), d);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot create " + dir + ": " + e.getMessage());
    }
  }

  private static void move(Path from, Path to) {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot move " + from + " to " + to + ": " + e.getMessage());
    }
  }
}
