package org.solrscale.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's progress.json, rewritten as the run goes (whole, through a temporary file and a move, so
 * that a reader never sees half of it): what runs now (combination k of n, repeat, step), since
 * when, the ETA, and whether the run has finished. {@code watch} follows it. Also each step's
 * step.json: when it began, for the times of its telemetry.
 */
public final class RunProgress {
  public static final String FILE = "progress.json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path file;
  private final Map<String, Object> fields = new LinkedHashMap<>();

  public RunProgress(Path runDir, String command) {
    this.file = runDir.resolve(FILE);
    fields.put("command", command);
    fields.put("started_ms", System.currentTimeMillis());
    fields.put("finished", false);
  }

  /** Sets fields (name, value, name, value...) and writes the file; null values are removed. */
  public synchronized void set(Object... nameValues) {
    for (int i = 0; i + 1 < nameValues.length; i += 2) {
      if (nameValues[i + 1] == null) {
        fields.remove((String) nameValues[i]);
      } else {
        fields.put((String) nameValues[i], nameValues[i + 1]);
      }
    }
    fields.put("updated_ms", System.currentTimeMillis());
    write();
  }

  /**
   * Writes the file when its directory is there (the command made it); never makes the directory,
   * so a command refused before it wrote anything leaves nothing behind. True when written.
   */
  public synchronized boolean write() {
    if (!Files.isDirectory(file.getParent())) {
      return false;
    }
    try {
      Path tmp = file.resolveSibling(FILE + ".tmp");
      JSON.writeValue(tmp.toFile(), fields);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return true;
    } catch (IOException e) {
      // progress is for watching only: a run does not stop because its progress cannot be written
      return false;
    }
  }

  /** A chaos run's history.jsonl counts its t_ms from this wall-clock time (history-start.json). */
  public static final String HISTORY_START = "history-start.json";

  /** Writes {@code dir}/history-start.json: when the history's clock began. */
  public static void historyStarted(Path dir, long startedMs) {
    try {
      JSON.writeValue(dir.resolve(HISTORY_START).toFile(), Map.of("started_ms", startedMs));
    } catch (IOException e) {
      // for watching only
    }
  }

  /** Writes {@code dir}/step.json: the step's kind, name and when it began. */
  public static void stepStarted(Path dir, String kind, String name, long startedMs) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", kind);
    m.put("name", name);
    m.put("started_ms", startedMs);
    try {
      JSON.writeValue(dir.resolve("step.json").toFile(), m);
    } catch (IOException e) {
      // as above
    }
  }
}
