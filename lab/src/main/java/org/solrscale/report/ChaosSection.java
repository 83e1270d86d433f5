package org.solrscale.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.LostBatches;
import org.solrscale.results.LostWrite;
import org.solrscale.results.StepResult;
import org.solrscale.results.TimelineRow;
import org.solrscale.spec.StepSpec;

/**
 * The report's section "Faults and verdicts": per chaos step: the verdict, a row per fault with the
 * behaviours checked, the writes that lost documents, and the timeline.
 */
final class ChaosSection extends Section {
  @Override
  String id() {
    return "chaos";
  }

  @Override
  String title() {
    return "Faults and verdicts";
  }

  @Override
  String nav() {
    return "faults";
  }

  @Override
  boolean shown() {
    return model.combinations().stream()
        .flatMap(c -> c.repeats().stream())
        .flatMap(r -> r.steps().stream())
        .anyMatch(s -> s.is(StepSpec.Chaos.class));
  }

  /** Per chaos step: the verdict, a row per fault, the behaviours checked, and the timeline. */
  @Override
  void write() {
    Html.Table runs =
        new Html.Table(
            "chaos",
            "combination",
            "repeat",
            "step",
            "verdict",
            "acknowledged",
            "found",
            "lost",
            "divergent shards",
            "recovery s",
            "availability",
            "during faults");
    Html.Table faults =
        new Html.Table(
            "faults",
            "combination",
            "repeat",
            "step",
            "fault",
            "nodes",
            "start s",
            "healed s",
            "recovery s",
            "availability",
            "writes ok/failed/unknown",
            "queries ok/failed",
            "behaviours",
            "note");
    Html.Table lostWrites =
        new Html.Table(
            "lost-writes",
            "combination",
            "repeat",
            "step",
            "due s",
            "answered after s",
            "answered by",
            "rf",
            "batch",
            "lost ids");
    List<Runnable> charts = new ArrayList<>();
    Map<String, Tally> tallies = new LinkedHashMap<>();
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          if (!s.is(StepSpec.Chaos.class)) {
            continue;
          }
          ChaosVerdict v = model.run().verdict(s);
          if (v == null) {
            continue;
          }
          tallies
              .computeIfAbsent(
                  c.id() + "\u0000" + s.label(), k -> new Tally(model.label(c), s.label()))
              .add(v);
          runs.row(
              c.id(),
              r.repeat(),
              s.label(),
              v.ok()
                  ? "pass"
                  : ChaosVerdict.NOT_TESTED.equals(v.verdict())
                      ? "not tested: "
                          + String.join("; ", v.notTested() == null ? List.of() : v.notTested())
                      : ChaosVerdict.NOT_CHECKED.equals(v.verdict())
                          ? "not checked: "
                              + String.join(
                                  "; ", v.notChecked() == null ? List.of() : v.notChecked())
                          : "FAIL",
              v.loss().acknowledged(),
              v.loss().found() == null ? "not checked" : v.loss().found(),
              v.loss().lost() == null
                  ? "not checked"
                  : v.loss().lost()
                      + (v.loss().lostIds() == null || v.loss().lostIds().isEmpty()
                          ? ""
                          : " ("
                              + String.join(
                                  ", ",
                                  v.loss()
                                      .lostIds()
                                      .subList(0, Math.min(5, v.loss().lostIds().size())))
                              + ")")
                      + unsettled(v),
              v.divergentShards()
                  + (v.shards() != null && v.shards().stream().anyMatch(x -> x.agree() == null)
                      ? " (some not checked)"
                      : ""),
              v.recoverySeconds() == null
                  ? (v.recovered() ? "" : "not recovered")
                  : Html.num(v.recoverySeconds()),
              pct(v.availability()),
              v.availabilityDuringFaults() == null ? "" : pct(v.availabilityDuringFaults()));
          for (LostWrite w :
              v.loss().lostWrites() == null ? List.<LostWrite>of() : v.loss().lostWrites()) {
            lostWrites.row(
                c.id(),
                r.repeat(),
                s.label(),
                Html.num(w.timeMs() / 1000.0),
                w.latencyMs() == null ? "" : Html.num(w.latencyMs() / 1000.0),
                w.node() == null ? "" : w.node(),
                w.rf() == null ? "" : w.rf(),
                w.batch(),
                String.join(", ", w.lostIds()));
          }
          for (ChaosVerdict.FaultVerdict fv : v.faults()) {
            FaultRecord f = fv.fault();
            String behaviours =
                fv.behaviours() == null
                    ? ""
                    : fv.behaviours().stream()
                        .map(
                            b ->
                                (b.pass() == null
                                        ? "not reached: "
                                        : b.pass() ? "held: " : "FAILED: ")
                                    + b.expected()
                                    + " ("
                                    + b.observed()
                                    + ")")
                        .collect(Collectors.joining("; "));
            faults.row(
                c.id(),
                r.repeat(),
                s.label(),
                f.fault() + (f.target() == null ? "" : " " + f.target()),
                f.nodes() == null ? "" : String.join(",", f.nodes()),
                f.startS() == null ? "" : Html.num(f.startS()),
                f.healS() == null ? "" : Html.num(f.healS()),
                f.recoverySeconds() == null ? "" : Html.num(f.recoverySeconds()),
                fv.availability() == null ? "" : pct(fv.availability()),
                fv.writes() == null
                    ? ""
                    : fv.writes().ok() + "/" + fv.writes().failed() + "/" + fv.writes().unknown(),
                fv.queries() == null ? "" : fv.queries().ok() + "/" + fv.queries().failed(),
                behaviours,
                String.join(
                    "; ",
                    java.util.stream.Stream.of(
                            f.note(), f.link() == null ? null : f.link().describe())
                        .filter(x -> x != null)
                        .toList()));
          }
          if (r.repeat() == 1) {
            charts.add(() -> chaosTimeline(c, s));
          }
        }
      }
    }
    html.append(runs.render());
    if (tallies.values().stream().anyMatch(t -> t.lost > 0) || tallies.size() > 1) {
      note(
          "Acknowledged writes lost, by setting, all repeats together: how many ids Solr"
              + " acknowledged and lost, in how many repeats, the rf the lost ids were acknowledged"
              + " with (2147483647 is what Solr reports when it could not count), how many"
              + " acknowledged ids were on some replicas of their shard but not all (a query may"
              + " or may not return them), and whether whole"
              + " batches or parts of them went. Lost ids in acknowledged batches are the pattern"
              + " of SOLR-5939 ("
              + LostBatches.FINDINGS
              + ").");
      Html.Table bySetting =
          new Html.Table(
              "lost-by-setting",
              "combination",
              "step",
              "repeats",
              "acknowledged",
              "lost",
              "repeats with loss",
              "on some replicas only",
              "lost ids by rf",
              "acknowledged ids by rf",
              "lost writes (whole / in part)");
      for (Tally t : tallies.values()) {
        bySetting.row(
            t.combination,
            t.step,
            t.repeats,
            t.acknowledged,
            t.checked ? t.lost : "not checked",
            t.repeatsWithLoss + " of " + t.repeats,
            t.partly == null ? "not read" : t.partly,
            rfs(t.lostByRf),
            rfs(t.ackedByRf),
            t.lostWrites == 0 ? "" : t.lostWrites + " (" + t.whole + " / " + t.partial + ")");
      }
      html.append(bySetting.render());
    }
    note(
        "Lost = acknowledged writes the healed collection does not hold. A shard diverges when its "
            + "replicas, each read alone (distrib=false), differ in documents. Recovery runs from healing "
            + "until every replica is active again.");
    if (!lostWrites.isEmpty()) {
      note(
          "Acknowledged writes that lost documents: when each was due, how long Solr took to answer, "
              + "which node answered, and the replication factor it reported.");
      html.append(lostWrites.render());
    }
    if (!faults.isEmpty()) {
      html.append(faults.render());
    }
    charts.forEach(Runnable::run);
  }

  /** "; 571 more not found on shard2, which had no leader: lost or uncommitted", or "". */
  private static String unsettled(ChaosVerdict v) {
    var u = v.loss().unsettled();
    return u == null || u.notFound() == 0
        ? ""
        : "; "
            + u.notFound()
            + " more not found on "
            + String.join(", ", u.shards())
            + ", which had no leader: lost or uncommitted";
  }

  private static String rfs(Map<String, Long> byRf) {
    return byRf.entrySet().stream()
        .map(e -> "rf=" + e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  /** One setting's chaos steps over its repeats. */
  private static final class Tally {
    final String combination;
    final String step;
    int repeats;
    int repeatsWithLoss;
    long acknowledged;
    long lost;
    boolean checked = true;
    long lostWrites;
    long whole;
    long partial;
    Long partly = 0L;
    final Map<String, Long> lostByRf = new TreeMap<>();
    final Map<String, Long> ackedByRf = new TreeMap<>();

    Tally(String combination, String step) {
      this.combination = combination;
      this.step = step;
    }

    void add(ChaosVerdict v) {
      repeats++;
      acknowledged += v.loss().acknowledged();
      partly =
          partly == null || v.loss().partlyReplicated() == null
              ? null
              : partly + v.loss().partlyReplicated();
      if (v.loss().lost() == null) {
        checked = false;
      } else {
        lost += v.loss().lost();
        repeatsWithLoss += v.loss().lost() > 0 ? 1 : 0;
      }
      if (v.loss().lostByRf() != null) {
        v.loss().lostByRf().forEach((k, n) -> lostByRf.merge(k, n, Long::sum));
      }
      if (v.loss().acknowledgedByRf() != null) {
        v.loss().acknowledgedByRf().forEach((k, n) -> ackedByRf.merge(k, n, Long::sum));
      }
      if (v.loss().lostBatches() != null) {
        lostWrites += v.loss().lostBatches().writes();
        whole += v.loss().lostBatches().whole();
        partial += v.loss().lostBatches().partial();
      }
    }
  }

  private static String pct(double share) {
    return String.format(Locale.ROOT, "%.1f %%", share * 100);
  }

  private void chaosTimeline(RunModel.Combination c, StepResult s) {
    List<TimelineRow> rows = model.run().timeline(s);
    if (rows.isEmpty()) {
      return;
    }
    String title = "Faults over time: " + model.label(c) + ", " + s.label();
    figure(
        title,
        "Query latency per second (left axis) and writes plus queries per second (right axis); "
            + "faults are shaded red, from injection until recovered.",
        Charts.timeline(
            title,
            rows.stream().mapToDouble(TimelineRow::second).toArray(),
            rows.stream().mapToDouble(TimelineRow::latencyP50Ms).toArray(),
            rows.stream().mapToDouble(TimelineRow::latencyP99Ms).toArray(),
            rows.stream().mapToDouble(TimelineRow::qps).toArray(),
            null,
            faultShades(model.run().stepDir(s))));
  }
}
