package org.solrscale.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.solrscale.capacity.Recommend;
import org.solrscale.capacity.Usl;
import org.solrscale.results.CapacityResult;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.Statistics;
import org.solrscale.results.StepResult;
import org.solrscale.spec.CapacityTarget;
import org.solrscale.spec.Sizes;
import org.solrscale.spec.Slo;
import org.solrscale.spec.SolrscaleException;

/**
 * What a run's capacity steps add up to: each combination's capacity over its repeats with an
 * interval, a fit of the scalability law over each sweep of nodes or replicas (with the largest N
 * held out and predicted), a recommendation for a target rate, and which swept parameters changed
 * capacity beyond the searches' intervals. Every sentence is computed from the data.
 */
final class CapacityStudy {
  /** Swept parameters that size a topology, most costly first (by their short names). */
  static final List<String> SIZE_ORDER =
      List.of("nodes", "zookeeper", "replicas", "shards", "heap");

  /** Parameters a scalability law is fitted over. */
  static final Set<String> SCALING = Set.of("nodes", "replicas");

  /** Predictions go no further than this many times the largest measured N. */
  static final int PREDICT_FACTOR = 4;

  /**
   * The fewest searches a side for a capacity verdict. One search's interval is only its own
   * resolution (its highest met and lowest failed rate), not the spread between runs: two searches
   * of one cluster on 0.3-core hosts found 58.1 and 49.0 requests/s, 18 % apart
   * (docs/findings/scaling-solr-2014.md).
   */
  static final int MIN_REPEATS = 2;

  /** Why a side with fewer than {@link #MIN_REPEATS} searches is not judged. */
  private static final String ONE_SEARCH =
      "one search's interval is its own resolution, not the spread between runs";

  /** One capacity step of one repeat: its summary (capacity.json). */
  record Search(int repeat, StepResult step, CapacityResult summary) {
    Double capacity() {
      return summary.capacity();
    }

    /** The lowest rate that failed, or null (none did: the capacity is a lower bound). */
    Double high() {
      return summary.high();
    }
  }

  /** One capacity step of one combination over its finished repeats. */
  record Entry(RunModel.Combination combination, String key, List<Search> searches) {
    /**
     * The objective for people, the same for capacity.json of any version (older ones wrote a
     * default error bound as errors<0%), so that equal objectives compare equal.
     */
    String slo() {
      return Slo.describe(searches.get(0).summary().slo());
    }

    /** The objective itself. */
    Slo objective() {
      return Slo.parse(searches.get(0).summary().slo());
    }

    /** The mean capacity of the repeats that found one (0 when none did). */
    double capacity() {
      return searches.stream()
          .map(Search::capacity)
          .filter(c -> c != null)
          .mapToDouble(Double::doubleValue)
          .average()
          .orElse(0);
    }

    /** The lowest capacity of any repeat (0 when one found none): the interval's lower end. */
    double low() {
      return searches.stream()
          .mapToDouble(s -> s.capacity() == null ? 0 : s.capacity())
          .min()
          .orElse(0);
    }

    /** The highest rate any repeat failed at, or null when one met every rate it tried. */
    Double high() {
      double h = 0;
      for (Search s : searches) {
        if (s.high() == null) {
          return null;
        }
        h = Math.max(h, s.high());
      }
      return h;
    }

    /** Whether every repeat bounded its capacity from above (a fit needs the true figure). */
    boolean bounded() {
      return high() != null && searches.stream().allMatch(s -> s.capacity() != null);
    }

    double[] perRepeat() {
      return searches.stream().mapToDouble(s -> s.capacity() == null ? 0 : s.capacity()).toArray();
    }

    /** This entry with only the given repeat's search (all when null); null when it has none. */
    Entry onlyRepeat(Integer repeat) {
      if (repeat == null) {
        return this;
      }
      List<Search> one = searches.stream().filter(s -> s.repeat() == repeat).toList();
      return one.isEmpty() ? null : new Entry(combination, key, one);
    }
  }

  /** A fit of the law over one swept parameter, the others fixed at {@code group}. */
  record Scaling(
      String key,
      String param,
      String group,
      List<Entry> entries,
      Usl.Fit fit,
      Usl.Holdout holdout,
      List<Recommend.Candidate> predicted,
      List<String> notes) {}

  private final RunModel model;
  final Map<String, List<Entry>> entries = new LinkedHashMap<>();
  final List<Scaling> scalings = new ArrayList<>();
  final List<String> findings = new ArrayList<>();
  CapacityTarget target;
  String targetFrom;
  Recommend.Result recommendation;

  private CapacityStudy(RunModel model) {
    this.model = model;
  }

  static CapacityStudy of(RunModel model, CapacityTarget given) {
    CapacityStudy s = new CapacityStudy(model);
    s.read();
    if (s.entries.isEmpty()) {
      return s;
    }
    for (String key : s.entries.keySet()) {
      s.scale(key);
    }
    s.target(given);
    s.effects();
    return s;
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  private void read() {
    entries.putAll(entries(model));
  }

  /**
   * Every finished capacity step of a run, by step key (its name, "#2" on for a second of the same
   * name in one repeat), each combination's over its finished repeats.
   */
  static Map<String, List<Entry>> entries(RunModel model) {
    Map<String, List<Entry>> out = new LinkedHashMap<>();
    for (RunModel.Combination c : model.combinations()) {
      Map<String, List<Search>> byKey = new LinkedHashMap<>();
      for (CombinationRun r : c.repeats()) {
        if (!r.done()) {
          continue;
        }
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (StepResult step : r.steps()) {
          CapacityResult sum = model.run().capacity(step);
          if (sum == null || sum.probes().isEmpty()) {
            continue;
          }
          int n = seen.merge(step.label(), 1, Integer::sum);
          String key = n == 1 ? step.label() : step.label() + " #" + n;
          byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Search(r.repeat(), step, sum));
        }
      }
      byKey.forEach(
          (key, searches) ->
              out.computeIfAbsent(key, k -> new ArrayList<>()).add(new Entry(c, key, searches)));
    }
    return out;
  }

  /** The size of a combination: its values of the swept parameters of {@link #SIZE_ORDER}. */
  /**
   * A combination's label as a topology: the swept parameters that size one (nodes, zookeeper,
   * replicas, shards, heap), then the others as what it was measured with ("nodes=2 (with threads=1
   * drivers=[h5])"), since a thread count or a driver host sizes no cluster.
   */
  String topologyLabel(RunModel.Combination c) {
    List<String> topology = new ArrayList<>();
    List<String> with = new ArrayList<>();
    for (String p : model.swept()) {
      String part = RunModel.shortName(p) + "=" + c.params().get(p);
      (SIZE_ORDER.contains(RunModel.shortName(p)) ? topology : with).add(part);
    }
    if (topology.isEmpty() || with.isEmpty()) {
      return model.label(c);
    }
    return String.join(" ", topology) + " (with " + String.join(" ", with) + ")";
  }

  double[] size(Map<String, Object> params) {
    double[] out = new double[SIZE_ORDER.size()];
    for (String p : model.swept()) {
      int i = SIZE_ORDER.indexOf(RunModel.shortName(p));
      if (i >= 0) {
        out[i] = sizeValue(params.get(p));
      }
    }
    return out;
  }

  private static double sizeValue(Object v) {
    Double d = Report.number(v);
    if (d != null) {
      return d;
    }
    try {
      return v == null ? 0 : Sizes.bytes(v.toString());
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private void scale(String key) {
    List<Entry> all = entries.get(key);
    for (String param : model.swept()) {
      if (!SCALING.contains(RunModel.shortName(param))
          || all.stream()
              .anyMatch(e -> Report.number(e.combination().params().get(param)) == null)) {
        continue;
      }
      Map<String, List<Entry>> groups = new LinkedHashMap<>();
      for (Entry e : all) {
        groups
            .computeIfAbsent(model.labelWithout(e.combination(), param), k -> new ArrayList<>())
            .add(e);
      }
      groups.forEach((group, line) -> scalings.add(fit(key, param, group, line)));
    }
  }

  private Scaling fit(String key, String param, String group, List<Entry> line) {
    List<String> notes = new ArrayList<>();
    List<Double> n = new ArrayList<>();
    List<Double> x = new ArrayList<>();
    String name = RunModel.shortName(param);
    for (Entry e : line) {
      double at = Report.number(e.combination().params().get(param));
      if (!e.bounded()) {
        notes.add(
            String.format(
                Locale.ROOT,
                "%s=%s is left out of the fit: its capacity is only a lower bound (%s)",
                name,
                Slo.fmt(at),
                e.high() == null
                    ? "the search's highest rate met the objective"
                    : "a repeat found none"));
        continue;
      }
      for (double c : e.perRepeat()) {
        n.add(at);
        x.add(c);
      }
    }
    double[] nn = n.stream().mapToDouble(Double::doubleValue).toArray();
    double[] xx = x.stream().mapToDouble(Double::doubleValue).toArray();
    Usl.Fit fit = Usl.fit(nn, xx);
    Usl.Holdout holdout = null;
    List<Recommend.Candidate> predicted = new ArrayList<>();
    if (fit.ok()) {
      holdout = Usl.holdout(nn, xx);
      if (holdout.predicted() == null) {
        notes.add(
            "no prediction beyond the measured "
                + name
                + ": the fit cannot be checked by holding out the largest "
                + name
                + " ("
                + holdout.refused()
                + ")");
      } else {
        double max = Arrays.stream(nn).max().orElse(1);
        double err =
            Math.max(
                fit.relativeRms() == null ? 0 : fit.relativeRms(),
                Math.abs(holdout.errorPct()) / 100);
        Entry largest =
            line.stream()
                .filter(e -> Report.number(e.combination().params().get(param)) == max)
                .findFirst()
                .orElseThrow();
        double[] size = size(largest.combination().params());
        int slot = SIZE_ORDER.indexOf(name);
        for (int at = (int) max + 1; at <= max * PREDICT_FACTOR && at <= 1000; at++) {
          if (fit.peakN() != null && at > Math.ceil(fit.peakN())) {
            break;
          }
          double p = fit.at(at);
          double[] s = size.clone();
          s[slot] = at;
          predicted.add(
              new Recommend.Candidate(
                  (line.size() == model.combinations().size() ? "" : group + " ")
                      + name
                      + "="
                      + at
                      + " (predicted)",
                  s,
                  p,
                  p * (1 - err),
                  p * (1 + err),
                  true));
        }
      }
    }
    return new Scaling(key, param, group, line, fit, holdout, predicted, notes);
  }

  private void target(CapacityTarget given) {
    String key = entries.keySet().iterator().next();
    List<Entry> first = entries.get(key);
    if (given != null) {
      target = given;
      targetFrom = "given to the report";
    } else {
      for (Entry e : first) {
        for (Search s : e.searches()) {
          if (target == null && s.summary().target() != null) {
            try {
              target = CapacityTarget.parse(s.summary().target());
              targetFrom = "the step's target";
            } catch (SolrscaleException ex) {
              findings.add("No recommendation: " + ex.getMessage() + ".");
              return;
            }
          }
        }
      }
    }
    if (target == null) {
      return;
    }
    String slo = first.get(0).slo();
    if (target.slo() != null && !target.slo().toString().equals(slo)) {
      findings.add(
          String.format(
              Locale.ROOT,
              "No recommendation for %s: the capacity step %s measured against %s; a target with"
                  + " another objective needs capacity steps with that slo.",
              target,
              key,
              slo));
      target = null;
      return;
    }
    List<Recommend.Candidate> candidates = new ArrayList<>();
    for (Entry e : first) {
      candidates.add(
          new Recommend.Candidate(
              topologyLabel(e.combination()),
              size(e.combination().params()),
              e.capacity(),
              e.low(),
              e.high(),
              false));
    }
    for (Scaling sc : scalings) {
      if (sc.key().equals(key)) {
        candidates.addAll(sc.predicted());
      }
    }
    recommendation = Recommend.recommend(target.rate(), candidates);
    findings.add(recommendationSentence(key, slo));
  }

  private String recommendationSentence(String key, String slo) {
    Recommend.Result r = recommendation;
    String what = Slo.fmt(r.rate()) + " requests/s within " + slo;
    if (r.chosen() == null) {
      return String.format(
          Locale.ROOT,
          "For %s (%s), no topology measured%s serves it: the highest capacity is %s's %s"
              + " requests/s.",
          what,
          key,
          scalings.isEmpty() ? "" : " or predicted",
          r.closest().label(),
          Slo.fmt(r.closest().capacity()));
    }
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "For %s (%s), the smallest topology that serves it is %s: %s capacity %s"
                    + " requests/s, interval %s.",
                what,
                key,
                r.chosen().label(),
                r.chosen().predicted() ? "predicted" : "measured",
                Slo.fmt(r.chosen().capacity()),
                interval(r.chosen().low(), r.chosen().high())));
    if (!r.alternatives().isEmpty()) {
      List<String> alt = new ArrayList<>();
      for (Recommend.Candidate c : r.alternatives()) {
        alt.add(
            c.label()
                + " ("
                + Slo.fmt(c.capacity())
                + ", "
                + interval(c.low(), c.high())
                + (c.predicted() ? ", predicted" : "")
                + ")");
      }
      b.append(" Next: ").append(String.join("; ", alt)).append('.');
    }
    return b.toString();
  }

  static String interval(double low, Double high) {
    // no upper bound: no rate tried failed the objective (--max-rate met it, or probes ran out)
    return high == null ? "at least " + Slo.fmt(low) : Slo.fmt(low) + "-" + Slo.fmt(high);
  }

  /**
   * For each swept parameter: whether a step of it changed capacity beyond noise. Two capacities
   * differ when their intervals (over repeats and the search's bounds) do not overlap and they
   * differ by more than Judge's threshold; with 4 or more repeats each, their repeats must also
   * differ by the rank test.
   */
  private void effects() {
    for (var byKey : entries.entrySet()) {
      List<Entry> all = byKey.getValue();
      for (String param : model.swept()) {
        Map<String, List<Entry>> groups = new LinkedHashMap<>();
        for (Entry e : all) {
          groups
              .computeIfAbsent(model.labelWithout(e.combination(), param), k -> new ArrayList<>())
              .add(e);
        }
        List<String> changed = new ArrayList<>();
        int steps = 0;
        int unjudged = 0;
        for (List<Entry> line : groups.values()) {
          List<Entry> sorted = new ArrayList<>(line);
          List<RunModel.Combination> combos = sorted.stream().map(Entry::combination).toList();
          sorted.sort(
              (a, b) -> Report.byParam(param, combos).compare(a.combination(), b.combination()));
          for (int i = 1; i < sorted.size(); i++) {
            steps++;
            Entry a = sorted.get(i - 1);
            Entry b = sorted.get(i);
            if (!judgeable(a, b)) {
              unjudged++;
            } else if (differ(a, b)) {
              changed.add(
                  String.format(
                      Locale.ROOT,
                      "%s \u2192 %s: %s to %s requests/s",
                      a.combination().params().get(param),
                      b.combination().params().get(param),
                      Slo.fmt(a.capacity()),
                      Slo.fmt(b.capacity())));
            }
          }
        }
        if (steps == 0) {
          continue;
        }
        String name = RunModel.shortName(param);
        if (unjudged == steps) {
          findings.add(
              String.format(
                  Locale.ROOT,
                  "%s: its effect on capacity (%s) is not judged, with fewer than %d repeats of"
                      + " each combination (%s).",
                  name,
                  byKey.getKey(),
                  MIN_REPEATS,
                  ONE_SEARCH));
          continue;
        }
        int judged = steps - unjudged;
        String skipped =
            unjudged == 0
                ? ""
                : String.format(
                    Locale.ROOT,
                    "; %d more not judged (fewer than %d repeats a side)",
                    unjudged,
                    MIN_REPEATS);
        findings.add(
            changed.isEmpty()
                ? String.format(
                    Locale.ROOT,
                    "%s made no significant difference to capacity (%s): %d %s, each within the"
                        + " other's interval or %.0f %%%s.",
                    name,
                    byKey.getKey(),
                    judged,
                    judged == 1 ? "change" : "changes",
                    Judge.THRESHOLD * 100,
                    skipped)
                : String.format(
                    Locale.ROOT,
                    "%s changed capacity (%s) in %d of %d changes: %s%s.",
                    name,
                    byKey.getKey(),
                    changed.size(),
                    judged,
                    String.join("; ", changed),
                    skipped));
      }
    }
  }

  /** Whether both sides have enough searches for {@link #differ} to mean anything. */
  static boolean judgeable(Entry a, Entry b) {
    return a.searches().size() >= MIN_REPEATS && b.searches().size() >= MIN_REPEATS;
  }

  /** Why two entries were not judged: the repeat counts (see {@link #MIN_REPEATS}). */
  static String notJudgeable(int repeatsA, int repeatsB) {
    return String.format(
        Locale.ROOT,
        "%d and %d %s: %s; give repeat: %d or more",
        repeatsA,
        repeatsB,
        repeatsA == 1 && repeatsB == 1 ? "repeat a side" : "repeats",
        ONE_SEARCH,
        MIN_REPEATS);
  }

  static boolean differ(Entry a, Entry b) {
    if (!judgeable(a, b)) {
      return false;
    }
    double ca = a.capacity();
    double cb = b.capacity();
    if (Math.abs(Statistics.relative(ca, cb)) <= Judge.THRESHOLD) {
      return false;
    }
    Entry lo = ca <= cb ? a : b;
    Entry hi = lo == a ? b : a;
    // apart when the lower one's interval ends (its lowest failing rate) at or below the higher
    // one's lowest capacity
    if (lo.high() == null || lo.high() > hi.low()) {
      return false;
    }
    if (rankTested(a.searches().size(), b.searches().size())) {
      return Statistics.mannWhitneyP(a.perRepeat(), b.perRepeat()) < Judge.ALPHA;
    }
    return true;
  }

  /**
   * Whether capacities over these repeat counts must also differ by the rank test: with 4 or more a
   * side it can reach alpha (its smallest p is then 0.029).
   */
  static boolean rankTested(int repeatsA, int repeatsB) {
    return repeatsA >= 4 && repeatsB >= 4;
  }

  /** Keys in run order (distinct step names). */
  Set<String> keys() {
    return new LinkedHashSet<>(entries.keySet());
  }
}
