package org.solrscale.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.solrscale.spec.SolrscaleException;

/**
 * Follows a run directory while any command writes it (or replays one already written): finds its
 * steps (each directory with a latency.hlog, step.json, telemetry.csv, faults.jsonl, probes.jsonl,
 * index-progress.csv and the like, down to four levels) and reads each as it grows, with the run's
 * progress.json. Everything comes from the files alone, so it works for any command and in any
 * process. Thread-safe: one thread polls, others read.
 */
public final class RunFollower {
  /** Files by which a directory is known as a run (or a step of one). */
  static final Set<String> RUN_FILES =
      Set.of(
          "latency.hlog",
          "step.json",
          "telemetry.csv",
          "faults.jsonl",
          "probes.jsonl",
          "history.jsonl",
          "targets.jsonl",
          org.solrscale.results.IndexProgressLog.FILE,
          "progress.json",
          "results.json",
          "summary.json",
          "scenario.yaml");

  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path root;
  private final Map<Path, StepFeed> steps = new LinkedHashMap<>();
  private JsonNode progress = JSON.createObjectNode();
  private boolean gone;
  private boolean report;
  private long version;

  private RunFollower(Path root) {
    this.root = root;
  }

  /**
   * Follows {@code dir}: one not there yet (a run about to start) or empty is waited for; one that
   * holds files but no run's is refused in one line.
   */
  public static RunFollower of(Path dir) {
    Path root = dir.toAbsolutePath().normalize();
    if (Files.exists(root) && !Files.isDirectory(root)) {
      throw SolrscaleException.usage(
          dir + " is a file, not a run directory: give the directory a command wrote with --out");
    }
    if (Files.isDirectory(root) && !isEmpty(root) && findSteps(root).isEmpty() && !runFile(root)) {
      throw SolrscaleException.usage(
          dir
              + " is not a run directory: it holds no latency.hlog, progress.json or results.json;"
              + " give the directory of `solrscale run` or of bench, chaos, index, capacity or"
              + " distribute with --out");
    }
    return new RunFollower(root);
  }

  private static boolean isEmpty(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    } catch (IOException e) {
      return true;
    }
  }

  private static boolean runFile(Path dir) {
    return RUN_FILES.stream().anyMatch(f -> Files.exists(dir.resolve(f)));
  }

  private static List<Path> findSteps(Path root) {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(root, 4)) {
      return s.filter(Files::isDirectory)
          .filter(
              d ->
                  Files.exists(d.resolve("latency.hlog"))
                      || Files.exists(d.resolve("step.json"))
                      || Files.exists(d.resolve("telemetry.csv"))
                      || Files.exists(d.resolve("faults.jsonl"))
                      || Files.exists(d.resolve("probes.jsonl"))
                      || Files.exists(d.resolve("history.jsonl"))
                      || Files.exists(d.resolve("targets.jsonl"))
                      || Files.exists(d.resolve(org.solrscale.results.IndexProgressLog.FILE)))
          .filter(d -> d.equals(root) || !driverOf(d))
          .toList();
    } catch (IOException | UncheckedIOException e) {
      return List.of(); // the tree changed while walked (a step being made): the next poll sees it
    }
  }

  /**
   * A driver's own run inside a bench on several drivers ({@code drivers/HOST}): its figures are in
   * the merged run beside it, so it is not a step of its own.
   */
  private static boolean driverOf(Path d) {
    Path parent = d.getParent();
    return parent != null
        && parent.getFileName() != null
        && parent.getFileName().toString().equals("drivers")
        && parent.getParent() != null
        && Files.exists(parent.getParent().resolve("latency.hlog"));
  }

  public Path root() {
    return root;
  }

  /**
   * Reads whatever was written since the last poll. A run directory deleted while followed keeps
   * its figures so far and says so once through {@code warn}.
   */
  public void poll(Consumer<String> warn) {
    boolean there = Files.isDirectory(root);
    synchronized (this) {
      if (!there) {
        if (!gone && !steps.isEmpty()) {
          warn.accept(root + " was deleted: showing the figures read before");
        }
        gone = gone || !steps.isEmpty();
        return;
      }
    }
    List<Path> found = findSteps(root);
    JsonNode p = null;
    try {
      Path file = root.resolve("progress.json");
      if (Files.isRegularFile(file)) {
        p = JSON.readTree(file.toFile());
      }
    } catch (IOException e) {
      // being replaced (it is written to a temporary file and moved): read next time
    }
    synchronized (this) {
      for (Path d : found) {
        steps.computeIfAbsent(d, k -> new StepFeed(id(k), k));
      }
      boolean news = false;
      for (StepFeed f : steps.values()) {
        try {
          news |= f.poll();
        } catch (IOException e) {
          // a file half written or just removed: read again next time
        }
      }
      if (p != null && !p.equals(progress)) {
        progress = p;
        news = true;
      }
      boolean r = Files.exists(root.resolve("report.html"));
      news |= r != report;
      report = r;
      if (news) {
        version++;
      }
    }
  }

  private String id(Path dir) {
    String rel = root.relativize(dir).toString();
    return rel.isEmpty() ? root.getFileName().toString() : rel;
  }

  /** Grows whenever something new was read. */
  public synchronized long version() {
    return version;
  }

  public synchronized boolean gone() {
    return gone;
  }

  public synchronized boolean hasReport() {
    return report;
  }

  public synchronized JsonNode progress() {
    return progress.deepCopy();
  }

  /** The steps in the order they began. */
  synchronized List<StepFeed> steps() {
    List<StepFeed> out = new ArrayList<>(steps.values());
    out.sort(
        Comparator.comparingLong((StepFeed f) -> f.startedMs == 0 ? Long.MAX_VALUE : f.startedMs)
            .thenComparing(f -> f.id));
    return out;
  }

  /** Runs {@code reader} with the steps held still (no poll meanwhile). */
  synchronized <T> T read(java.util.function.Function<List<StepFeed>, T> reader) {
    return reader.apply(steps());
  }
}
