package org.solrscale.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeOps;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.spec.FaultKind;

/**
 * zk-quorum: the smallest ZooKeeper majority killed, started again together when healed. Solr
 * refuses updates with HTTP 503 and answers queries with zkConnected:false, but only once its
 * session is "likely expired" (90 % of the session timeout without ZooKeeper), so that is judged
 * from then on.
 */
final class ZkQuorumFault extends NodeFault {
  ZkQuorumFault() {
    super(FaultKind.ZK_QUORUM);
  }

  @Override
  List<String> targets(String target, Topology t, Set<String> down, Random rnd, boolean unsafe) {
    return Targets.quorum(t, down, rnd);
  }

  @Override
  void inject(Cluster cluster, List<String> nodes, Duration timeout) {
    nodes.forEach(id -> cluster.nodes().node(NodeOps.NodeOp.KILL, id, timeout));
  }

  @Override
  public List<ChaosVerdict.Behaviour> expected(
      HistoryStats stats, FaultRecord f, Topology before, double from, double to) {
    List<ChaosVerdict.Behaviour> out = new ArrayList<>();
    double expired = f.startS() + HistoryStats.LIKELY_EXPIRED * stats.sessionTimeoutS();
    double from2 = expired + HistoryStats.GRACE_S;
    String when =
        String.format(
            Locale.ROOT,
            " (from %.0f s without quorum: 90 %% of the "
                + "%.0f s ZooKeeper session timeout, plus %.0f s)",
            from2 - f.startS(),
            stats.sessionTimeoutS(),
            HistoryStats.GRACE_S);
    Predicate<HistoryEvent> expiredWindow =
        e -> HistoryStats.in(e, from2, to) && e.timeMs() / 1000.0 < to;
    ChaosVerdict.Counts early =
        stats.writes(e -> HistoryStats.in(e, f.startS(), expired) && e.timeMs() / 1000.0 < to);
    String first503 =
        stats.events().stream()
            .filter(
                e ->
                    e.isAdd()
                        && !e.ok()
                        && Integer.valueOf(503).equals(e.status())
                        && HistoryStats.in(e, f.startS(), f.until()))
            .findFirst()
            .map(
                e ->
                    String.format(
                        Locale.ROOT,
                        "; first 503 %.1f s after the quorum was lost",
                        e.timeMs() / 1000.0 - f.startS()))
            .orElse("; no 503");
    if (to <= from2) {
      out.add(
          new ChaosVerdict.Behaviour(
              "updates are refused with HTTP 503" + when,
              String.format(
                  Locale.ROOT,
                  "not reached: the quorum was lost for %.0f s; %d of %d "
                      + "updates acknowledged meanwhile",
                  to - f.startS(),
                  early.ok(),
                  early.sent()),
              null));
      return out;
    }
    ChaosVerdict.Counts w = stats.writes(expiredWindow);
    long refused503 =
        stats.events().stream()
            .filter(
                e ->
                    e.isAdd()
                        && expiredWindow.test(e)
                        && !e.ok()
                        && Integer.valueOf(503).equals(e.status()))
            .count();
    out.add(
        new ChaosVerdict.Behaviour(
            "updates are refused with HTTP 503" + when,
            w.sent()
                + " updates: "
                + refused503
                + " got 503, "
                + w.ok()
                + " acknowledged"
                + first503,
            w.ok() == 0 && refused503 > 0));
    ChaosVerdict.Counts q = stats.queries(expiredWindow);
    out.add(
        new ChaosVerdict.Behaviour(
            "queries are answered, with zkConnected:false" + when,
            q.sent()
                + " queries: "
                + q.ok()
                + " answered, "
                + q.zkDisconnected()
                + " with zkConnected:false",
            q.ok() > 0 && q.zkDisconnected() > 0));
    return out;
  }
}
