package org.solrscale.report;

import org.solrscale.results.CombinationRun;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.LinkFault;
import org.solrscale.results.LinkProbe;
import org.solrscale.results.StepResult;

/**
 * The report's section "Network": every slow link a fault made (latency, loss), as asked and as the
 * independent probe measured it across the link while it held, step by step.
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
  }
}
