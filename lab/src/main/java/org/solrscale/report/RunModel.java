package org.solrscale.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.IndexResult;
import org.solrscale.results.IntervalLog;
import org.solrscale.results.RunDir;
import org.solrscale.results.StepResult;
import org.solrscale.results.TimelineRow;

/**
 * A run as report and compare see it: its combinations (in id order), the finished repeats of each,
 * and their bench steps with parsed summaries, plus which parameters the matrix swept.
 */
final class RunModel {
  /** One bench step of one repeat of one combination. */
  record Bench(
      RunDir run,
      String combination,
      int repeat,
      String key,
      StepResult step,
      BenchSummary summary) {
    List<org.solrscale.results.ReplayRequestRow> replayRequests() {
      return run.replayRequests(step);
    }

    List<TimelineRow> timeline() {
      return run.timeline(step);
    }

    IntervalLog intervals() {
      return run.intervals(step);
    }

    /**
     * Closed-loop threads: as the summary records them, or (a run made before summaries did) from
     * the time per 1000 requests per thread and the achieved rate.
     */
    Integer threads() {
      if (summary.threads() != null) {
        return summary.threads();
      }
      if (summary.msPer1000PerThread() == null || summary.throughput() == null) {
        return null;
      }
      long t = Math.round(summary.msPer1000PerThread() * summary.throughput().achieved() / 1e6);
      return t > 0 ? (int) t : null;
    }
  }

  /** One index step of one repeat of one combination: its documents per second overall. */
  record IndexLoad(
      RunDir run, String combination, int repeat, String key, StepResult step, double docsPerSec) {
    /** Documents accepted in each whole second of the load (empty for a run made before). */
    double[] perSecond() {
      return run.indexPerSecond(step);
    }
  }

  /** One combination: its parameters and every repeat (finished or not). */
  record Combination(String id, Map<String, Object> params, List<CombinationRun> repeats) {}

  private final RunDir run;
  private final List<Combination> combinations = new ArrayList<>();
  private final Map<String, List<Bench>> benches = new HashMap<>();
  private final List<String> swept;
  private final List<String> stepKeys;
  private final Map<String, List<IndexLoad>> indexLoads = new HashMap<>();
  private final List<String> indexKeys;
  private final List<String> leftOut = new ArrayList<>();

  RunModel(RunDir run) {
    this.run = run;
    Set<String> keys = new LinkedHashSet<>();
    Set<String> loadKeys = new LinkedHashSet<>();
    run.results()
        .byId()
        .forEach(
            (id, repeats) -> {
              combinations.add(new Combination(id, repeats.get(0).params(), repeats));
              for (CombinationRun c : repeats) {
                if (!c.done()) {
                  leftOut.add(
                      id
                          + " r"
                          + c.repeat()
                          + " ("
                          + labelOf(repeats.get(0).params())
                          + "): "
                          + c.why());
                  continue;
                }
                Map<String, Integer> loads = new HashMap<>();
                for (StepResult s : c.steps()) {
                  IndexResult index = run.index(s);
                  if (index == null) {
                    continue;
                  }
                  int n = loads.merge(s.label(), 1, Integer::sum);
                  String key = n == 1 ? s.label() : s.label() + " #" + n;
                  loadKeys.add(key);
                  indexLoads
                      .computeIfAbsent(id + "\u0000" + key, k -> new ArrayList<>())
                      .add(new IndexLoad(run, id, c.repeat(), key, s, index.docsPerSec()));
                }
                Map<String, Integer> seen = new HashMap<>();
                for (StepResult s : c.benchSteps()) {
                  int n = seen.merge(s.label(), 1, Integer::sum);
                  String key = n == 1 ? s.label() : s.label() + " #" + n;
                  BenchSummary summary = run.bench(s);
                  if (summary == null) {
                    continue;
                  }
                  String why = notAResult(summary);
                  if (why != null) {
                    leftOut.add(id + " r" + c.repeat() + " step " + key + ": " + why);
                    continue;
                  }
                  keys.add(key);
                  benches
                      .computeIfAbsent(id + "\u0000" + key, k -> new ArrayList<>())
                      .add(new Bench(run, id, c.repeat(), key, s, summary));
                }
              }
            });
    this.stepKeys = List.copyOf(keys);
    this.indexKeys = List.copyOf(loadKeys);
    this.swept = sweptParams(combinations);
  }

  /**
   * Why a bench summary is no measurement, or null: it says so itself, or (a run made before
   * summaries said so) nothing completed or more than {@link #OLD_MAX_ERROR_RATE} failed.
   */
  static String notAResult(BenchSummary s) {
    if (s.failed() != null) {
      return "measured nothing: " + s.failed();
    }
    if (s.maxErrorRate() != null) {
      return null;
    }
    long errors = s.errors() == null ? 0 : s.errors().total();
    if (s.count() == 0) {
      return "measured nothing: no request completed";
    }
    return (double) errors / s.count() > OLD_MAX_ERROR_RATE
        ? String.format(
            Locale.ROOT, "measured nothing: %,d of %,d requests failed", errors, s.count())
        : null;
  }

  /** The share of failed requests that makes a summary of an older run no measurement. */
  static final double OLD_MAX_ERROR_RATE = 0.01;

  /**
   * Repeats and bench steps left out of every finding, table and comparison, each with why (failed,
   * interrupted, measured nothing).
   */
  List<String> leftOut() {
    return leftOut;
  }

  private static String labelOf(Map<String, Object> params) {
    if (params.isEmpty()) {
      return "no matrix";
    }
    List<String> parts = new ArrayList<>();
    params.forEach((k, v) -> parts.add(shortName(k) + "=" + v));
    return String.join(" ", parts);
  }

  private static List<String> sweptParams(List<Combination> combos) {
    Set<String> names = new LinkedHashSet<>();
    combos.forEach(c -> names.addAll(c.params().keySet()));
    List<String> out = new ArrayList<>();
    for (String n : names) {
      if (combos.stream().map(c -> String.valueOf(c.params().get(n))).distinct().count() > 1) {
        out.add(n);
      }
    }
    return List.copyOf(out);
  }

  RunDir run() {
    return run;
  }

  List<Combination> combinations() {
    return combinations;
  }

  Combination combination(String id) {
    return combinations.stream().filter(c -> c.id().equals(id)).findFirst().orElse(null);
  }

  /** The parameters whose values differ between combinations. */
  List<String> swept() {
    return swept;
  }

  /** Bench step keys (names) in the order they first ran. */
  List<String> stepKeys() {
    return stepKeys;
  }

  /** The finished repeats' results of one bench step of one combination. */
  List<Bench> benches(String combination, String key) {
    return benches.getOrDefault(combination + "\u0000" + key, List.of());
  }

  /** Index step keys (names) in the order they first ran. */
  List<String> indexKeys() {
    return indexKeys;
  }

  /** The finished repeats' results of one index step of one combination. */
  List<IndexLoad> indexLoads(String combination, String key) {
    return indexLoads.getOrDefault(combination + "\u0000" + key, List.of());
  }

  /** How a combination is named in charts and tables: its swept parameters, else its id. */
  String label(Combination c) {
    if (swept.isEmpty()) {
      return c.id();
    }
    List<String> parts = new ArrayList<>();
    for (String p : swept) {
      parts.add(shortName(p) + "=" + Objects.toString(c.params().get(p), "-"));
    }
    return String.join(" ", parts);
  }

  /** "bench.threads" reads as "threads" in labels. */
  static String shortName(String param) {
    int dot = param.lastIndexOf('.');
    return dot < 0 ? param : param.substring(dot + 1);
  }

  /** The swept parameters of a combination other than one, as a label ("nodes=2"). */
  String labelWithout(Combination c, String param) {
    List<String> parts = new ArrayList<>();
    for (String p : swept) {
      if (!p.equals(param)) {
        parts.add(shortName(p) + "=" + Objects.toString(c.params().get(p), "-"));
      }
    }
    return parts.isEmpty() ? shortName(param) : String.join(" ", parts);
  }

  /** Parameters as a map of strings, for matching combinations of two runs. */
  static Map<String, String> paramKey(Combination c) {
    Map<String, String> m = new LinkedHashMap<>();
    c.params().forEach((k, v) -> m.put(k, String.valueOf(v)));
    return m;
  }
}
