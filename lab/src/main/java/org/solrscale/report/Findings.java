package org.solrscale.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.RanOn;

/**
 * The report's findings, computed from the data: the best combination for each target and whether
 * it beats the next best beyond noise, the effect of each step of each swept parameter, errors,
 * driver limits and unfinished repeats. Uses compare's statistics (Judge).
 */
final class Findings {
  /** One step of one parameter with the others fixed: B (to) judged against A (from). */
  record Effect(
      String step,
      String param,
      String from,
      String to,
      String at,
      Map<Metric, Comparison.MetricDelta> deltas) {}

  /** Sentences (HTML). */
  final List<String> notes = new ArrayList<>();

  final List<Effect> effects = new ArrayList<>();

  static final int MAX_EFFECTS = 80;

  static Findings of(RunModel m) {
    Findings f = new Findings();
    for (String key : m.stepKeys()) {
      List<RunModel.Combination> combos =
          m.combinations().stream().filter(c -> !m.benches(c.id(), key).isEmpty()).toList();
      if (combos.size() >= 2) {
        f.best(m, key, combos, Metric.QPS, "Highest achieved throughput");
        f.best(m, key, combos, Metric.P99, "Lowest p99 latency");
        f.best(m, key, combos, Metric.P50, "Lowest p50 latency");
      } else if (combos.size() == 1) {
        f.single(m, key, combos.get(0));
      }
      f.effects(m, key, combos);
    }
    f.noiseSummary();
    f.withinNoise();
    f.problems(m);
    return f;
  }

  static double mean(List<RunModel.Bench> benches, Metric metric) {
    return benches.stream().mapToDouble(b -> metric.of(b.summary())).average().orElse(Double.NaN);
  }

  private void best(
      RunModel m, String key, List<RunModel.Combination> combos, Metric metric, String what) {
    Comparator<RunModel.Combination> order =
        Comparator.comparingDouble(c -> mean(m.benches(c.id(), key), metric));
    List<RunModel.Combination> sorted = new ArrayList<>(combos);
    sorted.sort(metric.higherIsBetter ? order.reversed() : order);
    RunModel.Combination best = sorted.get(0);
    RunModel.Combination next = sorted.get(1);
    List<RunModel.Bench> bb = m.benches(best.id(), key);
    List<RunModel.Bench> nb = m.benches(next.id(), key);
    Comparison.MetricDelta d = Judge.judge(metric, nb, bb);
    boolean noise =
        !d.verdict().equals("faster")
            && !d.verdict().equals("slower")
            && !d.verdict().equals("fewer errors")
            && !d.verdict().equals("more errors");
    String verdict =
        noise
            ? "<span class=\"noise\">the difference is within noise</span>"
            : "<span class=\"sig\">the difference is significant</span>";
    notes.add(
        String.format(
            Locale.ROOT,
            "%s, step %s: <b>%s</b> with %s %s; the next best, %s, has %s %s, so the best differs by %s: %s (%s, %s samples).",
            what,
            Html.escape(key),
            Html.escape(m.label(best)),
            Html.num(mean(bb, metric)),
            metric.unit,
            Html.escape(m.label(next)),
            Html.num(mean(nb, metric)),
            metric.unit,
            Html.pct(d.deltaPct()),
            verdict,
            d.p() == null ? "not tested" : String.format(Locale.ROOT, "p = %.3g", d.p()),
            Html.escape(Judge.samples(nb.size(), bb.size()))));
  }

  private void single(RunModel m, String key, RunModel.Combination c) {
    List<RunModel.Bench> b = m.benches(c.id(), key);
    notes.add(
        String.format(
            Locale.ROOT,
            "%s: %s req/s achieved, p50 %s ms, p99 %s ms, p99.9 %s ms%s.",
            Html.escape(key),
            Html.num(mean(b, Metric.QPS)),
            Html.num(mean(b, Metric.P50)),
            Html.num(mean(b, Metric.P99)),
            Html.num(mean(b, Metric.P999)),
            b.size() > 1 ? " (mean of " + b.size() + " repeats)" : ""));
    coldStart(key, b.get(0));
  }

  /** Whether the first seconds were much slower than the rest: a cold start. */
  private void coldStart(String key, RunModel.Bench b) {
    var rows = Seconds.of(b.timeline()).stream().filter(r -> r.requests() > 0).toList();
    if (rows.size() < 10) {
      return;
    }
    int tenth = Math.max(1, rows.size() / 10);
    double first =
        rows.subList(0, tenth).stream().mapToDouble(r -> r.latencyP50Ms()).average().orElse(0);
    double rest =
        rows.subList(rows.size() - tenth, rows.size()).stream()
            .mapToDouble(r -> r.latencyP50Ms())
            .average()
            .orElse(0);
    if (rest > 0 && first > 2 * rest) {
      notes.add(
          String.format(
              Locale.ROOT,
              "%s: a cold start: the first %d seconds had a p50 of %s ms, "
                  + "%.1f times the last %d seconds' %s ms (see the cold-start curve).",
              Html.escape(key),
              tenth,
              Html.num(first),
              first / rest,
              tenth,
              Html.num(rest)));
    }
  }

  private void effects(RunModel m, String key, List<RunModel.Combination> combos) {
    for (String param : m.swept()) {
      Map<String, List<RunModel.Combination>> groups = new LinkedHashMap<>();
      for (RunModel.Combination c : combos) {
        groups.computeIfAbsent(m.labelWithout(c, param), k -> new ArrayList<>()).add(c);
      }
      for (var g : groups.entrySet()) {
        List<RunModel.Combination> line = new ArrayList<>(g.getValue());
        line.sort(Report.byParam(param, combos));
        for (int i = 1; i < line.size() && effects.size() < MAX_EFFECTS; i++) {
          RunModel.Combination from = line.get(i - 1);
          RunModel.Combination to = line.get(i);
          Map<Metric, Comparison.MetricDelta> d = new LinkedHashMap<>();
          for (Metric metric : new Metric[] {Metric.QPS, Metric.P50, Metric.P99}) {
            d.put(metric, Judge.judge(metric, m.benches(from.id(), key), m.benches(to.id(), key)));
          }
          effects.add(
              new Effect(
                  key,
                  RunModel.shortName(param),
                  String.valueOf(from.params().get(param)),
                  String.valueOf(to.params().get(param)),
                  g.getValue().size() == combos.size() ? "" : g.getKey(),
                  d));
        }
      }
    }
  }

  private void noiseSummary() {
    if (effects.isEmpty()) {
      return;
    }
    long noise =
        effects.stream()
            .filter(
                e ->
                    e.deltas().values().stream()
                        .allMatch(d -> d.verdict().equals("no significant difference")))
            .count();
    String rule =
        String.format(
            Locale.ROOT,
            "(a difference counts when p < %.2f and it exceeds %.0f %%)",
            Judge.ALPHA,
            Judge.THRESHOLD * 100);
    notes.add(
        noise == effects.size()
            ? "No parameter change made a significant difference to throughput, p50 or p99 "
                + rule
                + "."
            : String.format(
                Locale.ROOT,
                "%d of %d parameter changes made a significant difference to "
                    + "throughput, p50 or p99 %s; the others are within noise. See the effects table.",
                effects.size() - noise,
                effects.size(),
                rule));
  }

  /**
   * Each swept parameter none of whose changes made a significant difference to any bench metric,
   * as a sentence: "zookeeper made no significant difference to query throughput, p50 or p99 (4
   * changes, step warm)".
   */
  private void withinNoise() {
    Map<String, List<Effect>> byParam = new LinkedHashMap<>();
    effects.forEach(e -> byParam.computeIfAbsent(e.param(), k -> new ArrayList<>()).add(e));
    byParam.forEach(
        (param, list) -> {
          boolean noise =
              list.stream()
                  .allMatch(
                      e ->
                          e.deltas().values().stream()
                              .allMatch(d -> d.verdict().equals("no significant difference")));
          if (noise) {
            List<String> steps = list.stream().map(Effect::step).distinct().toList();
            notes.add(
                String.format(
                    Locale.ROOT,
                    "%s made no significant difference to query throughput, p50 or p99 (%d %s, %s"
                        + " %s).",
                    Html.escape(param),
                    list.size(),
                    list.size() == 1 ? "change" : "changes",
                    steps.size() == 1 ? "step" : "steps",
                    Html.escape(String.join(", ", steps))));
          }
        });
  }

  private void problems(RunModel m) {
    String mixed =
        RanOn.mixed(
            m.combinations().stream()
                .flatMap(c -> c.repeats().stream())
                .filter(CombinationRun::done)
                .toList());
    if (mixed != null) {
      notes.add(
          0,
          "<span class=\"sig\">"
              + Html.escape(Html.capitalized(mixed))
              + " (see Environment)</span>.");
    }
    for (String why : m.leftOut()) {
      notes.add(
          "<span class=\"sig\">Left out of every finding, table and chart: "
              + Html.escape(why)
              + "</span>.");
    }
    for (RunModel.Combination c : m.combinations()) {
      for (String key : m.stepKeys()) {
        for (RunModel.Bench b : m.benches(c.id(), key)) {
          BenchSummary s = b.summary();
          if (s.replay() != null && s.replay().flagged()) {
            notes.add(
                0,
                "<span class=\"sig\">"
                    + Html.escape(
                        String.format(
                            Locale.ROOT,
                            "%s r%d %s: the lab's index does not answer like production's: %,d of"
                                + " %,d replayed requests (%.1f %%) got other hits than the log"
                                + " says; its latencies describe another index (see Replay)",
                            c.id(),
                            b.repeat(),
                            key,
                            s.replay().checked() - s.replay().equal(),
                            s.replay().checked(),
                            100 * s.replay().differingShare()))
                    + "</span>.");
          }
          if (s.errors() != null && s.errors().total() > 0) {
            List<String> kinds = new ArrayList<>();
            if (s.errors().byKind() != null) {
              s.errors().byKind().forEach((k, v) -> kinds.add(v.count() + " " + k));
            }
            notes.add(
                "<span class=\"sig\">"
                    + Html.escape(
                        c.id()
                            + " r"
                            + b.repeat()
                            + " "
                            + key
                            + ": "
                            + s.errors().total()
                            + " errors of "
                            + (s.count())
                            + " requests"
                            + (kinds.isEmpty() ? "" : " (" + String.join(", ", kinds) + ")"))
                    + "</span>.");
          }
          if (s.partial() > 0) {
            notes.add(
                "<span class=\"sig\">"
                    + Html.escape(
                        String.format(
                            Locale.ROOT,
                            "%s r%d %s: %,d partial answers of %,d requests (%.1f %%: Solr's"
                                + " partialResults, from shards.tolerant or timeAllowed); they"
                                + " came back without part of the index, so their latency is"
                                + " not that of complete answers",
                            c.id(),
                            b.repeat(),
                            key,
                            s.partial(),
                            s.count(),
                            100.0 * s.partial() / Math.max(1, s.count())))
                    + "</span>.");
          }
          if (s.driver() != null
              && s.driver().bottleneck() != null
              && s.driver().bottleneck().startsWith("driver")) {
            notes.add(
                "<span class=\"sig\">"
                    + Html.escape(
                        c.id()
                            + " r"
                            + b.repeat()
                            + " "
                            + key
                            + ": the load driver was the bottleneck ("
                            + s.driver().bottleneck()
                            + ")")
                    + "</span>.");
          }
        }
      }
    }
  }
}
