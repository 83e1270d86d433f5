package org.solrscale.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.solrscale.cluster.ClusterReport;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.NodeReport;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.cluster.ShardStatus;

/** Renders a cluster report as the status tables. */
final class StatusPrinter {
  private StatusPrinter() {}

  static String render(ClusterReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append(r.external() ? "SolrCloud at " : "cluster ")
        .append(r.name())
        .append("  Solr ")
        .append(r.solrVersion() == null ? "?" : r.solrVersion())
        .append(r.zkHost() == null ? "" : "  zkHost " + r.zkHost())
        .append("  ")
        .append(r.healthy() ? "healthy" : "NOT HEALTHY")
        .append("\n\n");
    if (r.external()) { // Solr's live nodes: no process of ours to show
      Table nodes = new Table("NODE", "URL", "CLUSTER");
      r.nodes().forEach(n -> nodes.row(n.id(), n.url(), n.mode()));
      sb.append(nodes.render());
    } else {
      // a HOST column when nodes run on hosts over SSH
      boolean hosts = r.nodes().stream().anyMatch(n -> n.ssh() != null);
      List<String> header =
          new ArrayList<>(
              List.of("NODE", "ROLE", "ADDRESS", "PID", "PROCESS", "CLUSTER", "LABELS"));
      if (hosts) {
        header.add(2, "HOST");
      }
      Table nodes = new Table(header.toArray(String[]::new));
      for (NodeReport n : r.nodes()) {
        List<Object> row =
            new ArrayList<>(
                List.of(
                    n.id(),
                    n.role().label(),
                    n.url() != null ? n.url() : n.host() + ":" + n.port(),
                    n.pid() > 0 ? n.pid() : "-",
                    n.state(),
                    n.mode(),
                    labels(n.labels())));
        if (hosts) {
          row.add(2, n.ssh() == null ? "local" : n.ssh());
        }
        nodes.row(row.toArray());
      }
      sb.append(nodes.render());
    }
    if (r.error() != null) {
      sb.append("\ncollections: unknown (").append(r.error()).append(")\n");
      return sb.toString();
    }
    if (r.collections().isEmpty()) {
      sb.append("\nno collections\n");
      return sb.toString();
    }
    Table cols =
        new Table("COLLECTION", "SHARD", "DOCS", "REPLICA", "NODE", "TYPE", "STATE", "LEADER");
    for (CollectionStatus c : r.collections()) {
      for (ShardStatus s : c.shards()) {
        boolean first = true;
        for (ReplicaStatus rep : s.replicas()) {
          String state = r.liveNodes().contains(rep.node()) ? rep.state() : "down (node)";
          cols.row(
              first ? c.name() : "",
              first ? s.name() : "",
              first ? (s.docs() < 0 ? "?" : Long.toString(s.docs())) : "",
              rep.name(),
              rep.nodeId(),
              rep.type(),
              state,
              rep.leader() ? "*" : "");
          first = false;
        }
      }
    }
    sb.append('\n').append(cols.render());
    return sb.toString();
  }

  private static String labels(Map<String, String> labels) {
    return labels.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(","));
  }
}
