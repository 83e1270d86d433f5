package org.solrscale.load;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.solrscale.spec.Rates;
import org.solrscale.spec.SolrscaleException;

/**
 * The parts of a bench run built from a user's settings, one way for both `solrscale bench` and a
 * scenario's bench step: the load model, the bounds, the pass-through parameters and the sender.
 */
public final class BenchPlan {
  private BenchPlan() {}

  /** A closed loop of {@code threads}, or an open loop at {@code rates} ("100" or "50,100,200"). */
  public static LoadModel model(Integer threads, String rates, String arrivals, long stepNanos) {
    if (threads != null) {
      return new LoadModel.Closed(threads);
    }
    if (!arrivals.equals("uniform") && !arrivals.equals("poisson")) {
      throw SolrscaleException.usage("arrivals are uniform or poisson; got '" + arrivals + "'");
    }
    List<Double> list;
    try {
      list = Rates.parse(rates);
    } catch (IllegalArgumentException e) {
      throw SolrscaleException.usage(e.getMessage());
    }
    return new LoadModel.Open(list, stepNanos, arrivals.equals("poisson"));
  }

  /**
   * Warm-up by time or by count, then a duration or a number of requests; with neither, 60 s.
   * {@code durationNanos} is null when not given.
   */
  public static Driver.Bounds bounds(
      long warmupNanos, Long warmupRequests, Long durationNanos, Long requests) {
    if (warmupRequests != null && warmupRequests < 1 || requests != null && requests < 1) {
      throw SolrscaleException.usage("warm-up requests and requests must be at least 1");
    }
    long duration =
        durationNanos != null
            ? durationNanos
            : requests != null ? 0 : Duration.ofSeconds(60).toNanos();
    return new Driver.Bounds(
        warmupRequests != null ? 0 : warmupNanos,
        warmupRequests != null ? warmupRequests : 0,
        duration,
        requests == null ? 0 : requests);
  }

  /** shards.preference and shards.tolerant, appended to every request. */
  public static String extraParams(String shardsPreference, boolean shardsTolerant) {
    return (shardsPreference == null
            ? ""
            : "&shards.preference=" + URLEncoder.encode(shardsPreference, StandardCharsets.UTF_8))
        + (shardsTolerant ? "&shards.tolerant=true" : "");
  }

  /**
   * The HTTP sender over {@code urls}; {@code node:ID} routing has already narrowed them to one.
   */
  public static HttpSender sender(
      String routing,
      List<String> urls,
      String collection,
      String extraParams,
      String compression,
      long timeoutMillis,
      int connections) {
    if (compression != null && !compression.equals("gzip")) {
      throw SolrscaleException.usage("compression takes gzip; got '" + compression + "'");
    }
    return new HttpSender(
        HttpSender.routing(routing.startsWith("node:") ? "cloud" : routing, urls),
        collection,
        extraParams,
        compression != null,
        timeoutMillis,
        connections,
        Clock.SYSTEM);
  }
}
