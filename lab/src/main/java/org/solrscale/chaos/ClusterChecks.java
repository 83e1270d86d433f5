package org.solrscale.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.CollectionStatus;
import org.solrscale.cluster.ReplicaStatus;
import org.solrscale.cluster.ShardStatus;
import org.solrscale.cluster.SolrHttp;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.spec.SolrscaleException;

/**
 * The checks that ask the healed cluster: a hard commit, which acknowledged ids it holds (for
 * {@link LossChecker}), and whether each shard's replicas agree, every replica read alone with
 * {@code distrib=false}.
 */
final class ClusterChecks {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private final SolrHttp http;
  private final List<String> baseUrls;
  private final String collection;

  /** The run's ids on at least one replica, as {@link #agreement} read them. */
  private final Set<String> onAnyReplica = new HashSet<>();

  /** The run's ids some readable replica of their shard lacks, as {@link #agreement} read them. */
  private final Set<String> partlyReplicated = new HashSet<>();

  ClusterChecks(List<String> baseUrls, String collection, Access access) {
    this.http = new SolrHttp(access);
    this.baseUrls = baseUrls;
    this.collection = collection;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** A hard commit that opens a searcher on every replica, retried for a minute. */
  void commit() {
    String failed = collectionCommit(TIMEOUT);
    if (failed != null) {
      throw SolrscaleException.failed("the commit before checking failed for a minute: " + failed);
    }
  }

  /**
   * As {@link #commit()}, when shards of {@code c} have no active leader ({@code leaderless}): the
   * collection's commit reaches no replica of theirs, so each of their NRT replicas that answers
   * commits alone ({@code commit_end_point}: that core only), and what it holds is read as it is.
   * When the collection's commit fails, as it may while a shard has no leader, every other NRT
   * replica commits alone too, and must. The distributed reads then tolerate the leaderless shards.
   */
  void commit(CollectionStatus c, List<String> leaderless) {
    if (leaderless.isEmpty()) {
      commit();
      return;
    }
    tolerant = true;
    String failed = collectionCommit(Duration.ofSeconds(10));
    for (ShardStatus s : c.shards()) {
      boolean settled = !leaderless.contains(s.name());
      if (settled && failed == null) {
        continue;
      }
      for (ReplicaStatus r : s.replicas()) {
        if (!"NRT".equalsIgnoreCase(r.type()) && r.type() != null) {
          continue; // a TLOG or PULL replica indexes nothing of its own until it leads
        }
        SolrHttp.Reply reply =
            http.get(coreUrl(r) + "/update?commit=true&commit_end_point=true&wt=json", TIMEOUT);
        if (!reply.ok() && settled && "active".equals(r.state())) {
          throw SolrscaleException.failed(
              "the commit before checking failed ("
                  + failed
                  + "), and so did "
                  + r.core()
                  + "'s own: "
                  + reply.message());
        }
      }
    }
  }

  /** The collection's hard commit, tried for {@code within}: null when done, else why not. */
  private String collectionCommit(Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      for (String url : baseUrls) {
        SolrHttp.Reply r =
            http.get(url + "/" + collection + "/update?commit=true&wt=json", TIMEOUT);
        if (r.ok()) {
          return null;
        }
        last = r.message();
      }
      sleep(1000);
    }
    return last;
  }

  /** Whether distributed reads tolerate shards that cannot answer (some have no leader). */
  private boolean tolerant;

  private String coreUrl(ReplicaStatus r) {
    String scheme = baseUrls.get(0).startsWith("https:") ? "https://" : "http://";
    return scheme + r.node().replace("_solr", "/solr") + "/" + r.core();
  }

  /** Which of {@code ids} the collection holds (a terms query, asked of any node that answers). */
  Set<String> present(Collection<String> ids) {
    String body =
        "q="
            + enc("{!terms f=id}" + String.join(",", ids))
            + "&fl=id&wt=json&rows="
            + ids.size()
            + (tolerant ? "&shards.tolerant=true" : "");
    String last = "";
    for (int attempt = 0; attempt < 3; attempt++) {
      for (String url : baseUrls) {
        SolrHttp.Reply r =
            http.post(
                url + "/" + collection + "/select",
                "application/x-www-form-urlencoded",
                body,
                TIMEOUT);
        if (r.ok()) {
          Set<String> out = new HashSet<>();
          for (JsonNode d : r.body().path("response").path("docs")) {
            out.add(d.path("id").asText());
          }
          return out;
        }
        last = r.message();
      }
      sleep(1000);
    }
    throw SolrscaleException.failed("cannot ask the collection which ids it holds: " + last);
  }

  /**
   * Which of {@code ids} the collection holds anywhere: found by a distributed query, or on any
   * replica {@link #agreement} read alone. Under divergence a distributed query reads one replica
   * per shard, so it alone would call an id lost or not by which replica it happened to read.
   */
  Set<String> presentAnywhere(Collection<String> ids) {
    Set<String> out = present(ids);
    for (String id : ids) {
      if (onAnyReplica.contains(id)) {
        out.add(id);
      }
    }
    return out;
  }

  /** The run's ids on some replica of their shard but not on every one that could be read. */
  Set<String> partlyReplicated() {
    return partlyReplicated;
  }

  /** Reads every replica of every shard alone; a shard whose replicas differ is divergent. */
  List<ChaosVerdict.ShardAgreement> agreement(CollectionStatus c, String runPrefix) {
    List<ChaosVerdict.ShardAgreement> out = new ArrayList<>();
    long deadline = System.nanoTime() + REPLICATION_WAIT.toNanos();
    for (ShardStatus s : c.shards()) {
      if (!"active".equals(s.state())) {
        continue;
      }
      // TLOG and PULL replicas copy the leader's index on a poll: read again until they caught up
      boolean copies = s.replicas().stream().anyMatch(r -> !"NRT".equalsIgnoreCase(r.type()));
      ChaosVerdict.ShardAgreement a = readShard(s, runPrefix);
      while (copies && Boolean.FALSE.equals(a.agree()) && System.nanoTime() < deadline) {
        sleep(2000);
        a = readShard(s, runPrefix);
      }
      out.add(a);
    }
    return out;
  }

  /** How long replicas that copy the leader's index (TLOG, PULL) may take to catch up. */
  static final Duration REPLICATION_WAIT = Duration.ofSeconds(60);

  private ChaosVerdict.ShardAgreement readShard(ShardStatus s, String runPrefix) {
    List<ChaosVerdict.ReplicaCount> counts = new ArrayList<>();
    List<Set<String>> sets = new ArrayList<>();
    for (ReplicaStatus r : s.replicas()) {
      String core = coreUrl(r);
      try {
        long all = count(core, "*:*");
        Set<String> ids = ids(core, "{!prefix f=id}" + runPrefix);
        counts.add(new ChaosVerdict.ReplicaCount(r.name(), r.nodeId(), all, ids.size(), null));
        sets.add(ids);
      } catch (SolrscaleException e) {
        counts.add(new ChaosVerdict.ReplicaCount(r.name(), r.nodeId(), -1, -1, e.getMessage()));
        sets.add(null);
      }
    }
    Set<String> union = new TreeSet<>();
    sets.stream().filter(x -> x != null).forEach(union::addAll);
    onAnyReplica.addAll(union);
    List<String> differing = new ArrayList<>();
    Set<String> partly = new HashSet<>();
    for (String id : union) {
      if (sets.stream().anyMatch(x -> x != null && !x.contains(id))) {
        partly.add(id);
        if (differing.size() < 20) {
          differing.add(id);
        }
      }
    }
    // the last read of a shard decides: drop what an earlier read of it found partly there
    partlyReplicated.removeAll(union);
    partlyReplicated.addAll(partly);
    // a replica that could not be read leaves the shard unchecked, unless those read already
    // differ
    boolean read = sets.stream().allMatch(x -> x != null);
    boolean differ =
        !differing.isEmpty()
            || counts.stream()
                    .filter(x -> x.docs() >= 0)
                    .mapToLong(ChaosVerdict.ReplicaCount::docs)
                    .distinct()
                    .count()
                > 1;
    Boolean agree = differ ? Boolean.FALSE : read ? Boolean.TRUE : null;
    return new ChaosVerdict.ShardAgreement(s.name(), agree, counts, differing);
  }

  private long count(String core, String q) {
    SolrHttp.Reply r =
        http.get(core + "/select?q=" + enc(q) + "&rows=0&distrib=false&wt=json", TIMEOUT);
    if (!r.ok()) {
      throw SolrscaleException.failed(core + ": " + r.message());
    }
    return r.body().path("response").path("numFound").asLong();
  }

  private Set<String> ids(String core, String q) {
    Set<String> out = new HashSet<>();
    String cursor = "*";
    while (true) {
      SolrHttp.Reply r =
          http.get(
              core
                  + "/select?q="
                  + enc(q)
                  + "&fl=id&sort="
                  + enc("id asc")
                  + "&rows=5000&distrib=false&wt=json&cursorMark="
                  + enc(cursor),
              TIMEOUT);
      if (!r.ok()) {
        throw SolrscaleException.failed(core + ": " + r.message());
      }
      for (JsonNode d : r.body().path("response").path("docs")) {
        out.add(d.path("id").asText());
      }
      String next = r.body().path("nextCursorMark").asText(cursor);
      if (next.equals(cursor)) {
        return out;
      }
      cursor = next;
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
  }
}
