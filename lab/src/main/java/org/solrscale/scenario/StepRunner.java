package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.solrscale.chaos.FaultRunner;
import org.solrscale.cluster.Target;
import org.solrscale.results.FaultRecord;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * Runs one step of a scenario with the faults that run alongside it: its action (from {@link
 * StepActions}) inside a fault runner, unless the action injects them itself.
 */
final class StepRunner {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Target target;
  private final DataPrep.Data data;
  private final String defaultCollection;
  private final Consumer<String> progress;
  private final Path scenarioDir;
  private final HostChanges changes = new HostChanges();

  StepRunner(
      Target target,
      DataPrep.Data data,
      String defaultCollection,
      Path scenarioDir,
      Consumer<String> progress) {
    this.progress = progress;
    this.scenarioDir = scenarioDir;
    this.target = target;
    this.data = data;
    this.defaultCollection = defaultCollection;
  }

  /** Puts back what limits steps of this repeat changed on the hosts (at the repeat's end). */
  void undo() {
    target.cluster().ifPresent(c -> changes.undo(c, progress));
  }

  /**
   * Runs {@code step} with {@code faults} injected alongside it (their offsets counting from the
   * step's start; faults.json records what they did); returns its summary (or null).
   */
  JsonNode run(StepSpec step, Path dir, List<StepSpec.Fault> faults) throws InterruptedException {
    StepActions.Entry<?> action = StepActions.of(step);
    StepRun run =
        new StepRun(
            target,
            data,
            defaultCollection,
            scenarioDir,
            progress,
            dir,
            List.copyOf(faults),
            changes);
    if (faults.isEmpty() || action.action().takesFaults()) {
      return action.run(step, run);
    }
    FaultRunner runner =
        new FaultRunner(run.cluster(), defaultCollection, null, progress)
            .recordEventsTo(dir.resolve("faults.jsonl"));
    runner.preflight(faults); // one the cluster already tells will be refused: before the step
    runner.start(faults);
    try {
      return action.run(step, run);
    } finally {
      List<FaultRecord> records = runner.finish();
      try {
        JSON.writerWithDefaultPrettyPrinter()
            .writeValue(dir.resolve("faults.json").toFile(), records);
      } catch (IOException e) {
        throw SolrscaleException.environment("cannot write faults.json: " + e.getMessage());
      }
    }
  }
}
