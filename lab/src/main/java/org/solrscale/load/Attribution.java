package org.solrscale.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.solrscale.results.TailAttribution;

/**
 * Which replica made the tail slow: a share of requests go with {@code shards.info=true}, and for
 * each sampled answer Solr says which replica answered each shard and how long it took. Among the
 * slowest 1 % of the sampled requests (by their time on the wire), the replica whose shard took
 * longest is the one that held the request back; the replicas are ranked by how often they were
 * that one. Only measured requests count: those sent during the warm-up (cold caches, new
 * connections) are dropped once the driver says when the measured time began. Keeps at most {@link
 * #MAX_SAMPLES} samples.
 */
public final class Attribution {
  static final int MAX_SAMPLES = 200_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final double share;
  private final Random rnd;
  private final List<Sample> samples = new ArrayList<>();
  private long measuredFrom = Long.MIN_VALUE;

  /**
   * One sampled request: when it was sent (driver clock), its time from send to answer, its shards
   * (null when the answer held no shards.info) and the base URL of the node that coordinated it.
   */
  record Sample(long sentNanos, double ms, List<Outcome.ShardTime> shards, String coordinator) {}

  public Attribution(double share, long seed) {
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException("--attribute is a share above 0 and at most 100%");
    }
    this.share = share;
    this.rnd = new Random(seed * 17 + 3);
  }

  public double share() {
    return share;
  }

  /** Whether the next request is sampled. */
  synchronized boolean sample() {
    return rnd.nextDouble() < share;
  }

  /**
   * A sampled request's answer, sent at {@code sentNanos}: its shards, or none when the answer did
   * not hold shards.info.
   */
  synchronized void add(
      long sentNanos, double ms, List<Outcome.ShardTime> shards, String coordinator) {
    if (samples.size() < MAX_SAMPLES) {
      samples.add(
          new Sample(
              sentNanos, ms, shards == null || shards.isEmpty() ? null : shards, coordinator));
    }
  }

  /** The measured time began at {@code nanos}: requests sent before it were warm-up. */
  synchronized void measuredFrom(long nanos) {
    measuredFrom = nanos;
  }

  /**
   * The shards of a JSON answer's {@code shards.info} (each key the shard's replica list, each
   * value with its {@code shardAddress} and {@code time}), or null when there is none or it was cut
   * off.
   */
  static List<Outcome.ShardTime> parse(String json) {
    // the key also appears among the echoed params ("shards.info":"true"): the one whose value
    // is an object is the answer's
    int start = -1;
    for (int i = json.indexOf("\"shards.info\"");
        i >= 0;
        i = json.indexOf("\"shards.info\"", i + 1)) {
      int k = json.indexOf(':', i) + 1;
      while (k > 0 && k < json.length() && Character.isWhitespace(json.charAt(k))) {
        k++;
      }
      if (k > 0 && k < json.length() && json.charAt(k) == '{') {
        start = k;
        break;
      }
    }
    if (start < 0) {
      return null;
    }
    List<Outcome.ShardTime> out = new ArrayList<>();
    try (JsonParser p = JSON.getFactory().createParser(json.substring(start))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String shard = p.currentName();
        p.nextToken();
        Map<?, ?> v = JSON.readValue(p, Map.class);
        Object address = v.get("shardAddress");
        Object time = v.get("time");
        if (address != null && time instanceof Number n) {
          out.add(new Outcome.ShardTime(shard, address.toString(), n.longValue()));
        }
      }
    } catch (IOException e) {
      return null; // cut off at the kept head of the body
    }
    return out.isEmpty() ? null : out;
  }

  /** The ranking over the slowest 1 % of the samples (at least one request). */
  public synchronized TailAttribution result() {
    List<Sample> sorted = new ArrayList<>();
    long unreadable = 0;
    for (Sample s : samples) {
      if (s.sentNanos() < measuredFrom) {
        continue;
      }
      if (s.shards() == null) {
        unreadable++;
      } else {
        sorted.add(s);
      }
    }
    sorted.sort(Comparator.comparingDouble(Sample::ms).reversed());
    int tail = Math.max(1, (int) Math.ceil(sorted.size() / 100.0));
    Map<String, Integer> slowest = new HashMap<>();
    Map<String, List<Long>> times = new HashMap<>();
    for (Sample s : sorted) {
      for (Outcome.ShardTime t : s.shards()) {
        times.computeIfAbsent(t.replica(), k -> new ArrayList<>()).add(t.timeMs());
      }
    }
    List<Sample> worst = sorted.subList(0, Math.min(tail, sorted.size()));
    double wireMs = 0;
    double shardMs = 0;
    Map<String, Integer> coordinators = new HashMap<>();
    for (Sample s : worst) {
      if (s.coordinator() != null) {
        coordinators.merge(s.coordinator(), 1, Integer::sum);
      }
      Outcome.ShardTime max =
          s.shards().stream()
              .max(Comparator.comparingLong(Outcome.ShardTime::timeMs))
              .orElseThrow();
      slowest.merge(max.replica(), 1, Integer::sum);
      wireMs += s.ms();
      shardMs += Math.min(max.timeMs(), s.ms());
    }
    Map<String, Integer> ranked = new LinkedHashMap<>();
    slowest.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(e -> ranked.put(e.getKey(), e.getValue()));
    List<TailAttribution.Replica> replicas = new ArrayList<>();
    for (Map.Entry<String, List<Long>> e : times.entrySet()) {
      List<Long> v = new ArrayList<>(e.getValue());
      v.sort(null);
      int n = ranked.getOrDefault(e.getKey(), 0);
      replicas.add(
          new TailAttribution.Replica(
              e.getKey(),
              null,
              null,
              n,
              worst.isEmpty() ? 0 : (double) n / worst.size(),
              v.size(),
              v.get(v.size() / 2),
              v.get(Math.min(v.size() - 1, (int) Math.ceil(v.size() * 0.99) - 1))));
    }
    replicas.sort(
        Comparator.comparingInt(TailAttribution.Replica::slowestInTail)
            .reversed()
            .thenComparing(TailAttribution.Replica::replica));
    return new TailAttribution(
        share,
        sorted.size(),
        unreadable,
        worst.size(),
        worst.isEmpty() ? 0 : worst.get(worst.size() - 1).ms(),
        wireMs > 0 ? shardMs / wireMs : 0,
        replicas,
        List.of(),
        coordinators.entrySet().stream()
            .sorted(
                Map.Entry.<String, Integer>comparingByValue()
                    .reversed()
                    .thenComparing(Map.Entry.comparingByKey()))
            .map(
                e ->
                    new TailAttribution.Coordinator(
                        e.getKey(), null, null, e.getValue(), (double) e.getValue() / worst.size()))
            .toList());
  }
}
