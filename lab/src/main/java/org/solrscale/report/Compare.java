package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    for (RunModel.Combination[] p : pairs) {
      String labelA = a.dir() + "#" + p[0].id() + (a.repeat() == null ? "" : "/r" + a.repeat());
      String labelB = b.dir() + "#" + p[1].id() + (b.repeat() == null ? "" : "/r" + b.repeat());
      for (String key : ma.stepKeys()) {
        List<RunModel.Bench> ba = repeat(ma.benches(p[0].id(), key), a.repeat());
        List<RunModel.Bench> bb = repeat(mb.benches(p[1].id(), key), b.repeat());
        if (ba.isEmpty() && bb.isEmpty()) {
          continue;
        }
        if (ba.isEmpty() || bb.isEmpty()) {
          (ba.isEmpty() ? onlyB : onlyA).add((ba.isEmpty() ? p[1] : p[0]).id() + " step " + key);
          continue;
        }
        String label =
            ma.label(p[0]).equals(mb.label(p[1]))
                ? ma.label(p[0])
                : ma.label(p[0]) + " vs " + mb.label(p[1]);
        steps.add(Judge.judge(labelA, labelB, label, key, ba, bb));
      }
      for (String key : mb.stepKeys()) {
        if (!ma.stepKeys().contains(key) && !mb.benches(p[1].id(), key).isEmpty()) {
          onlyB.add(p[1].id() + " step " + key);
        }
      }
    }
    List<String> leftOut = new ArrayList<>();
    leftOut.addAll(leftOut(ma, ca, "A"));
    leftOut.addAll(leftOut(mb, cb, "B"));
    if (steps.isEmpty()) {
      throw SolrscaleException.usage(
          a.label()
              + " and "
              + b.label()
              + " have no finished bench step of the same name to compare"
              + (leftOut.isEmpty()
                  ? ""
                  : "; left out as no measurement: " + String.join("; ", leftOut)));
    }
    return new Comparison(
        a.label(), b.label(), Judge.ALPHA, Judge.THRESHOLD * 100, steps, onlyA, onlyB, leftOut);
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
