package org.solrscale.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.solrscale.spec.SolrscaleException;

/**
 * What `status` says of a solrscale cluster: each node's process (and ZooKeeper mode), and what its
 * running Solr nodes report (live nodes, collections, optionally documents per shard).
 */
final class ClusterStatus {
  private ClusterStatus() {}

  /** What a node's host said of its process, and a running ZooKeeper's mode. */
  private record Asked(ProcessState state, String mode, String problem) {}

  /**
   * The report of cluster {@code name} in {@code state}, its processes asked of {@code hosts};
   * {@code access} is asked only when a Solr node runs.
   */
  static ClusterReport of(
      String name, ClusterState state, HostOps hosts, Supplier<Access> access, boolean withDocs) {
    List<NodeReport> reports = new ArrayList<>();
    List<NodeState> liveSolr = new ArrayList<>();
    // every node's host asked at once: on 32 hosts one after another would take 32 round trips
    List<Asked> asked =
        Parallel.map(
            state.nodes(),
            n -> {
              ProcessState ps;
              try {
                ps = hosts.state(n);
              } catch (SolrscaleException e) {
                // one host that cannot be asked leaves the others' answers standing
                return new Asked(ProcessState.UNKNOWN, "", e.getMessage());
              }
              String mode = "";
              if (ps == ProcessState.RUNNING && n.isZk()) {
                mode = FourLetterWords.mode(n.host(), n.port()).orElse("not serving");
              }
              return new Asked(ps, mode, null);
            });
    List<String> unreachable =
        asked.stream().map(Asked::problem).filter(p -> p != null).distinct().toList();
    for (int i = 0; i < state.nodes().size(); i++) {
      NodeState n = state.nodes().get(i);
      ProcessState ps = asked.get(i).state();
      String mode = asked.get(i).mode();
      if (ps == ProcessState.RUNNING && n.isSolr()) {
        liveSolr.add(n);
      }
      reports.add(
          new NodeReport(
              n.id(),
              n.role(),
              n.host(),
              n.port(),
              n.pid(),
              ps.alive(),
              ps.label(),
              mode,
              n.labels(),
              n.isSolr() ? n.baseUrl() : null,
              n.ssh()));
    }
    if (liveSolr.isEmpty()) {
      return report(
          name,
          state,
          reports,
          List.of(),
          List.of(),
          state.solrNodes().isEmpty() ? null : "no Solr node is running",
          unreachable);
    }
    try (SolrAdmin admin = new SolrAdmin(liveSolr, state.solrNodes(), access.get())) {
      LiveStatus live = admin.clusterStatus();
      List<CollectionStatus> collections =
          withDocs ? admin.withDocs(live.collections()) : SolrAdmin.sorted(live.collections());
      List<NodeReport> withLive = new ArrayList<>();
      for (NodeReport r : reports) {
        boolean isLive =
            r.role() == NodeRole.SOLR
                && live.liveNodes().contains(r.host() + ":" + r.port() + "_solr");
        withLive.add(r.role() == NodeRole.SOLR ? r.withMode(isLive ? "live" : "not live") : r);
      }
      return report(name, state, withLive, live.liveNodes(), collections, null, unreachable);
    } catch (SolrscaleException e) {
      return report(name, state, reports, List.of(), List.of(), e.getMessage(), unreachable);
    }
  }

  private static ClusterReport report(
      String name,
      ClusterState state,
      List<NodeReport> nodes,
      List<String> liveNodes,
      List<CollectionStatus> collections,
      String error,
      List<String> unreachable) {
    return new ClusterReport(
        name,
        state.spec().solrVersion(),
        state.zkHost(),
        nodes,
        liveNodes,
        collections,
        error,
        false,
        unreachable);
  }
}
