package org.solrscale.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.solrscale.data.Format;
import org.solrscale.data.Inputs;
import org.solrscale.data.QueryDeriver;
import org.solrscale.data.QueryKind;
import org.solrscale.data.QueryOptions;
import org.solrscale.data.Synth;
import org.solrscale.data.SynthOptions;
import org.solrscale.spec.ScenarioSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * The corpus and query files of a run: the scenario's files, or generated once into the run's
 * {@code data/} directory (kept there, so a resumed run does not generate them again).
 */
final class DataPrep {
  /** Corpus files and query files. */
  record Data(List<Path> corpus, List<Path> queries) {}

  private DataPrep() {}

  static Data prepare(ScenarioSpec.DataSpec d, Path runDir, Path scenarioDir) {
    List<Path> corpus = new ArrayList<>();
    if (!d.files().isEmpty()) {
      corpus.addAll(Inputs.expand(d.files().stream().map(f -> resolve(scenarioDir, f)).toList()));
    } else if (d.synth() != null) {
      Path out = runDir.resolve("data/corpus.jsonl");
      if (!Files.isRegularFile(out)) {
        Map<String, Object> s = d.synth();
        int[] body = SynthOptions.parseRange("body_words", String.valueOf(s.getOrDefault("body_words", "20..200")));
        SynthOptions o = new SynthOptions(num(s, "docs", 10_000), num(s, "seed", 42),
            (int) num(s, "vocabulary", 50_000), dbl(s, "zipf", 1.1), body[0], body[1],
            SynthOptions.parseFacets(String.valueOf(s.getOrDefault("facets", SynthOptions.DEFAULT_FACETS))));
        Path tmp = runDir.resolve("data/corpus.tmp.jsonl");
        Synth.write(o, tmp, Format.JSONL);
        move(tmp, out);
      }
      corpus.add(out);
    }
    List<Path> queries = new ArrayList<>();
    if (!d.queries().isEmpty()) {
      d.queries().forEach(q -> queries.add(Path.of(resolve(scenarioDir, q))));
    } else if (!corpus.isEmpty()) {
      Path out = runDir.resolve("data/queries.txt");
      if (!Files.isRegularFile(out)) {
        Map<String, Object> q = d.deriveQueries() == null ? Map.of() : d.deriveQueries();
        QueryOptions o = new QueryOptions(String.valueOf(q.getOrDefault("field", "body_t")),
            (int) num(q, "count", 1000), num(q, "seed", 42),
            QueryKind.parseList(String.valueOf(q.getOrDefault("kinds", "term,and,or,phrase,filter,sort,facet"))),
            List.of(), (int) num(q, "facet_limit", 25), (int) num(q, "rows", 10));
        Path tmp = runDir.resolve("data/queries.tmp.txt");
        QueryDeriver.derive(corpus, null, o, tmp);
        move(tmp, out);
      }
      queries.add(out);
    }
    return new Data(corpus, queries);
  }

  private static String resolve(Path scenarioDir, String f) {
    Path p = Path.of(f);
    return p.isAbsolute() || scenarioDir == null ? f : scenarioDir.resolve(f).toString();
  }

  private static long num(Map<String, Object> m, String key, long dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Number n) {
      return n.longValue();
    }
    throw SolrscaleException.usage("data: '" + key + "' must be a number; got '" + v + "'");
  }

  private static double dbl(Map<String, Object> m, String key, double dflt) {
    Object v = m.get(key);
    return v instanceof Number n ? n.doubleValue() : dflt;
  }

  private static void move(Path from, Path to) {
    try {
      Files.move(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (java.io.IOException e) {
      throw SolrscaleException.environment("cannot move " + from + " to " + to + ": " + e.getMessage());
    }
  }
}
