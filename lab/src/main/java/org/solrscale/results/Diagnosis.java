package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.solrscale.spec.SolrscaleException;

/**
 * What a profiled step's flight recordings say (profile/diagnosis.json in the step's folder): per
 * Solr node its allocation rate per second, garbage-collection pauses, the locks its threads waited
 * on longest, its hot methods and flame graph; and the findings, one line each. Times are seconds
 * from {@code start}, when the recordings began (just before the step's load).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Diagnosis(
    @JsonProperty("start") String start,
    @JsonProperty("seconds") double seconds,
    @JsonProperty("lock_threshold_ms") double lockThresholdMs,
    @JsonProperty("nodes") List<Node> nodes,
    @JsonProperty("findings") List<String> findings) {

  /** Where a step's diagnosis lives, relative to the step's folder. */
  public static final String FILE = "profile/diagnosis.json";

  /** One node's recording, analysed; file names are relative to the step's folder. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Node(
      @JsonProperty("node") String node,
      @JsonProperty("recording") String recording,
      @JsonProperty("flame_graph") String flameGraph,
      @JsonProperty("allocated_mb") double allocatedMb,
      @JsonProperty("allocation_mb_per_s") List<Double> allocationMbPerSecond,
      @JsonProperty("gc_log_check") AllocationCheck gcLogCheck,
      @JsonProperty("gc_pauses") List<Pause> gcPauses,
      @JsonProperty("locks") List<Lock> locks,
      @JsonProperty("cpu_samples") long cpuSamples,
      @JsonProperty("hot_methods") List<Method> hotMethods,
      @JsonProperty("allocations") List<Allocation> allocations) {

    /** Mean allocation rate over the recording, MB/s. */
    public double meanAllocationMbPerSecond() {
      return allocationMbPerSecond.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** Highest allocation rate in any whole second, MB/s. */
    public double peakAllocationMbPerSecond() {
      return allocationMbPerSecond.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    /** Milliseconds the JVM was paused for garbage collection. */
    public double gcPauseMs() {
      return gcPauses.stream().mapToDouble(Pause::ms).sum();
    }
  }

  /**
   * The same stretch of time (from one collection to a later one) estimated twice: from the
   * recording's allocation samples and from the GC log (heap before a collection less heap after
   * the one before); {@code differencePercent} relative to the GC log's figure.
   */
  public record AllocationCheck(
      @JsonProperty("from_s") double fromS,
      @JsonProperty("to_s") double toS,
      @JsonProperty("collections") int collections,
      @JsonProperty("jfr_mb") double jfrMb,
      @JsonProperty("gc_log_mb") double gcLogMb,
      @JsonProperty("difference_percent") double differencePercent) {}

  /** One garbage-collection pause: when, how long, which collector phase and why. */
  public record Pause(
      @JsonProperty("t") double t,
      @JsonProperty("ms") double ms,
      @JsonProperty("name") String name,
      @JsonProperty("cause") String cause) {}

  /**
   * A lock threads waited on: a monitor ({@code synchronized}) or a java.util.concurrent lock, by
   * its class and the first frame outside the JDK that waited ({@code site}) and the caller beyond
   * it ({@code from}); total wait, waits, distinct threads that waited, the share of those threads'
   * time spent waiting on it, the wait per second, and the stack that waited most.
   */
  public record Lock(
      @JsonProperty("kind") String kind,
      @JsonProperty("lock") String lock,
      @JsonProperty("site") String site,
      @JsonProperty("from") String from,
      @JsonProperty("wait_ms") double waitMs,
      @JsonProperty("waits") long waits,
      @JsonProperty("threads") int threads,
      @JsonProperty("share") double share,
      @JsonProperty("wait_ms_per_s") List<Double> waitMsPerSecond,
      @JsonProperty("stack") List<String> stack) {

    /** "ReentrantLock$FairSync in UpdateLocks.runWithLockInternal", for people. */
    public String label() {
      return simple(lock) + (site == null ? "" : " in " + site);
    }
  }

  /** A method by its share of CPU samples: on top of the stack (self) or anywhere in it. */
  public record Method(
      @JsonProperty("method") String method,
      @JsonProperty("self_percent") double selfPercent,
      @JsonProperty("total_percent") double totalPercent) {}

  /** What was allocated most: the class, where (first frame outside the JDK), MB and share. */
  public record Allocation(
      @JsonProperty("class") String type,
      @JsonProperty("site") String site,
      @JsonProperty("mb") double mb,
      @JsonProperty("percent") double percent) {}

  /** A class name without its package: org.a.B$C -> B$C. */
  public static String simple(String className) {
    return className == null ? "?" : className.substring(className.lastIndexOf('.') + 1);
  }

  /** The step's diagnosis, when it was profiled. */
  public static Optional<Diagnosis> read(Path stepDir) {
    Path file = stepDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(RunDir.JSON.readValue(file.toFile(), Diagnosis.class));
    } catch (IOException e) {
      throw SolrscaleException.usage(file + " is not a diagnosis: " + e.getMessage());
    }
  }

  /** Writes it to the step's folder. */
  public void write(Path stepDir) {
    Path file = stepDir.resolve(FILE);
    try {
      Files.createDirectories(file.getParent());
      RunDir.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), this);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }
}
