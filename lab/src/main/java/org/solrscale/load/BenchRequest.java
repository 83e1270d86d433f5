package org.solrscale.load;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.spec.Arrivals;
import org.solrscale.spec.Durations;
import org.solrscale.spec.QueryOrder;
import org.solrscale.spec.Rates;
import org.solrscale.spec.Routing;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * One bench, as asked for: built from `solrscale bench`'s flags or from a scenario's bench step,
 * run here ({@link BenchPlan#run}) or split over driver hosts ({@link Drivers}), each of which gets
 * its share of this record as JSON (the way Trogdor sends a task's spec to its workers).
 *
 * <p>{@code urls} are the Solr base URLs to send to (already narrowed to one by node routing);
 * {@code threads} or {@code rates} is the load model (one of them null); {@code duration} null
 * means 60 s unless {@code requests} is given; {@code out} the run directory (null: none); {@code
 * startAt} the moment (epoch ms) to start at, for the drivers of one run; {@code drivers} the hosts
 * to split the bench over (null: run here); {@code attribute} the share of requests sampled with
 * shards.info for the tail's attribution (null: none); {@code timeAllowed} Solr's limit on each
 * request (null: none).
 */
public record BenchRequest(
    List<String> urls,
    String collection,
    List<Mix> queries,
    List<String> templates,
    Integer threads,
    List<Double> rates,
    Arrivals arrivals,
    Duration stepDuration,
    Duration warmup,
    Long warmupRequests,
    Duration duration,
    Long requests,
    QueryOrder order,
    double zipf,
    long seed,
    Duration timeout,
    Routing routing,
    String shardsPreference,
    boolean shardsTolerant,
    Duration timeAllowed,
    String compression,
    int connections,
    double maxErrorRate,
    Path out,
    Long startAt,
    List<String> drivers,
    Replay replay,
    Double attribute) {

  /** A query file of the mix and its share. */
  public record Mix(Path file, double weight) {}

  /**
   * A replay of logged requests ({@code data log-requests}' file) instead of a mix and a load
   * model: every gap divided by {@code speed} after idle gaps were cut to {@code maxGap} (null: not
   * cut), again from the start when {@code loop}; requests slower than {@code slowerThan} times
   * their logged QTime are listed. {@code share} of {@code shares}: a driver's part.
   */
  public record Replay(
      Path file,
      double speed,
      Duration maxGap,
      boolean loop,
      double slowerThan,
      int share,
      int shares) {
    public Replay {
      if (!(speed > 0) || Double.isInfinite(speed)) {
        throw SolrscaleException.usage("--speed must be above 0, e.g. 1, 2 or 0.5");
      }
      if (maxGap != null && (maxGap.isNegative() || maxGap.isZero())) {
        throw SolrscaleException.usage("--max-gap must be above 0, e.g. 5s");
      }
      if (!(slowerThan > 0)) {
        throw SolrscaleException.usage("--slower-than must be above 0, e.g. 3");
      }
    }

    /** Driver {@code i} of {@code n}'s part, reading {@code file} there. */
    Replay share(int i, int n, Path hostFile) {
      return new Replay(hostFile, speed, maxGap, loop, slowerThan, i, n);
    }
  }

  /** What a bench runs for when neither a duration nor a number of requests is given. */
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);

  /** Durations as ISO-8601 text (PT1M30S): Jackson needs a module for java.time otherwise. */
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .registerModule(
              new SimpleModule("durations")
                  .addSerializer(
                      Duration.class,
                      new JsonSerializer<>() {
                        @Override
                        public void serialize(Duration d, JsonGenerator g, SerializerProvider p)
                            throws IOException {
                          g.writeString(d.toString());
                        }
                      })
                  .addDeserializer(
                      Duration.class,
                      new JsonDeserializer<>() {
                        @Override
                        public Duration deserialize(JsonParser p, DeserializationContext c)
                            throws IOException {
                          return Duration.parse(p.getValueAsString());
                        }
                      }))
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public BenchRequest {
    queries = List.copyOf(queries);
    templates = templates == null ? null : List.copyOf(templates);
    rates = rates == null ? null : List.copyOf(rates);
    urls = urls == null ? null : List.copyOf(urls);
    drivers = drivers == null ? null : List.copyOf(drivers);
  }

  /**
   * The bench a scenario's step asks for: {@code queries} the step's mix or the run's files ({@code
   * replay} the log file of a replay step, resolved, else null), {@code urls} where its routing
   * sends, {@code maxErrorRate} its own or the run's default, {@code out} the step's run directory.
   */
  public static BenchRequest of(
      StepSpec.Bench b,
      String collection,
      List<Mix> queries,
      Path replay,
      List<String> urls,
      double maxErrorRate,
      Path out) {
    return new BenchRequest(
        urls,
        collection,
        queries,
        b.templates(),
        b.threads(),
        b.rate() == null ? null : Rates.parse(b.rate()),
        b.arrivalsParsed(),
        Durations.parse(b.stepDuration()),
        Durations.parse(b.warmup()),
        b.warmupRequests(),
        b.duration() == null ? null : Durations.parse(b.duration()),
        b.requests(),
        b.orderParsed(),
        b.zipf(),
        b.seed(),
        Durations.parse(b.timeout()),
        b.routingParsed(),
        b.shardsPreference(),
        b.shardsTolerant(),
        b.timeAllowed() == null ? null : Durations.parse(b.timeAllowed()),
        b.compression(),
        b.connections(),
        maxErrorRate,
        out,
        null,
        b.drivers(),
        replay == null
            ? null
            : new Replay(
                replay,
                b.speed(),
                b.maxGap() == null ? null : Durations.parse(b.maxGap()),
                b.loop(),
                b.slowerThan(),
                0,
                1),
        b.attributeShare());
  }

  /**
   * The mix as written, {@code FILE[:WEIGHT][,FILE[:WEIGHT]...]}, files relative to {@code base}.
   */
  public static List<Mix> mix(String spec, Path base) {
    List<Mix> mix = new ArrayList<>();
    for (String item : spec.split(",")) {
      String s = item.strip();
      double weight = 1;
      int colon = s.lastIndexOf(':');
      if (colon > 0 && s.substring(colon + 1).matches("\\d+(\\.\\d+)?")) {
        weight = Double.parseDouble(s.substring(colon + 1));
        s = s.substring(0, colon);
      }
      if (s.isEmpty() || weight <= 0) {
        throw SolrscaleException.usage(
            "--queries '" + spec + "' is not FILE[:WEIGHT][,FILE:WEIGHT...] with weights > 0");
      }
      mix.add(
          new Mix(base == null || Path.of(s).isAbsolute() ? Path.of(s) : base.resolve(s), weight));
    }
    return mix;
  }

  /** The same request sent to {@code urls}. */
  public BenchRequest withUrls(List<String> urls) {
    return new BenchRequest(
        urls,
        collection,
        queries,
        templates,
        threads,
        rates,
        arrivals,
        stepDuration,
        warmup,
        warmupRequests,
        duration,
        requests,
        order,
        zipf,
        seed,
        timeout,
        routing,
        shardsPreference,
        shardsTolerant,
        timeAllowed,
        compression,
        connections,
        maxErrorRate,
        out,
        startAt,
        drivers,
        replay,
        attribute);
  }

  /**
   * Driver {@code i} of {@code n}'s share of this bench: every rate divided evenly, or the threads
   * as evenly as whole ones go; its own seed, its query files where the driver host has them, its
   * run directory there, and the common start. A node named by id is this machine's name for it: a
   * driver gets its URL.
   */
  public BenchRequest share(
      int i, int n, List<Mix> hostQueries, Path hostReplay, Path hostOut, long hostStartAt) {
    Integer t = threads == null ? null : threads / n + (i < threads % n ? 1 : 0);
    List<Double> r = rates == null ? null : rates.stream().map(x -> x / n).toList();
    return new BenchRequest(
        urls,
        collection,
        hostQueries,
        templates,
        t,
        r,
        arrivals,
        stepDuration,
        warmup,
        warmupRequests,
        duration == null ? DEFAULT_DURATION : duration,
        requests,
        order,
        zipf,
        seed + i,
        timeout,
        routing.mode() == Routing.Mode.NODE ? Routing.node(urls.get(0)) : routing,
        shardsPreference,
        shardsTolerant,
        timeAllowed,
        compression,
        connections,
        maxErrorRate,
        hostOut,
        hostStartAt,
        null,
        replay == null ? null : replay.share(i, n, hostReplay),
        attribute);
  }

  /**
   * How long the bench runs: warm-up, then the duration or every step of a staircase; a replay
   * without a duration runs as long as its log at its speed, at most a day.
   */
  public Duration runTime() {
    if (replay != null && duration == null) {
      return Duration.ofDays(1);
    }
    return warmup.plus(
        rates != null && rates.size() > 1
            ? stepDuration.multipliedBy(rates.size())
            : duration == null ? DEFAULT_DURATION : duration);
  }

  /** The share's load as the progress line says it: "threads 3" or "rate 50.0,100.0". */
  public String load() {
    return replay != null
        ? "replay at " + replay.speed() + "x"
        : threads != null
            ? "threads " + threads
            : "rate " + String.join(",", rates.stream().map(d -> Double.toString(d)).toList());
  }

  /** This request as one line of JSON. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a bench request that is no JSON: " + e.getMessage(), e);
    }
  }

  /** The request a driver was sent, or a one-line usage error. */
  public static BenchRequest fromJson(String json) {
    try {
      return JSON.readValue(json, BenchRequest.class);
    } catch (JsonProcessingException e) {
      throw SolrscaleException.usage(
          "not a bench request: " + e.getOriginalMessage().replaceAll("\\s+", " "));
    }
  }
}
