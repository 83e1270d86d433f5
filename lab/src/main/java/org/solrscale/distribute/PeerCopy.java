package org.solrscale.distribute;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.Parallel;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.results.Distribution;
import org.solrscale.results.Route;
import org.solrscale.spec.SolrscaleException;

/**
 * One shard by chain or tree: pin the leader's commit, start a relay on each target's host, send
 * the commit's files along the route from the leader's host, then hand the complete copies to Solr
 * (ADDREPLICA with their instance directory, the same path under each target's Solr home: one call
 * for all, or one each). The snapshot is released whatever happens.
 */
final class PeerCopy {
  private static final long START_MS = 60_000;

  private final Distributor d;
  private final Distributor.Options o;
  private final String shard;
  private final ReplicaStatus leader;
  private final NodeState leaderNode;
  private final List<NodeState> targets; // new replicas' nodes, then those refreshed
  private final Map<String, Distributor.Existing> refreshing = new LinkedHashMap<>(); // by node id
  private final long t0;
  private final long leaderDocs;
  private final Map<String, Distribution.Progress> progress = new LinkedHashMap<>();
  private final Map<String, Double> phases = new LinkedHashMap<>(); // seconds since the start

  PeerCopy(
      Distributor d,
      Distributor.Options o,
      String shard,
      ReplicaStatus leader,
      NodeState leaderNode,
      List<NodeState> targets,
      List<Distributor.Existing> existing,
      long t0,
      long leaderDocs) {
    this.d = d;
    this.o = o;
    this.shard = shard;
    this.leader = leader;
    this.leaderNode = leaderNode;
    List<NodeState> all = new ArrayList<>(targets);
    for (Distributor.Existing e : existing) {
      all.add(e.node());
      refreshing.put(e.node().id(), e);
    }
    this.targets = List.copyOf(all);
    this.t0 = t0;
    this.leaderDocs = leaderDocs;
  }

  Distribution.ShardRun run() {
    String stamp = Long.toString(System.currentTimeMillis());
    String snapshot = "solrscale-" + shard + "-" + stamp;
    String cores =
        leaderNode.baseUrl() + "/admin/cores?wt=json&core=" + Distributor.enc(leader.core());
    JsonNode snap =
        d.get(
            cores + "&action=CREATESNAPSHOT&commitName=" + Distributor.enc(snapshot),
            "pinning the commit of " + leader.core() + " (CREATESNAPSHOT)");
    phase("pinned");
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

  private Distribution.ShardRun copy(JsonNode snap, String stamp) {
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
    phase("listed");
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
    // the seed's instance directory, relative to the Solr home of every target alike, so that one
    // ADDREPLICA can name it for all; Solr's data directory is data/ in it
    String instanceDir = "distribute/" + o.collection() + "_" + shard + "_" + stamp;
    Map<String, String> dataDirs = new LinkedHashMap<>(); // the seed directory by node id
    Map<String, String> startErrors = new LinkedHashMap<>();
    List<Distribution.Target> out = new ArrayList<>();
    Route route = null;
    try {
      for (NodeState n : targets) {
        dataDirs.put(n.id(), d.cluster().hosts().solrHome(n) + "/" + instanceDir);
      }
      // every host at once: asking a host what it has and putting the jar there take round trips
      List<Object> started =
          Parallel.map(
              targets,
              n -> {
                List<String> args =
                    new ArrayList<>(
                        List.of(
                            "relay",
                            "receive",
                            "--dir",
                            dataDirs.get(n.id()) + "/data/index",
                            "--bind",
                            n.host(),
                            "--wait-seconds",
                            Long.toString(o.timeout().toSeconds()),
                            "--max-bytes-per-second",
                            Long.toString(o.maxBytesPerSecond())));
                if (refreshing.containsKey(n.id())) {
                  args.addAll(List.of("--have", refreshing.get(n.id()).indexDir()));
                }
                if (o.corruptAt() != null && o.corruptAt().startsWith(n.id() + "=")) {
                  args.addAll(
                      List.of("--corrupt-chunk", o.corruptAt().substring(n.id().length() + 1)));
                }
                try {
                  return new RelayProcess(
                      n.id(), d.cluster().hosts().solrscaleCommand(n, args), e -> {});
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
          d.progress()
              .accept(
                  String.format(
                      "%s: relay on %s at %s (pid %d)",
                      shard, e.getKey(), address, e.getValue().pid()));
        }
      }
      phase("relays_listening");
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
              Integer.toString(o.chunk()),
              "--max-bytes-per-second",
              Long.toString(o.maxBytesPerSecond()));
      Map<String, Double> dataAt = new LinkedHashMap<>();
      try (RelayProcess source =
          new RelayProcess(
              "source", d.cluster().hosts().solrscaleCommand(leaderNode, sendArgs), e -> {})) {
        watch(source, relays, byAddress);
        JsonNode sent = source.awaitResult(o.timeout().toMillis());
        phase("source_done");
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
      phase("relays_done");
      String now = d.leaderCore(o.collection(), shard);
      if (!dataAt.isEmpty() && !leader.core().equals(now)) {
        String why =
            "the leader of "
                + shard
                + " changed from "
                + leader.core()
                + " to "
                + (now == null ? "none" : now)
                + " during the transfer; its copy was not handed to Solr (run distribute again)";
        d.progress().accept(shard + ": " + why);
        dataAt.keySet().forEach(id -> startErrors.put(id, why));
        dataAt.clear();
      }
      List<NodeState> ready =
          targets.stream()
              .filter(n -> dataAt.containsKey(n.id()) && !refreshing.containsKey(n.id()))
              .toList();
      if (o.create() == Distributor.Create.TOGETHER) {
        Map<String, Distributor.Seed> seeds = new LinkedHashMap<>();
        ready.forEach(n -> seeds.put(n.id(), seed(n, instanceDir, results, dataAt)));
        out.addAll(d.addReplicas(o, shard, ready, seeds, t0, leaderDocs));
      } else {
        out.addAll(Parallel.map(ready, n -> handOver(n, instanceDir, results, dataAt)));
      }
      // one at a time, so that the shard loses at most one replica at any moment
      for (NodeState n : targets) {
        Distributor.Existing old = refreshing.get(n.id());
        if (old == null || !dataAt.containsKey(n.id())) {
          continue;
        }
        try {
          d.get(
              leaderNode.baseUrl()
                  + "/admin/collections?action=DELETEREPLICA&wt=json&collection="
                  + Distributor.enc(o.collection())
                  + "&shard="
                  + Distributor.enc(shard)
                  + "&replica="
                  + Distributor.enc(old.replica()),
              "deleting " + old.replica() + " to put its refreshed copy in its place");
        } catch (SolrscaleException e) {
          dataAt.remove(n.id());
          startErrors.put(n.id(), e.getMessage());
          continue;
        }
        out.add(handOver(n, instanceDir, results, dataAt));
      }
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
        removeSeed(n, dataDirs.get(n.id()));
        out.add(
            new Distribution.Target(
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
                dataDirs.get(n.id()) + "/data",
                refreshing.containsKey(n.id()) ? refreshing.get(n.id()).replica() : null,
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
    List<Distribution.Progress> series;
    synchronized (progress) {
      series =
          progress.values().stream()
              .map(
                  p ->
                      new Distribution.Progress(
                          p.node(), List.copyOf(p.seconds()), List.copyOf(p.bytes())))
              .toList();
    }
    phase("handed_over");
    return new Distribution.ShardRun(
        shard,
        leader.core(),
        leaderDocs,
        generation,
        files.size(),
        bytes,
        route,
        out,
        series,
        java.util.Collections.unmodifiableMap(new LinkedHashMap<>(phases)));
  }

  /** ADDREPLICA of a complete copy (in place of a refreshed replica's old one, if any). */
  private Distribution.Target handOver(
      NodeState n, String instanceDir, Map<String, JsonNode> results, Map<String, Double> dataAt) {
    Distributor.Existing old = refreshing.get(n.id());
    return d.addReplica(
        o,
        shard,
        n,
        old == null ? o.type() : old.type(),
        seed(n, instanceDir, results, dataAt),
        t0,
        leaderDocs,
        old == null ? null : old.replica());
  }

  private static Distributor.Seed seed(
      NodeState n, String instanceDir, Map<String, JsonNode> results, Map<String, Double> dataAt) {
    JsonNode r = results.get(n.id());
    return new Distributor.Seed(
        instanceDir,
        dataAt.get(n.id()),
        r.path("bytes_received").asLong(),
        r.path("bytes_had").asLong(),
        r.path("resent_chunks").asInt());
  }

  /** A failed target's seed directory goes again: no half-made copy is left on its host. */
  private void removeSeed(NodeState n, String dataDir) {
    try (RelayProcess rm =
        new RelayProcess(
            "remove",
            d.cluster().hosts().solrscaleCommand(n, List.of("relay", "remove", "--dir", dataDir)),
            e -> {})) {
      if (rm.awaitResult(60_000) == null) {
        d.progress()
            .accept(
                "warning: could not remove "
                    + dataDir
                    + " on "
                    + n.id()
                    + ": "
                    + rm.stderr().lines().findFirst().orElse("no answer"));
      }
    } catch (IOException | SolrscaleException e) {
      d.progress().accept("warning: could not remove " + dataDir + " on " + n.id() + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** When a step of the copy was reached, in seconds since the run started. */
  private void phase(String name) {
    phases.put(name, Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
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
                  synchronized (progress) {
                    Distribution.Progress p =
                        progress.computeIfAbsent(
                            e.getKey(),
                            k ->
                                new Distribution.Progress(k, new ArrayList<>(), new ArrayList<>()));
                    p.seconds().add(Math.round((now - t0) / 1e7) / 100.0);
                    p.bytes().add(r.bytes());
                  }
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
