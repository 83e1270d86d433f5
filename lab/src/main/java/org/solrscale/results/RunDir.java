package org.solrscale.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * A run directory as `solrscale run --out DIR` (or a command's --out) leaves it: results.json,
 * environment.json, the resolved scenario, and per step its summary (read with the record that
 * wrote it) and the files it wrote (summary.json, timeline.csv, latency.hlog, telemetry.csv,
 * index-progress.csv). The one way report, compare and the run's summary read a run; never writes.
 */
public final class RunDir {
  public static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final Path dir;
  private final RunResults results;
  private final Map<Path, List<TimelineRow>> timelines = new ConcurrentHashMap<>();
  private final Map<Path, IntervalLog> logs = new ConcurrentHashMap<>();

  private RunDir(Path dir, RunResults results) {
    this.dir = dir;
    this.results = results;
  }

  /** Opens DIR, or fails with one line saying what is missing and how to make it. */
  public static RunDir open(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw SolrscaleException.usage(
          dir
              + " is not a directory; give a run directory made by: "
              + "solrscale run SCENARIO --out "
              + dir);
    }
    Path file = dir.resolve("results.json");
    if (!Files.isRegularFile(file)) {
      throw SolrscaleException.usage(
          dir
              + " is not a solrscale run: results.json missing; run: "
              + "solrscale run SCENARIO --out "
              + dir);
    }
    RunResults r;
    try {
      r = JSON.readValue(file.toFile(), RunResults.class);
    } catch (JsonProcessingException e) {
      throw SolrscaleException.usage(
          file
              + " is not valid results.json (line "
              + (e.getLocation() == null ? "?" : e.getLocation().getLineNr())
              + ": "
              + e.getOriginalMessage().lines().findFirst().orElse("")
              + ")");
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read " + file + ": " + e.getMessage());
    }
    if (r == null || r.combinations().isEmpty()) {
      throw SolrscaleException.usage(
          file
              + " holds no finished combination yet; let the run "
              + "finish, or resume it with: solrscale run SCENARIO --out "
              + dir);
    }
    List<CombinationRun> sorted =
        r.combinations().stream()
            .sorted(
                Comparator.comparing(CombinationRun::id).thenComparingInt(CombinationRun::repeat))
            .toList();
    return new RunDir(dir, new RunResults(r.scenario(), sorted));
  }

  public Path path() {
    return dir;
  }

  public RunResults results() {
    return results;
  }

  /** The scenario's name, or the directory's when results.json has none. */
  public String name() {
    return results.scenario() != null ? results.scenario() : dir.getFileName().toString();
  }

  /** environment.json, when the run wrote one. */
  public Optional<RunEnvironment> environment() {
    Path file = dir.resolve("environment.json");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(file.toFile(), RunEnvironment.class));
    } catch (IOException e) {
      throw SolrscaleException.usage(
          file + " cannot be read: " + e.getMessage().lines().findFirst().orElse(""));
    }
  }

  /** The step's directory, or null when it recorded none. */
  public Path stepDir(StepResult step) {
    return step.dir() == null ? null : dir.resolve(step.dir());
  }

  /** The step's summary: inline in results.json, else its summary.json; null when neither. */
  public JsonNode summary(StepResult step) {
    if (step.summary() != null && !step.summary().isNull()) {
      return step.summary();
    }
    Path d = stepDir(step);
    if (d == null || !Files.isRegularFile(d.resolve("summary.json"))) {
      return null;
    }
    try {
      return JSON.readTree(d.resolve("summary.json").toFile());
    } catch (IOException e) {
      throw SolrscaleException.usage(
          d.resolve("summary.json") + " cannot be read: " + e.getMessage());
    }
  }

  /**
   * The step's summary read with the record its writer wrote ({@code what} names it in the one line
   * said when it does not read); null when the step has none.
   */
  public <T> T summary(StepResult step, Class<T> type, String what) {
    JsonNode json = summary(step);
    if (json == null || json.isNull()) {
      return null;
    }
    try {
      return JSON.treeToValue(json, type);
    } catch (JsonProcessingException e) {
      throw SolrscaleException.usage(
          dir
              + ": the summary of step "
              + step.label()
              + " in "
              + step.dir()
              + " is not a "
              + what
              + ": "
              + e.getOriginalMessage());
    }
  }

  /** A bench step's summary.json; null for another kind or none. */
  public BenchSummary bench(StepResult step) {
    return step.isBench() ? summary(step, BenchSummary.class, "bench summary") : null;
  }

  /** An index step's summary; null for another kind or none. */
  public IndexResult index(StepResult step) {
    return step.is(StepSpec.Index.class) ? summary(step, IndexResult.class, "index summary") : null;
  }

  /** A capacity step's search; null for another kind or none. */
  public CapacityResult capacity(StepResult step) {
    return step.is(StepSpec.Capacity.class)
        ? summary(step, CapacityResult.class, "capacity search")
        : null;
  }

  /** A distribute step's distribution; null for another kind or none. */
  public Distribution distribution(StepResult step) {
    return step.is(StepSpec.Distribute.class)
        ? summary(step, Distribution.class, "distribution")
        : null;
  }

  /** A chaos step's verdict; null for another kind or none. */
  public ChaosVerdict verdict(StepResult step) {
    return step.is(StepSpec.Chaos.class)
        ? summary(step, ChaosVerdict.class, "chaos verdict")
        : null;
  }

  /**
   * An index step's documents per whole second (its index-progress.csv); empty when it has none.
   */
  public double[] indexPerSecond(StepResult step) {
    return IndexProgressLog.perSecond(stepDir(step));
  }

  /** The step's timeline.csv rows; empty when it has none. */
  public List<TimelineRow> timeline(StepResult step) {
    Path d = stepDir(step);
    return d == null
        ? List.of()
        : timelines.computeIfAbsent(d, x -> Timeline.read(x.resolve("timeline.csv")));
  }

  /** A replay step's replay-requests.csv rows; empty when it has none. */
  public List<ReplayRequestRow> replayRequests(StepResult step) {
    Path d = stepDir(step);
    return d == null ? List.of() : ReplayRequestRow.TABLE.read(d.resolve(ReplayRequestRow.FILE));
  }

  /** The step's telemetry.csv samples; empty when it has none. */
  public List<TelemetrySample> telemetry(StepResult step) {
    Path d = stepDir(step);
    return d == null ? List.of() : TelemetrySample.read(d.resolve("telemetry.csv"));
  }

  /** The step's latency.hlog intervals; empty when it has none. */
  public IntervalLog intervals(StepResult step) {
    Path d = stepDir(step);
    return d == null
        ? IntervalLog.EMPTY
        : logs.computeIfAbsent(d, x -> IntervalLog.read(x.resolve("latency.hlog")));
  }
}
