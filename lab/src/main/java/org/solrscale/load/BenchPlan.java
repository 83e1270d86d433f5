package org.solrscale.load;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.SolrHttp;
import org.solrscale.cluster.Target;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.RunDir;
import org.solrscale.results.TailAttribution;
import org.solrscale.spec.Arrivals;
import org.solrscale.spec.QueryOrder;
import org.solrscale.spec.Rates;
import org.solrscale.spec.Routing;
import org.solrscale.spec.SolrscaleException;

/**
 * The parts of a bench run built from a user's settings, one way for both `solrscale bench` and a
 * scenario's bench step: the load model, the bounds, the pass-through parameters and the sender.
 */
public final class BenchPlan {
  private BenchPlan() {}

  /**
   * The request's queries read, only those of its templates when it names some; null for a replay,
   * whose requests are its model's.
   */
  public static Workload workload(BenchRequest r) {
    if (r.replay() != null) {
      return null;
    }
    List<Workload.Part> parts = new ArrayList<>();
    for (BenchRequest.Mix m : r.queries()) {
      parts.add(new Workload.Part(m.file(), m.weight(), QueryFile.read(m.file())));
    }
    return new Workload(
        Workload.only(parts, r.templates()),
        r.order() == QueryOrder.SEQUENTIAL,
        r.zipf(),
        r.seed());
  }

  /** The request's load model: its threads, its rates with its arrivals, or its replay. */
  public static LoadModel model(BenchRequest r) {
    if (r.replay() != null) {
      BenchRequest.Replay p = r.replay();
      long maxGap = p.maxGap() == null ? 0 : p.maxGap().toNanos();
      return new LoadModel.Replay(
          ReplaySchedule.read(p.file(), r.collection(), p.speed(), maxGap, p.share(), p.shares()),
          p.loop(),
          p.speed(),
          maxGap,
          p.file().toString(),
          p.slowerThan());
    }
    if (r.threads() != null) {
      return new LoadModel.Closed(r.threads());
    }
    return new LoadModel.Open(
        r.rates(), r.stepDuration().toNanos(), r.arrivals() == Arrivals.POISSON);
  }

  /**
   * The request's warm-up and measured bounds; a replay without a duration runs to the end of its
   * log (a loop needs one).
   */
  public static Driver.Bounds bounds(BenchRequest r) {
    if (r.replay() != null && r.replay().loop() && r.duration() == null && r.requests() == null) {
      throw SolrscaleException.usage(
          "--loop replays the log again and again: give --duration (or --requests) to end it");
    }
    return bounds(
        r.warmup().toNanos(),
        r.warmupRequests(),
        r.duration() != null
            ? Long.valueOf(r.duration().toNanos())
            : r.replay() != null && r.requests() == null ? Long.valueOf(0) : null,
        r.requests());
  }

  /**
   * The request's shards.preference, shards.tolerant and timeAllowed, appended to every request.
   */
  public static String extraParams(BenchRequest r) {
    return extraParams(r.shardsPreference(), r.shardsTolerant(), r.timeAllowed());
  }

  /** The HTTP sender over the request's URLs, with its routing, compression and connections. */
  public static HttpSender sender(BenchRequest r, Access access) {
    return sender(
        r.routing(),
        r.urls(),
        r.collection(),
        extraParams(r),
        r.compression(),
        r.timeout().toMillis(),
        r.connections(),
        access);
  }

  /**
   * Sends each query file's first request once, or a replay's first of each kind (see {@link
   * #probe(String, String, List, String, Access)}).
   */
  public static void probe(BenchRequest r, Workload w, Access access) {
    probe(
        r.urls().get(0),
        r.collection(),
        firsts(w, w == null ? model(r) : null),
        extraParams(r),
        access);
  }

  /**
   * Runs the request here, on its queries already read ({@code w}): waits for its start moment if
   * it has one, then drives the load and writes its run directory.
   */
  public static BenchSummary run(
      BenchRequest r, Workload w, Access access, Consumer<Interval> progress)
      throws InterruptedException {
    return run(r, w, access, null, progress);
  }

  /**
   * The same on {@code target}'s cluster, whose nodes name the replicas of the tail's attribution
   * (node, host, labels).
   */
  public static BenchSummary run(
      BenchRequest r, Workload w, Target target, Consumer<Interval> progress)
      throws InterruptedException {
    return run(r, w, target.access(), target.nodes(), progress);
  }

  private static BenchSummary run(
      BenchRequest r, Workload w, Access access, List<NodeState> nodes, Consumer<Interval> progress)
      throws InterruptedException {
    Driver.Bounds bounds = bounds(r);
    LoadModel model = model(r);
    if (r.startAt() != null) {
      long wait = r.startAt() - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait); // the drivers of one run start together, at a moment on the clock
      }
    }
    try (HttpSender sender = sender(r, access)) {
      Attribution attribution =
          r.attribute() == null ? null : new Attribution(r.attribute(), r.seed());
      sender.attribute(attribution);
      BenchSummary s =
          Bench.run(
              new Bench.Options(
                  w, model, bounds, r.seed(), r.timeout().toNanos(), r.out(), r.maxErrorRate()),
              sender,
              Clock.SYSTEM,
              progress);
      if (attribution != null && r.out() != null) {
        try {
          RunDir.JSON
              .writerWithDefaultPrettyPrinter()
              .writeValue(
                  r.out().resolve(TailAttribution.FILE).toFile(),
                  named(attribution.result(), nodes));
        } catch (java.io.IOException e) {
          throw SolrscaleException.environment(
              "cannot write " + r.out().resolve(TailAttribution.FILE) + ": " + e.getMessage());
        }
      }
      return s;
    }
  }

  /** A closed loop of {@code threads}, or an open loop at {@code rates} ("100" or "50,100,200"). */
  public static LoadModel model(Integer threads, String rates, String arrivals, long stepNanos) {
    if (threads != null) {
      return new LoadModel.Closed(threads);
    }
    Arrivals parsed;
    try {
      parsed = Arrivals.parse(arrivals);
    } catch (IllegalArgumentException e) {
      throw SolrscaleException.usage(e.getMessage());
    }
    List<Double> list;
    try {
      list = Rates.parse(rates);
    } catch (IllegalArgumentException e) {
      throw SolrscaleException.usage(e.getMessage());
    }
    return new LoadModel.Open(list, stepNanos, parsed == Arrivals.POISSON);
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

  /** shards.preference, shards.tolerant and timeAllowed (ms), appended to every request. */
  public static String extraParams(
      String shardsPreference, boolean shardsTolerant, Duration timeAllowed) {
    return (shardsPreference == null
            ? ""
            : "&shards.preference=" + URLEncoder.encode(shardsPreference, StandardCharsets.UTF_8))
        + (shardsTolerant ? "&shards.tolerant=true" : "")
        + (timeAllowed == null ? "" : "&timeAllowed=" + timeAllowed.toMillis());
  }

  /**
   * The HTTP sender over {@code urls}; {@code node:ID} routing has already narrowed them to one.
   */
  public static HttpSender sender(
      Routing routing,
      List<String> urls,
      String collection,
      String extraParams,
      String compression,
      long timeoutMillis,
      int connections,
      Access access) {
    if (compression != null && !compression.equals("gzip")) {
      throw SolrscaleException.usage("compression takes gzip; got '" + compression + "'");
    }
    return new HttpSender(
        HttpSender.routing(routing.mode() == Routing.Mode.NODE ? Routing.CLOUD : routing, urls),
        collection,
        extraParams,
        compression != null,
        timeoutMillis,
        connections,
        Clock.SYSTEM,
        access);
  }

  /**
   * Sends the first request of each query file (of a replay: of each kind of request production
   * answered) once, before any load: a request Solr refuses with any 4xx (a field the collection's
   * schema lacks, a query that does not parse, a user who may not query) stops the bench in one
   * line with Solr's message and the request's file:line, instead of a run whose every request
   * failed. Other answers are left to the run, which reports them with their share.
   */
  public static void probe(
      String baseUrl,
      String collection,
      List<QueryRequest> firsts,
      String extraParams,
      Access access) {
    SolrHttp http = new SolrHttp(Duration.ofSeconds(5), access);
    for (QueryRequest r : firsts) {
      String to = r.collection() != null ? r.collection() : collection;
      String url =
          baseUrl
              + "/"
              + to
              + r.handler()
              + "?"
              + QueryFile.urlSafe(r.params() + extraParams)
              + (r.params().contains("wt=") ? "" : "&wt=json");
      SolrHttp.Reply reply;
      try {
        reply = http.get(url, Duration.ofSeconds(30));
      } catch (IllegalArgumentException notAUri) {
        continue; // the load sends the bytes as they are; the run reports what Solr says
      }
      String refused = access.refusal(reply.status(), "Solr at " + baseUrl);
      if (refused != null) {
        throw SolrscaleException.usage("bench on " + to + ": " + refused);
      }
      if (reply.status() >= 400 && reply.status() < 500) {
        throw SolrscaleException.usage(
            r.source()
                + ": collection "
                + to
                + " refuses this request (HTTP "
                + reply.status()
                + ": "
                + reply.message().strip()
                + ")"
                + (reply.message().contains("undefined field")
                    ? ": derive queries for its fields, e.g. solrscale data queries CORPUS --field"
                        + " FIELD"
                    : ": mend the line, or leave it out"));
      }
    }
  }

  /**
   * The requests the probe sends: each query file's first, or a replay's first of each kind that
   * production answered without an error.
   */
  public static List<QueryRequest> firsts(Workload w) {
    return firsts(w, null);
  }

  public static List<QueryRequest> firsts(Workload w, LoadModel model) {
    List<QueryRequest> out = new ArrayList<>();
    if (model instanceof LoadModel.Replay replay) {
      java.util.Set<String> kinds = new java.util.HashSet<>();
      for (ReplaySchedule.Entry e : replay.schedule().entries()) {
        Integer status = e.logged().status();
        if ((status == null || status == 0 || status == 200) && kinds.add(e.request().template())) {
          out.add(e.request());
        }
      }
      return out;
    }
    for (Workload.Part part : w.parts()) {
      if (!part.requests().isEmpty()) {
        out.add(part.requests().get(0));
      }
    }
    return out;
  }

  /** The attribution with each replica's node, host and labels from {@code nodes} (null: none). */
  static TailAttribution named(TailAttribution a, List<NodeState> nodes) {
    if (nodes == null) {
      return a;
    }
    java.util.Map<String, NodeState> byId = new java.util.HashMap<>();
    nodes.forEach(n -> byId.put(n.id(), n));
    return a.known(
        url ->
            nodes.stream()
                .filter(n -> url.startsWith(n.baseUrl() + "/"))
                .map(NodeState::id)
                .findFirst()
                .orElse(null),
        id -> byId.get(id).ssh() != null ? byId.get(id).ssh() : byId.get(id).host(),
        id -> byId.get(id).labels());
  }
}
