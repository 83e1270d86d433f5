package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.solrscale.cluster.Cluster;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.ScenarioSpec;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;
import org.solrscale.telemetry.Telemetry;

/**
 * Runs a scenario: every combination of its matrix, each {@code repeat} times, steps in order.
 * A cluster is kept between combinations of the same topology (its collections made afresh) and
 * rebuilt when the topology changes. Each finished repeat is recorded at once, so a run that was
 * interrupted goes on where it stopped when started again with the same --out.
 */
public final class ScenarioRunner {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final SolrscaleHome home;
  private final Path out;
  private final Consumer<String> progress;
  private final String version;

  public ScenarioRunner(SolrscaleHome home, Path out, Consumer<String> progress, String version) {
    this.home = home;
    this.out = out;
    this.progress = progress;
    this.version = version;
  }

  /** What a run did: how many repeats ran now, how many were already done. */
  public record Outcome(int ran, int skipped, int total, Path results) {}

  public Outcome run(ScenarioLoader.Loaded loaded, Path scenarioFile) throws InterruptedException {
    ScenarioSpec base = loaded.base();
    String name = base.name() != null ? base.name() : "scenario";
    prepareDir(loaded.text());
    RunRecord record = new RunRecord(out, name);
    DataPrep.Data data = DataPrep.prepare(base.data(), out,
        scenarioFile == null ? null : scenarioFile.toAbsolutePath().getParent());
    String clusterName = ("scn-" + name).replaceAll("[^A-Za-z0-9_-]", "-");
    Cluster cluster = new Cluster(home, clusterName, progress);
    List<ScenarioLoader.Combination> combos = loaded.combinations().isEmpty()
        ? List.of(new ScenarioLoader.Combination("c001", new java.util.LinkedHashMap<>(), base))
        : loaded.combinations();
    int total = combos.size() * base.repeat();
    int done = 0;
    int ran = 0;
    long t0 = System.nanoTime();
    ScenarioSpec running = null;
    Thread hook = new Thread(() -> cluster.state().ifPresent(s -> cluster.down(true)));
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      for (ScenarioLoader.Combination c : combos) {
        for (int r = 1; r <= base.repeat(); r++) {
          done++;
          if (record.done(c.id(), r)) {
            continue;
          }
          long remaining = total - done + 1;
          String eta = ran == 0 ? "" : String.format(", ETA %.0f min",
              (System.nanoTime() - t0) / 1e9 / ran * remaining / 60);
          progress.accept(String.format("combination %d of %d%s: %s (repeat %d of %d)",
              done, total, eta, c.label().isEmpty() ? "(no matrix)" : c.label(), r, base.repeat()));
          running = ensureCluster(cluster, clusterName, c.spec(), running);
          if (done == 1 || ran == 0) {
            writeEnvironment(cluster, clusterName, c.spec());
          }
          record.add(runOne(cluster, c, r, data));
          ran++;
        }
      }
    } finally {
      cluster.state().ifPresent(s -> cluster.down(true));
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook takes the cluster down
      }
    }
    return new Outcome(ran, total - ran, total, out.resolve("results.json"));
  }

  private void prepareDir(String text) {
    try {
      Files.createDirectories(out.resolve("data"));
      Path saved = out.resolve("scenario.yaml");
      if (Files.isRegularFile(saved) && !Files.readString(saved).equals(text)) {
        throw SolrscaleException.usage(out + " holds a run of a different scenario; give another --out "
            + "(or remove " + out + ")");
      }
      Files.writeString(saved, text);
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write to " + out + ": " + e.getMessage());
    }
  }

  /** The cluster for {@code spec}: the running one when its topology is the same, else a new one. */
  private ScenarioSpec ensureCluster(Cluster cluster, String clusterName, ScenarioSpec spec,
      ScenarioSpec running) {
    ClusterSpec wanted = spec.cluster().withName(clusterName);
    if (running != null && ScenarioLoader.sameTopology(running, spec) && cluster.state().isPresent()) {
      for (CollectionSpec c : wanted.collections()) {
        cluster.deleteCollection(c.name());
        cluster.createCollection(c, TIMEOUT);
      }
      return spec;
    }
    if (cluster.state().isPresent()) {
      cluster.down(true);
    }
    cluster.up(wanted, TIMEOUT);
    return spec;
  }

  private RunRecord.CombinationResult runOne(Cluster cluster, ScenarioLoader.Combination c, int r,
      DataPrep.Data data) throws InterruptedException {
    long start = System.nanoTime();
    String dir = c.id() + "/r" + r;
    List<CollectionSpec> collections = c.spec().cluster().collections();
    StepRunner steps = new StepRunner(cluster, data, collections.isEmpty() ? null : collections.get(0).name(),
        progress);
    List<RunRecord.StepResult> results = new ArrayList<>();
    List<StepSpec.Fault> faults = new ArrayList<>();
    int i = 0;
    for (StepSpec step : c.spec().steps()) {
      i++;
      if (step instanceof StepSpec.Fault f) {
        faults.add(f); // runs alongside the next step
        continue;
      }
      String stepDir = dir + "/s" + i + "-" + step.kind() + "-" + step.name().replaceAll("[^A-Za-z0-9_-]", "-");
      Path path = out.resolve(stepDir);
      try {
        Files.createDirectories(path);
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot write to " + path + ": " + e.getMessage());
      }
      progress.accept("  step " + i + " of " + c.spec().steps().size() + ": " + step.kind() + " " + step.name());
      boolean scrape = step instanceof StepSpec.Bench || step instanceof StepSpec.Index
          || step instanceof StepSpec.Chaos;
      JsonNode summary;
      Map<String, Map<String, Double>> telemetry = null;
      Telemetry t = scrape ? telemetry(cluster, path) : null;
      try {
        summary = steps.run(step, path, List.copyOf(faults));
        faults.clear();
      } finally {
        if (t != null) {
          telemetry = t.stop();
        }
      }
      results.add(new RunRecord.StepResult(i, step.kind(), step.name(), stepDir, summary, telemetry));
    }
    return new RunRecord.CombinationResult(c.id(), c.params(), r, dir, "done",
        (System.nanoTime() - start) / 1e9, results);
  }

  private static Telemetry telemetry(Cluster cluster, Path dir) {
    try {
      return new Telemetry(cluster.requireState().nodes(), dir, Duration.ofSeconds(2));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write telemetry to " + dir + ": " + e.getMessage());
    }
  }

  private void writeEnvironment(Cluster cluster, String clusterName, ScenarioSpec spec) {
    try {
      JSON.writeValue(out.resolve("environment.json").toFile(), Environment.of(cluster,
          home.cluster(clusterName), spec.cluster().solrVersion(), version));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write environment.json: " + e.getMessage());
    }
  }
}
