package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.solrscale.diagnose.DoctorChecks;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.LinkFault;
import org.solrscale.results.LinkProbe;
import org.solrscale.results.StepResult;
import org.solrscale.telemetry.SessionExpiries;

/**
 * The report's section "Network": every slow link a fault made (latency, loss), as asked and as the
 * independent probe measured it across the link while it held, step by step; and where a ZooKeeper
 * ensemble served across them, the doctor's prediction beside what the ensemble did.
 */
final class NetworkSection extends Section {
  @Override
  String id() {
    return "network";
  }

  @Override
  String title() {
    return "Network";
  }

  @Override
  String nav() {
    return "network";
  }

  @Override
  boolean shown() {
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          if (faults(model.run().stepDir(s)).stream().anyMatch(f -> f.link() != null)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  @Override
  void write() {
    note(
        "Slow links as asked (a delay is one way; a round trip adds it twice when both ways are"
            + " slowed) and as an independent probe from a peer measured them while they held:"
            + " UDP round trips and TCP connects, with the 95 % interval of the round trips lost.");
    Html.Table t =
        new Html.Table(
            "links",
            "combination",
            "repeat",
            "step",
            "fault",
            "hosts <-> peers",
            "asked",
            "round trip added ms",
            "measured from",
            "round trip p50 ms",
            "p90 ms",
            "stdev ms",
            "connect p50 ms",
            "round trips lost");
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          for (FaultRecord f : faults(model.run().stepDir(s))) {
            LinkFault l = f.link();
            if (l == null) {
              continue;
            }
            LinkProbe p = l.probe();
            double[] ci = p == null ? null : p.roundTripLossInterval();
            t.row(
                c.id(),
                r.repeat(),
                s.label(),
                f.name(),
                String.join(",", l.hosts()) + " <-> " + String.join(",", l.peers()),
                l.asked(),
                Html.num(l.roundTripMsAdded()),
                p == null ? "not measured" : p.from(),
                p == null || p.udpRttMsP50() == null ? "" : Html.num(p.udpRttMsP50()),
                p == null || p.udpRttMsP90() == null ? "" : Html.num(p.udpRttMsP90()),
                p == null || p.udpRttMsStdev() == null ? "" : Html.num(p.udpRttMsStdev()),
                p == null || p.connectMsP50() == null ? "" : Html.num(p.connectMsP50()),
                p == null
                    ? ""
                    : String.format(
                        java.util.Locale.ROOT,
                        "%.2f%% [%.2f-%.2f%%] of %d",
                        p.roundTripLoss() * 100,
                        ci[0] * 100,
                        ci[1] * 100,
                        p.datagramsSent()));
          }
        }
      }
    }
    html.append(t.render());
    zooKeeper();
  }

  /**
   * For each step that slowed links while a ZooKeeper ensemble served: the doctor's rule applied to
   * the ensemble's own limit (syncLimit x tickTime, from each server's conf) and the round trip the
   * probe measured across the slowest link, beside what the ensemble did, from each server's mntr
   * in the telemetry: a prediction set against what happened.
   */
  private void zooKeeper() {
    Html.Table t =
        new Html.Table(
            "zookeeper-links",
            "combination",
            "repeat",
            "step",
            "servers",
            "sync limit ms",
            "round trip ms (slowest link)",
            "doctor's rule",
            "fewest synced followers",
            "became leader",
            "longest not serving s",
            "sessions expired (ZooKeeper's log / Solr's)",
            "what ZooKeeper did");
    int rows = 0;
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          List<Map<String, Double>> zks =
              s.telemetry() == null
                  ? List.of()
                  : s.telemetry().values().stream()
                      .filter(m -> m.containsKey("zk_not_serving_s"))
                      .toList();
          double rtt = 0;
          for (FaultRecord f : faults(model.run().stepDir(s))) {
            LinkProbe p = f.link() == null ? null : f.link().probe();
            Double ms =
                p == null ? null : p.udpRttMsP50() != null ? p.udpRttMsP50() : p.connectMsP50();
            rtt = ms == null ? rtt : Math.max(rtt, ms);
          }
          if (zks.size() < 2 || rtt == 0) {
            continue; // no ensemble, or no slow link measured in this step
          }
          double limit = max(zks, "zk_sync_limit_ms", Double.NaN);
          String rule =
              Double.isNaN(limit)
                  ? "limit unread"
                  : Objects.requireNonNullElse(
                      DoctorChecks.limitLevel(Math.round(limit), rtt), "fine");
          double synced =
              zks.stream()
                  .filter(m -> m.containsKey("zk_synced_followers_min"))
                  .mapToDouble(m -> m.get("zk_synced_followers_min"))
                  .min()
                  .orElse(Double.NaN);
          double became =
              zks.stream().mapToDouble(m -> m.getOrDefault("zk_became_leader", 0.0)).sum();
          double notServing = max(zks, "zk_not_serving_s", 0);
          String expired = expired(s.telemetry());
          int followers = zks.size() - 1;
          String did =
              became > 0 || notServing >= 2
                  ? "lost its leader: elected again"
                  : synced < followers ? "dropped a follower" : "kept its followers in sync";
          t.row(
              c.id(),
              r.repeat(),
              s.label(),
              zks.size(),
              Double.isNaN(limit) ? "" : Html.num(limit),
              Html.num(rtt),
              rule,
              Double.isNaN(synced) ? "" : Html.num(synced),
              Html.num(became),
              Html.num(notServing),
              expired,
              did);
          rows++;
        }
      }
    }
    if (rows > 0) {
      html.append("<h3>ZooKeeper across the slow links</h3>");
      note(
          "The doctor's rule (an error when syncLimit x tickTime is below one round trip between"
              + " the servers, a warning below 2 s or 20 round trips) applied to each ensemble's own"
              + " limit and the slowest link's measured round trip, beside what the ensemble did while"
              + " the step ran, from each server's mntr sampled by the telemetry: the fewest"
              + " followers a leader had in sync, how often a server became leader, and the longest"
              + " a server did not serve (electing, or not answering); and the ZooKeeper sessions"
              + " that expired during the step, as the servers' logs count them (\"Expiring session\")"
              + " and as the Solr nodes' logs do (\"Our previous ZooKeeper session was expired\": the"
              + " node left live_nodes until it registered again).");
      html.append(t.render());
    }
  }

  /** "2 / 2 (solr3, solr4)": the servers' count, the Solr nodes', which nodes; "" unread. */
  static String expired(Map<String, Map<String, Double>> telemetry) {
    double zk = 0;
    double solr = 0;
    boolean read = false;
    List<String> nodes = new ArrayList<>();
    for (Map.Entry<String, Map<String, Double>> e : telemetry.entrySet()) {
      Double z = e.getValue().get(SessionExpiries.ZK_FIGURE);
      Double n = e.getValue().get(SessionExpiries.SOLR_FIGURE);
      read |= z != null || n != null;
      zk += z == null ? 0 : z;
      solr += n == null ? 0 : n;
      if (n != null && n > 0) {
        nodes.add(e.getKey());
      }
    }
    return !read
        ? ""
        : Math.round(zk)
            + " / "
            + Math.round(solr)
            + (nodes.isEmpty() ? "" : " (" + String.join(", ", nodes) + ")");
  }

  private static double max(List<Map<String, Double>> ms, String k, double none) {
    return ms.stream().filter(m -> m.containsKey(k)).mapToDouble(m -> m.get(k)).max().orElse(none);
  }
}
