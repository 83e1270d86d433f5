package org.solrscale.diagnose;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.Parallel;
import org.solrscale.cluster.ProcessState;
import org.solrscale.results.Diagnosis;
import org.solrscale.runtime.FileTrees;
import org.solrscale.spec.SolrscaleException;

/**
 * Records every running Solr node of a cluster solrscale started with Java Flight Recorder for the
 * length of one step (started and stopped through jcmd by the node's pid), then reads the
 * recordings into a {@link Diagnosis}. Recordings, their repositories and what is made of them go
 * to {@code profile/} in the step's folder and nowhere else; no recording outlives the step.
 */
public final class Profiler implements AutoCloseable {
  /**
   * Waits on locks shorter than this are not recorded: JFR's profile settings keep only those of 10
   * ms and more, which hides a lock many threads queue on briefly.
   */
  public static final String LOCK_THRESHOLD = "1ms";

  static final double LOCK_THRESHOLD_MS = 1;

  private final Cluster cluster;
  private final List<NodeState> nodes;
  private final Path stepDir;
  private final Path dir;
  private final String name = "solrscale-" + UUID.randomUUID().toString().substring(0, 8);
  private final Consumer<String> progress;
  private Instant start;
  private boolean stopped;

  private Profiler(Cluster cluster, Path stepDir, Consumer<String> progress) {
    this.cluster = cluster;
    this.stepDir = stepDir.toAbsolutePath();
    this.dir = this.stepDir.resolve("profile");
    this.progress = progress;
    this.nodes =
        cluster.requireState().nodes().stream()
            .filter(NodeState::isSolr)
            .filter(n -> cluster.hosts().state(n) == ProcessState.RUNNING)
            .toList();
  }

  /** Starts a recording on every running Solr node; its files will go to stepDir/profile/. */
  public static Profiler start(Cluster cluster, Path stepDir, Consumer<String> progress) {
    Profiler p = new Profiler(cluster, stepDir, progress);
    if (p.nodes.isEmpty()) {
      throw SolrscaleException.usage(
          "--profile: no Solr node of cluster '" + cluster.name() + "' is running");
    }
    try {
      Files.createDirectories(p.dir);
    } catch (java.io.IOException e) {
      throw SolrscaleException.environment("cannot write " + p.dir + ": " + e.getMessage());
    }
    List<NodeState> started = new ArrayList<>();
    try {
      Parallel.map(
          p.nodes,
          n -> {
            p.begin(n);
            synchronized (started) {
              started.add(n);
            }
            return null;
          });
    } catch (RuntimeException e) {
      started.forEach(p::discard);
      p.removeRepositories();
      throw e;
    }
    p.start = Instant.now();
    progress.accept("profiling " + p.nodes.size() + " Solr node(s) with Java Flight Recorder");
    return p;
  }

  private void begin(NodeState n) {
    cluster.hosts().jcmd(n, List.of("JFR.configure", "repositorypath=" + repository(n)));
    // (the node launcher set JFR up when the node started: see SolrNode.readyForFlightRecordings)
    cluster.hosts().jcmd(n, settings("JFR.start", name));
  }

  private static List<String> settings(String command, String recording) {
    return List.of(
        command,
        "name=" + recording,
        "settings=profile",
        "jdk.ThreadPark#threshold=" + LOCK_THRESHOLD,
        "jdk.JavaMonitorEnter#threshold=" + LOCK_THRESHOLD);
  }

  /**
   * Where the node's JVM keeps the recording's chunks: the step's profile/ folder, or for a node on
   * another host a folder of its own there, brought here when the recording ends.
   */
  private String repository(NodeState n) {
    String scratch = cluster.hosts().scratchDir(n);
    return scratch == null
        ? dir.resolve(".repository-" + n.id()).toString()
        : remoteFolder(scratch) + "/repository";
  }

  /** Where the node's JVM writes the recording (on its host). */
  private String target(NodeState n) {
    String scratch = cluster.hosts().scratchDir(n);
    return scratch == null
        ? recording(n).toString()
        : remoteFolder(scratch) + "/" + n.id() + ".jfr";
  }

  private String remoteFolder(String scratch) {
    return scratch + "/" + name;
  }

  /** The recording in the step's profile/ folder. */
  private Path recording(NodeState n) {
    return dir.resolve(n.id() + ".jfr");
  }

  /** Ends the node's recording: written, and brought here when the node runs on another host. */
  private void finish(NodeState n) {
    cluster.hosts().jcmd(n, List.of("JFR.stop", "name=" + name, "filename=" + target(n)));
    String scratch = cluster.hosts().scratchDir(n);
    if (scratch != null) {
      Path fetched = dir.resolve(".collect-" + n.id());
      cluster.hosts().collect(n, remoteFolder(scratch), fetched);
      try {
        Files.move(fetched.resolve(n.id() + ".jfr"), recording(n));
      } catch (java.io.IOException e) {
        throw SolrscaleException.environment(
            "the recording of " + n.id() + " did not arrive from its host: " + e.getMessage());
      } finally {
        FileTrees.delete(fetched);
      }
      cluster.hosts().fetchLogs(n); // its GC log, for the allocation check
    }
  }

  /**
   * Stops every recording (each writes its file), checks none is left running, and reads them:
   * writes profile/diagnosis.json and a flame graph per node, and returns the diagnosis.
   */
  public Diagnosis stop() {
    Instant end = Instant.now();
    stopped = true;
    List<String> lost = new ArrayList<>();
    List<NodeState> recorded;
    try {
      recorded =
          Parallel.map(
                  nodes,
                  n -> {
                    try {
                      finish(n);
                      return n;
                    } catch (SolrscaleException e) {
                      // stopped, killed or restarted during the step: its recording went with it
                      synchronized (lost) {
                        lost.add(n.id());
                      }
                      return null;
                    }
                  })
              .stream()
              .filter(n -> n != null)
              .toList();
      for (NodeState n : recorded) {
        if (cluster.hosts().jcmd(n, List.of("JFR.check")).contains(name)) {
          throw SolrscaleException.environment(
              "the recording on " + n.id() + " is still running after JFR.stop");
        }
      }
    } finally {
      removeRepositories();
    }
    progress.accept("reading the flight recordings");
    List<Diagnosis.Node> out = Parallel.map(recorded, n -> analyse(n, end));
    double seconds = Duration.between(start, end).toMillis() / 1000.0;
    List<String> findings = new ArrayList<>(Findings.of(out, seconds));
    lost.stream()
        .sorted()
        .forEach(
            id ->
                findings.add(
                    id
                        + " stopped or restarted during the step: its recording was lost with its"
                        + " JVM"));
    Diagnosis d = new Diagnosis(start.toString(), seconds, LOCK_THRESHOLD_MS, out, findings);
    d.write(stepDir);
    return d;
  }

  private Diagnosis.Node analyse(NodeState n, Instant end) {
    Path jfr = recording(n);
    if (!Files.isRegularFile(jfr)) {
      throw SolrscaleException.environment(
          n.id() + " wrote no recording to " + jfr + " (is the disk full?)");
    }
    RecordingAnalysis a = RecordingAnalysis.of(jfr, start, end);
    Path svg = dir.resolve(n.id() + "-cpu.svg");
    FlameGraph.write(a.flame, n.id() + ": CPU", svg);
    Diagnosis.Node node = a.node(n.id(), stepDir.relativize(jfr).toString());
    Diagnosis.AllocationCheck check =
        AllocationCheck.of(
            GcLog.read(cluster.hosts().nodeDir(n).resolve("logs"), "solr_gc.log"),
            a.samples(),
            start,
            end);
    return new Diagnosis.Node(
        node.node(),
        node.recording(),
        stepDir.relativize(svg.toAbsolutePath()).toString(),
        node.allocatedMb(),
        node.allocationMbPerSecond(),
        check,
        node.gcPauses(),
        node.locks(),
        node.cpuSamples(),
        node.hotMethods(),
        node.allocations());
  }

  /** A recording that must not outlive a failed step: stopped, its data thrown away. */
  private void discard(NodeState n) {
    String running;
    try {
      running = cluster.hosts().jcmd(n, List.of("JFR.check"));
    } catch (RuntimeException e) {
      return; // the node is gone, and its recordings with it
    }
    if (running.contains("name=" + name + " ")) {
      try {
        cluster.hosts().jcmd(n, List.of("JFR.stop", "name=" + name));
      } catch (RuntimeException e) {
        progress.accept(
            "warning: the recording "
                + name
                + " on "
                + n.id()
                + " may still run: "
                + e.getMessage());
      }
    }
  }

  private void removeRepositories() {
    nodes.stream()
        .filter(n -> cluster.hosts().scratchDir(n) == null) // on a host: went with collect
        .forEach(n -> FileTrees.delete(Path.of(repository(n))));
  }

  /** Stops the recordings without reading them, when the step did not finish. */
  @Override
  public void close() {
    if (!stopped) {
      stopped = true;
      nodes.forEach(this::discard);
      removeRepositories();
    }
  }
}
