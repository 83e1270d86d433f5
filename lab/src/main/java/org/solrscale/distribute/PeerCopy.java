package org.solrscale.distribute;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.cluster.ClusterState;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.Parallel;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.spec.SolrscaleException;

/**
 * One shard by chain or tree: pin the leader's commit, start a relay on each target's host, send
 * the commit's files along the route from the leader's host, then hand each complete copy to Solr
 * (ADDREPLICA with its dataDir). The snapshot is released whatever happens.
 */
final class PeerCopy {
  private static final long START_MS = 60_000;

  private final Distributor d;
  private final ClusterState state;
  private final Distributor.Options o;
  private final String shard;
  private final ReplicaStatus leader;
  private final NodeState leaderNode;
  private final List<NodeState> targets;
  private final long t0;
  private final long leaderDocs;

  PeerCopy(
      Distributor d,
      ClusterState state,
      Distributor.Options o,
      String shard,
      ReplicaStatus leader,
      NodeState leaderNode,
      List<NodeState> targets,
      long t0,
      long leaderDocs) {
    this.d = d;
    this.state = state;
    this.o = o;
    this.shard = shard;
    this.leader = leader;
    this.leaderNode = leaderNode;
    this.targets = targets;
    this.t0 = t0;
    this.leaderDocs = leaderDocs;
  }

  Distributor.ShardRun run() {
    String stamp = Long.toString(System.currentTimeMillis());
    String snapshot = "solrscale-" + shard + "-" + stamp;
    String cores =
        leaderNode.baseUrl() + "/admin/cores?wt=json&core=" + Distributor.enc(leader.core());
    JsonNode snap =
        d.get(
            cores + "&action=CREATESNAPSHOT&commitName=" + Distributor.enc(snapshot),
            "pinning the commit of " + leader.core() + " (CREATESNAPSHOT)");
    try {
      return copy(snap, stamp);
    } finally {
      try {
        d.get(
            cores + "&action=DELETESNAPSHOT&commitName=" + Distributor.enc(snapshot),
            "releasing snapshot " + snapshot);
      } catch (SolrscaleException e) {
        d.progress().accept("warning: " + e.getMessage());
      }
    }
  }

  private Distributor.ShardRun copy(JsonNode snap, String stamp) {
    long generation = snap.path("generation").asLong();
    String indexDir = snap.path("indexDirPath").asText();
    JsonNode list =
        d.get(
            leaderNode.baseUrl()
                + "/"
                + Distributor.enc(leader.core())
                + "/replication?command=filelist&wt=json&generation="
                + generation,
            "listing the files of " + leader.core() + " generation " + generation);
    List<IndexFile> files = new ArrayList<>();
    for (JsonNode f : list.path("filelist")) {
      files.add(
          new IndexFile(
              f.path("name").asText(), f.path("size").asLong(), f.path("checksum").asLong()));
    }
    if (files.isEmpty()) {
      throw SolrscaleException.failed(
          leader.core() + " listed no files for generation " + generation + ": " + list);
    }
    long bytes = files.stream().mapToLong(IndexFile::length).sum();
    d.progress()
        .accept(
            String.format(
                "%s: pinned generation %d of %s (%d files, %.1f MB); relays on %s",
                shard,
                generation,
                leader.core(),
                files.size(),
                bytes / 1e6,
                String.join(", ", targets.stream().map(NodeState::id).toList())));

    Map<String, RelayProcess> relays = new LinkedHashMap<>(); // by node id
    Map<String, String> dataDirs = new LinkedHashMap<>();
    Map<String, String> startErrors = new LinkedHashMap<>();
    List<Distributor.Target> out = new ArrayList<>();
    Route route = null;
    try {
      for (NodeState n : targets) {
        dataDirs.put(
            n.id(),
            d.cluster().solrHome(n) + "/distribute/" + o.collection() + "_" + shard + "_" + stamp);
      }
      // every host at once: asking a host what it has and putting the jar there take round trips
      List<Object> started =
          Parallel.map(
              targets,
              n -> {
                List<String> args =
                    List.of(
                        "relay",
                        "receive",
                        "--dir",
                        dataDirs.get(n.id()) + "/index",
                        "--bind",
                        n.host(),
                        "--wait-seconds",
                        Long.toString(o.timeout().toSeconds()));
                try {
                  return new RelayProcess(n.id(), d.cluster().solrscaleCommand(n, args), e -> {});
                } catch (IOException | SolrscaleException e) {
                  return "relay did not start: " + e.getMessage();
                }
              });
      for (int i = 0; i < targets.size(); i++) {
        if (started.get(i) instanceof RelayProcess rp) {
          relays.put(targets.get(i).id(), rp);
        } else {
          startErrors.put(targets.get(i).id(), (String) started.get(i));
        }
      }
      Map<String, String> byAddress = new LinkedHashMap<>();
      for (Map.Entry<String, RelayProcess> e : relays.entrySet()) {
        String address = e.getValue().awaitAddress(START_MS);
        if (address == null) {
          startErrors.put(
              e.getKey(),
              "relay did not start: "
                  + e.getValue().stderr().lines().findFirst().orElse("no output"));
        } else {
          byAddress.put(address, e.getKey());
        }
      }
      List<String> addresses = new ArrayList<>(byAddress.keySet());
      route =
          o.method() == Distributor.Method.CHAIN
              ? Route.chain(addresses)
              : Route.tree(addresses, 2);
      List<String> sendArgs =
          List.of(
              "relay",
              "send",
              "--dir",
              indexDir,
              "--files",
              Distributor.json().writeValueAsString(files),
              "--route",
              Distributor.json().writeValueAsString(route),
              "--chunk",
              Integer.toString(o.chunk()));
      Map<String, Double> dataAt = new LinkedHashMap<>();
      try (RelayProcess source =
          new RelayProcess("source", d.cluster().solrscaleCommand(leaderNode, sendArgs), e -> {})) {
        watch(source, relays, byAddress);
        JsonNode sent = source.awaitResult(o.timeout().toMillis());
        if (sent == null) {
          throw SolrscaleException.failed(
              shard
                  + ": the source on "
                  + leaderNode.id()
                  + " ended without a word: "
                  + source.stderr().lines().findFirst().orElse("no output"));
        }
      }
      Map<String, JsonNode> results = new LinkedHashMap<>();
      for (Map.Entry<String, RelayProcess> e : relays.entrySet()) {
        JsonNode r = e.getValue().awaitResult(o.timeout().toMillis());
        results.put(e.getKey(), r);
        if (r != null && r.path("ok").asBoolean()) {
          dataAt.put(e.getKey(), (r.path("t_ms").asLong() - t0Ms()) / 1000.0);
        }
      }
      List<NodeState> ready = targets.stream().filter(n -> dataAt.containsKey(n.id())).toList();
      out.addAll(
          Parallel.map(
              ready,
              n -> {
                JsonNode r = results.get(n.id());
                return d.addReplica(
                    state,
                    o,
                    shard,
                    n,
                    dataDirs.get(n.id()),
                    t0,
                    dataAt.get(n.id()),
                    r.path("bytes_received").asLong(),
                    r.path("bytes_had").asLong(),
                    r.path("resent_chunks").asInt(),
                    leaderDocs);
              }));
      for (NodeState n : targets) {
        if (dataAt.containsKey(n.id())) {
          continue;
        }
        JsonNode r = results.get(n.id());
        String why =
            startErrors.containsKey(n.id())
                ? startErrors.get(n.id())
                : r == null
                    ? "its relay ended without a result (killed?)"
                    : r.path("error").asText("failed");
        out.add(
            new Distributor.Target(
                shard,
                n.id(),
                null,
                null,
                "failed",
                r == null ? 0 : r.path("bytes_received").asLong(),
                r == null ? 0 : r.path("bytes_had").asLong(),
                r == null ? 0 : r.path("resent_chunks").asInt(),
                null,
                null,
                null,
                null,
                why));
      }
    } catch (IOException e) {
      throw SolrscaleException.failed(shard + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed(shard + ": interrupted");
    } finally {
      relays.values().forEach(RelayProcess::close);
    }
    return new Distributor.ShardRun(
        shard, leader.core(), leaderDocs, generation, files.size(), bytes, route, out);
  }

  private long t0Ms() {
    return System.currentTimeMillis() - (System.nanoTime() - t0) / 1_000_000;
  }

  /** Reports each target's progress once a second while the source sends. */
  private void watch(
      RelayProcess source, Map<String, RelayProcess> relays, Map<String, String> byAddress) {
    Thread t =
        new Thread(
            () -> {
              Map<String, Long> last = new LinkedHashMap<>();
              long lastAt = System.nanoTime();
              while (source.alive() || relays.values().stream().anyMatch(RelayProcess::alive)) {
                try {
                  Thread.sleep(1000);
                } catch (InterruptedException e) {
                  return;
                }
                long now = System.nanoTime();
                double secs = (now - lastAt) / 1e9;
                lastAt = now;
                for (Map.Entry<String, RelayProcess> e : relays.entrySet()) {
                  RelayProcess r = e.getValue();
                  long before = last.getOrDefault(e.getKey(), 0L);
                  last.put(e.getKey(), r.bytes());
                  String from = r.from();
                  d.live()
                      .accept(
                          new Overview.Row(
                              (now - t0) / 1e9,
                              shard,
                              e.getKey(),
                              r.bytes(),
                              r.total(),
                              (r.bytes() - before) / 1e6 / secs,
                              from,
                              r.alive() ? "receiving" : "ended"));
                }
              }
            },
            "overview-" + shard);
    t.setDaemon(true);
    t.start();
  }
}
