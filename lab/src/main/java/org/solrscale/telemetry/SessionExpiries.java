package org.solrscale.telemetry;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.Parallel;

/**
 * ZooKeeper sessions that expired while a step ran, counted from the logs of both sides, since
 * ZooKeeper's {@code mntr} has no count of them. The server that expires a session (the leader of
 * the moment) writes "Expiring session 0x..., timeout of N ms exceeded"; a Solr 9 node told on
 * reconnecting that its session is gone writes "Our previous ZooKeeper session was expired" (and
 * drops out of live_nodes until its new session has registered again). Both logs are written in UTC
 * (solrscale starts Solr and ZooKeeper with {@code user.timezone=UTC}).
 */
public final class SessionExpiries {
  /** What a ZooKeeper server writes when it expires a session. */
  public static final String ZK_LINE = "Expiring session 0x";

  /** What a Solr 9 node writes when it learns its session expired. */
  public static final String SOLR_LINE = "Our previous ZooKeeper session was expired";

  /** The telemetry figure of a ZooKeeper server: sessions it expired during the step. */
  public static final String ZK_FIGURE = "zk_sessions_expired";

  /** The telemetry figure of a Solr node: how often its ZooKeeper session expired. */
  public static final String SOLR_FIGURE = "zk_session_expired";

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private SessionExpiries() {}

  /**
   * Adds each node's count between {@code from} and {@code to} to its figures in {@code telemetry}
   * (a node without figures gets some); a node whose log cannot be read is left without the count.
   */
  public static void add(
      Map<String, Map<String, Double>> telemetry, Cluster cluster, Instant from, Instant to) {
    ClusterState state = cluster.requireState(); // read once, not once per node
    during(cluster, state, from, to)
        .forEach(
            (id, n) ->
                telemetry
                    .computeIfAbsent(id, k -> new LinkedHashMap<>())
                    .put(state.node(id).isZk() ? ZK_FIGURE : SOLR_FIGURE, n.doubleValue()));
  }

  /** Node id to the expiries its log records between the two instants (readable logs only). */
  private static Map<String, Integer> during(
      Cluster cluster, ClusterState state, Instant from, Instant to) {
    List<NodeState> nodes = state.nodes();
    List<Integer> counts =
        Parallel.map(
            nodes,
            n -> {
              try {
                List<String> lines =
                    cluster.hosts().logLines(n, List.of(n.isZk() ? ZK_LINE : SOLR_LINE));
                return count(lines, n.isZk() ? ZK_LINE : SOLR_LINE, from, to);
              } catch (RuntimeException e) {
                return -1; // its host did not answer: no count rather than a wrong one
              }
            });
    Map<String, Integer> out = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (counts.get(i) >= 0) {
        out.put(nodes.get(i).id(), counts.get(i));
      }
    }
    return out;
  }

  /**
   * The lines that hold {@code text} and begin with a UTC time stamp ("2026-11-29 18:39:11.250")
   * within [from, to]; a line without a stamp (a stack trace's) does not count.
   */
  static int count(List<String> lines, String text, Instant from, Instant to) {
    int n = 0;
    for (String l : lines) {
      if (l.length() < 23 || !l.contains(text)) {
        continue;
      }
      try {
        Instant at = LocalDateTime.parse(l.substring(0, 23), STAMP).toInstant(ZoneOffset.UTC);
        if (!at.isBefore(from) && !at.isAfter(to)) {
          n++;
        }
      } catch (DateTimeParseException e) {
        // not a log line of its own
      }
    }
    return n;
  }
}
