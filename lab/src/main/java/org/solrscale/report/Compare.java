package org.solrscale.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.RanOn;
import org.solrscale.results.RunDir;
import org.solrscale.results.RunSelection;
import org.solrscale.spec.SolrscaleException;

/**
 * `solrscale compare A B`: pairs the combinations of two runs (the one named on each side, or those
 * with equal parameters) and their bench steps (by name), and judges each pair.
 */
public final class Compare {
  private Compare() {}

  public static Comparison compare(RunSelection a, RunSelection b) {
    RunModel ma = new RunModel(RunDir.open(a.dir()));
    RunModel mb = new RunModel(RunDir.open(b.dir()));
    List<RunModel.Combination> ca = pick(a, ma);
    List<RunModel.Combination> cb = pick(b, mb);
    List<String> onlyA = new ArrayList<>();
    List<String> onlyB = new ArrayList<>();
    List<RunModel.Combination[]> pairs = new ArrayList<>();
    if (ca.size() == 1 && cb.size() == 1) {
      pairs.add(new RunModel.Combination[] {ca.get(0), cb.get(0)});
    } else {
      for (RunModel.Combination x : ca) {
        Map<String, String> key = RunModel.paramKey(x);
        RunModel.Combination match =
            cb.stream().filter(y -> RunModel.paramKey(y).equals(key)).findFirst().orElse(null);
        if (match == null) {
          onlyA.add(x.id() + " (" + ma.label(x) + ")");
        } else {
          pairs.add(new RunModel.Combination[] {x, match});
        }
      }
      for (RunModel.Combination y : cb) {
        if (pairs.stream().noneMatch(p -> p[1] == y)) {
          onlyB.add(y.id() + " (" + mb.label(y) + ")");
        }
      }
      if (pairs.isEmpty()) {
        throw SolrscaleException.usage(
            a.label()
                + " and "
                + b.label()
                + " share no combination "
                + "with equal parameters; name one on each side, e.g. "
                + a.dir()
                + "#"
                + ca.get(0).id()
                + " "
                + b.dir()
                + "#"
                + cb.get(0).id());
      }
    }
    List<Comparison.StepDelta> steps = new ArrayList<>();
    Side sa = new Side(ma);
    Side sb = new Side(mb);
    for (RunModel.Combination[] p : pairs) {
      String labelA = a.dir() + "#" + p[0].id() + (a.repeat() == null ? "" : "/r" + a.repeat());
      String labelB = b.dir() + "#" + p[1].id() + (b.repeat() == null ? "" : "/r" + b.repeat());
      String label =
          ma.label(p[0]).equals(mb.label(p[1]))
              ? ma.label(p[0])
              : ma.label(p[0]) + " vs " + mb.label(p[1]);
      judgePair(sa, sb, p, a.repeat(), b.repeat(), labelA, labelB, label, steps, onlyA, onlyB);
    }
    List<String> leftOut = new ArrayList<>();
    leftOut.addAll(leftOut(ma, ca, "A"));
    leftOut.addAll(leftOut(mb, cb, "B"));
    if (steps.isEmpty()) {
      throw SolrscaleException.usage(
          a.label()
              + " and "
              + b.label()
              + " have no finished index, bench or capacity step of the same name to compare"
              + (leftOut.isEmpty()
                  ? ""
                  : "; left out as no measurement: " + String.join("; ", leftOut)));
    }
    List<CombinationRun> pooled = new ArrayList<>();
    for (RunModel.Combination[] p : pairs) {
      pooled.addAll(repeats(p[0], a.repeat()));
      pooled.addAll(repeats(p[1], b.repeat()));
    }
    return new Comparison(
        a.label(),
        b.label(),
        Judge.ALPHA,
        Judge.THRESHOLD * 100,
        steps,
        onlyA,
        onlyB,
        leftOut,
        warnings(pooled));
  }

  /** One side of a comparison: its run, and its capacity steps read once. */
  private record Side(RunModel model, Map<String, List<CapacityStudy.Entry>> capacities) {
    Side(RunModel model) {
      this(model, CapacityStudy.entries(model));
    }

    /** The capacity step {@code key} of combination {@code c} (one repeat, or all), or null. */
    CapacityStudy.Entry capacity(String key, RunModel.Combination c, Integer repeat) {
      return capacities.getOrDefault(key, List.of()).stream()
          .filter(e -> e.combination().id().equals(c.id()))
          .findFirst()
          .map(e -> e.onlyRepeat(repeat))
          .orElse(null);
    }
  }

  /**
   * Judges one pair of combinations, A's against B's: every index step (documents per second),
   * every bench step of the same name and every capacity step of the same name; steps only one side
   * has are added to onlyA/onlyB.
   */
  private static void judgePair(
      Side sa,
      Side sb,
      RunModel.Combination[] p,
      Integer repeatA,
      Integer repeatB,
      String labelA,
      String labelB,
      String label,
      List<Comparison.StepDelta> steps,
      List<String> onlyA,
      List<String> onlyB) {
    RunModel ma = sa.model();
    RunModel mb = sb.model();
    for (String key : ma.indexKeys()) {
      List<RunModel.IndexLoad> ia = loads(ma.indexLoads(p[0].id(), key), repeatA);
      List<RunModel.IndexLoad> ib = loads(mb.indexLoads(p[1].id(), key), repeatB);
      if (!ia.isEmpty() && !ib.isEmpty() && Judge.indexJudgeable(ia, ib)) {
        steps.add(Judge.judgeIndex(labelA, labelB, label, key, ia, ib));
      }
    }
    for (String key : ma.stepKeys()) {
      List<RunModel.Bench> ba = repeat(ma.benches(p[0].id(), key), repeatA);
      List<RunModel.Bench> bb = repeat(mb.benches(p[1].id(), key), repeatB);
      if (ba.isEmpty() && bb.isEmpty()) {
        continue;
      }
      if (ba.isEmpty() || bb.isEmpty()) {
        (ba.isEmpty() ? onlyB : onlyA).add((ba.isEmpty() ? p[1] : p[0]).id() + " step " + key);
        continue;
      }
      steps.add(Judge.judge(labelA, labelB, label, key, ba, bb));
      steps.addAll(Judge.judgeReplayKinds(labelA, labelB, label, key, ba, bb));
    }
    for (String key : mb.stepKeys()) {
      if (!ma.stepKeys().contains(key) && !mb.benches(p[1].id(), key).isEmpty()) {
        onlyB.add(p[1].id() + " step " + key);
      }
    }
    Set<String> capacityKeys = new LinkedHashSet<>(sa.capacities().keySet());
    capacityKeys.addAll(sb.capacities().keySet());
    for (String key : capacityKeys) {
      CapacityStudy.Entry ca = sa.capacity(key, p[0], repeatA);
      CapacityStudy.Entry cb = sb.capacity(key, p[1], repeatB);
      if (ca != null && cb != null) {
        steps.add(Judge.judgeCapacity(labelA, labelB, label, key, ca, cb));
      } else if (ca != null || cb != null) {
        (ca == null ? onlyB : onlyA).add((ca == null ? p[1] : p[0]).id() + " step " + key);
      }
    }
  }

  /**
   * {@code compare DIR --by PARAM}: the combinations of one run that differ only in PARAM, each
   * value after the first judged against the first (e.g. Solr versions side by side: the same
   * corpus, queries, topology and repeats).
   */
  public static Comparison byParam(RunSelection run, String param) {
    if (run.combination() != null) {
      throw SolrscaleException.usage(
          "compare --by takes a run directory, not a combination: " + run.dir());
    }
    return byParam(new RunModel(RunDir.open(run.dir())), run.dir().toString(), param);
  }

  /** The same on a run already read; {@code dir} names it in labels. */
  static Comparison byParam(RunModel m, String dir, String param) {
    String swept = resolveParam(m, param, dir);
    List<String> values = values(m, swept);
    List<Comparison.StepDelta> steps = new ArrayList<>();
    List<String> onlyA = new ArrayList<>();
    List<String> onlyB = new ArrayList<>();
    Side side = new Side(m);
    String base = values.get(0);
    Set<CombinationRun> pooled = new LinkedHashSet<>();
    for (RunModel.Combination x : m.combinations()) {
      if (!base.equals(String.valueOf(x.params().get(swept)))) {
        continue;
      }
      for (String v : values.subList(1, values.size())) {
        RunModel.Combination y = partner(m, x, swept, v);
        if (y == null) {
          onlyA.add(
              x.id() + " (" + m.label(x) + "): no combination with " + shortParam(swept) + "=" + v);
          continue;
        }
        pooled.addAll(repeats(x, null));
        pooled.addAll(repeats(y, null));
        judgePair(
            side,
            side,
            new RunModel.Combination[] {x, y},
            null,
            null,
            dir + "#" + x.id(),
            dir + "#" + y.id(),
            m.labelWithout(x, swept).equals(shortParam(swept))
                ? shortParam(swept) + "=" + base + " vs " + v
                : m.labelWithout(x, swept) + ": " + shortParam(swept) + "=" + base + " vs " + v,
            steps,
            onlyA,
            onlyB);
      }
    }
    if (steps.isEmpty()) {
      throw SolrscaleException.usage(
          dir
              + " has no finished index, bench or capacity step to compare between values of "
              + swept
              + (m.leftOut().isEmpty()
                  ? ""
                  : "; left out as no measurement: " + String.join("; ", m.leftOut())));
    }
    return new Comparison(
        dir + " " + shortParam(swept) + "=" + base,
        dir + " " + shortParam(swept) + "=" + String.join(",", values.subList(1, values.size())),
        Judge.ALPHA,
        Judge.THRESHOLD * 100,
        steps,
        onlyA,
        onlyB,
        m.leftOut(),
        warnings(pooled));
  }

  /** What to warn of the repeats a comparison pooled: {@link RanOn#mixed}, when they ran apart. */
  private static List<String> warnings(Collection<CombinationRun> pooled) {
    String mixed = RanOn.mixed(pooled);
    return mixed == null ? List.of() : List.of(mixed);
  }

  /** The finished repeats of {@code c} (only {@code repeat}, when given). */
  private static List<CombinationRun> repeats(RunModel.Combination c, Integer repeat) {
    return c.repeats().stream()
        .filter(r -> r.done() && (repeat == null || r.repeat() == repeat))
        .toList();
  }

  /**
   * The swept parameter {@code param} names: itself, or the one swept parameter it is the short
   * name of ("solr_version" for "cluster.solr_version"); a usage error naming the swept ones
   * otherwise.
   */
  static String resolveParam(RunModel m, String param, String where) {
    if (m.swept().contains(param)) {
      return param;
    }
    List<String> bySuffix =
        m.swept().stream().filter(s -> RunModel.shortName(s).equals(param)).toList();
    if (bySuffix.size() == 1) {
      return bySuffix.get(0);
    }
    throw SolrscaleException.usage(
        where
            + " does not sweep "
            + param
            + (m.swept().isEmpty()
                ? " (it has no matrix)"
                : "; it sweeps " + String.join(", ", m.swept())));
  }

  /** The values a swept parameter takes, in the order its combinations ran. */
  static List<String> values(RunModel m, String param) {
    return m.combinations().stream()
        .map(c -> String.valueOf(c.params().get(param)))
        .distinct()
        .toList();
  }

  /** The combination with {@code param = value} and every other parameter as in {@code x}. */
  static RunModel.Combination partner(
      RunModel m, RunModel.Combination x, String param, String value) {
    Map<String, String> want = RunModel.paramKey(x);
    want.put(param, value);
    return m.combinations().stream()
        .filter(y -> RunModel.paramKey(y).equals(want))
        .findFirst()
        .orElse(null);
  }

  private static String shortParam(String param) {
    return RunModel.shortName(param);
  }

  private static List<RunModel.IndexLoad> loads(List<RunModel.IndexLoad> l, Integer repeat) {
    return repeat == null ? l : l.stream().filter(x -> x.repeat() == repeat).toList();
  }

  /** What the model left out of the chosen combinations, said of side A or B. */
  private static List<String> leftOut(RunModel m, List<RunModel.Combination> chosen, String side) {
    return m.leftOut().stream()
        .filter(w -> chosen.stream().anyMatch(c -> w.startsWith(c.id() + " ")))
        .map(w -> side + " " + w)
        .toList();
  }

  private static List<RunModel.Combination> pick(RunSelection s, RunModel m) {
    if (s.combination() == null) {
      return m.combinations();
    }
    RunModel.Combination c = m.combination(s.combination());
    if (c == null) {
      throw SolrscaleException.usage(
          s.dir()
              + " has no combination "
              + s.combination()
              + "; it has "
              + String.join(
                  ", ", m.combinations().stream().map(RunModel.Combination::id).toList()));
    }
    if (s.repeat() != null && c.repeats().stream().noneMatch(r -> r.repeat() == s.repeat())) {
      throw SolrscaleException.usage(
          s.label() + ": combination " + c.id() + " has no repeat " + s.repeat());
    }
    return List.of(c);
  }

  private static List<RunModel.Bench> repeat(List<RunModel.Bench> benches, Integer repeat) {
    return repeat == null ? benches : benches.stream().filter(b -> b.repeat() == repeat).toList();
  }
}
