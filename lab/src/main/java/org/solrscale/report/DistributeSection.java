package org.solrscale.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.Distribution;
import org.solrscale.results.StepResult;

/**
 * The report's section "Index distribution": per distribute step, every new replica (bytes sent,
 * had, what Solr downloaded itself, seconds to data and to active) and each target's progress over
 * time; across steps, the time until every new replica is active against the number of new
 * replicas, one line per method.
 */
final class DistributeSection extends Section {
  @Override
  String id() {
    return "distribute";
  }

  @Override
  String title() {
    return "Index distribution";
  }

  @Override
  String nav() {
    return "distribute";
  }

  @Override
  boolean shown() {
    return !steps().isEmpty();
  }

  /** A distribute step of one repeat of one combination, with its summary. */
  private record Step(String combination, int repeat, StepResult step, Distribution summary) {}

  private List<Step> steps() {
    List<Step> out = new ArrayList<>();
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          Distribution sum = model.run().distribution(s);
          if (sum != null && sum.shards() != null) {
            out.add(new Step(c.id(), r.repeat(), s, sum));
          }
        }
      }
    }
    return out;
  }

  @Override
  void write() {
    List<Step> steps = steps();
    byMethod(steps);
    for (Step s : steps) {
      if (s.repeat() == 1) {
        progress(s);
      }
    }
    Html.Table t =
        new Html.Table(
            "distribute",
            "combination",
            "repeat",
            "step",
            "method",
            "shard",
            "node",
            "state",
            "MB sent",
            "MB had",
            "MB Solr fetched",
            "s to data",
            "s to active",
            "docs",
            "error");
    for (Step s : steps) {
      for (Distribution.ShardRun shard : s.summary().shards()) {
        for (Distribution.Target r : targets(shard)) {
          t.row(
              s.combination(),
              s.repeat(),
              s.step().label(),
              s.summary().method(),
              shard.shard(),
              r.node(),
              r.state(),
              mb(r.bytesReceived()),
              mb(r.bytesHad()),
              mb(r.solrBytesDownloaded()),
              num(r.secondsToData()),
              num(r.secondsToActive()),
              r.docs() != null ? r.docs().toString() : "",
              r.error() == null ? "" : r.error());
        }
      }
    }
    html.append(t.render());
  }

  /** Seconds until every new replica was active, against N, a line per method. */
  private void byMethod(List<Step> steps) {
    Map<String, TreeMap<Integer, List<Double>>> points = new LinkedHashMap<>();
    for (Step s : steps) {
      points
          .computeIfAbsent(s.summary().method(), k -> new TreeMap<>())
          .computeIfAbsent(s.summary().replicas(), k -> new ArrayList<>())
          .add(s.summary().seconds());
    }
    if (points.values().stream().mapToInt(Map::size).sum() < 2) {
      return;
    }
    List<Charts.Curve> curves = new ArrayList<>();
    points.forEach(
        (method, byN) ->
            curves.add(
                new Charts.Curve(
                    method,
                    byN.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                    byN.values().stream()
                        .mapToDouble(
                            v -> v.stream().mapToDouble(Double::doubleValue).average().orElse(0))
                        .toArray())));
    String title = "Time until every new replica is active";
    figure(
        title,
        "Each point: from the start of a distribute step until the last of its new replicas was"
            + " active, the mean over the combinations and repeats with that method and number of"
            + " new replicas per shard. Solr's own replication grows with N as every replica copies"
            + " from its leader; a chain or tree sends each byte out of each host about once.",
        Charts.lines(title, "new replicas per shard", "seconds", curves));
  }

  /** Each target's megabytes over time in one step, and when each replica was active. */
  private void progress(Step s) {
    List<Charts.Curve> curves = new ArrayList<>();
    List<String> active = new ArrayList<>();
    for (Distribution.ShardRun shard : s.summary().shards()) {
      for (Distribution.Progress p :
          shard.progress() == null ? List.<Distribution.Progress>of() : shard.progress()) {
        double[] x = new double[p.seconds().size() + 1];
        double[] y = new double[x.length];
        for (int i = 1; i < x.length; i++) {
          x[i] = p.seconds().get(i - 1);
          y[i] = p.bytes().get(i - 1) / 1e6;
        }
        curves.add(new Charts.Curve(shard.shard() + " " + p.node(), x, y));
      }
      for (Distribution.Target r : targets(shard)) {
        active.add(
            shard.shard()
                + " on "
                + r.node()
                + ": "
                + (r.secondsToActive() != null
                    ? "active at " + num(r.secondsToActive()) + " s"
                    : r.state()));
      }
    }
    if (curves.isEmpty()) {
      return;
    }
    String title =
        "Progress of "
            + s.step().label()
            + " ("
            + s.summary().method()
            + ", "
            + s.summary().replicas()
            + " per shard, "
            + s.combination()
            + ")";
    figure(
        title,
        "Megabytes each target had received and verified, sampled once a second from the start"
            + " of the step. "
            + String.join("; ", active)
            + ".",
        Charts.lines(title, "seconds since the step started", "MB received", curves));
  }

  private static List<Distribution.Target> targets(Distribution.ShardRun shard) {
    return shard.targets() == null ? List.of() : shard.targets();
  }

  private static String mb(Long bytes) {
    return bytes != null ? Html.num(bytes / 1e6) : "";
  }

  private static String num(Double n) {
    return n != null ? Html.num(n) : "";
  }
}
