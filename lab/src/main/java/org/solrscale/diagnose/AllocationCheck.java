package org.solrscale.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.solrscale.results.Diagnosis;

/**
 * Allocation estimated twice over the same stretch of a step, from the first collection in it to
 * the last: by the GC log (each collection's heap before it, less the heap after the one before)
 * and by the recording's allocation samples (their weights) in between.
 */
final class AllocationCheck {
  /** Less between collections than this, and the GC log's whole megabytes are too coarse. */
  static final double MIN_MB = 64;

  private AllocationCheck() {}

  /**
   * The comparison, or null when fewer than two collections fell within the step or too little was
   * allocated between them.
   */
  static Diagnosis.AllocationCheck of(
      List<GcLog.Pause> pauses,
      List<RecordingAnalysis.AllocationSample> samples,
      Instant start,
      Instant end) {
    List<GcLog.Pause> in =
        pauses.stream().filter(p -> !p.end().isBefore(start) && !p.end().isAfter(end)).toList();
    if (in.size() < 2) {
      return null;
    }
    long gcLog = 0;
    for (int i = 1; i < in.size(); i++) {
      gcLog += Math.max(0, in.get(i).before() - in.get(i - 1).after());
    }
    double from = seconds(start, in.get(0).end());
    double to = seconds(start, in.get(in.size() - 1).end());
    long jfr =
        samples.stream()
            .filter(s -> s.t() >= from && s.t() < to)
            .mapToLong(RecordingAnalysis.AllocationSample::bytes)
            .sum();
    double gcLogMb = gcLog / 1e6;
    double jfrMb = jfr / 1e6;
    if (gcLogMb < MIN_MB) {
      return null;
    }
    return new Diagnosis.AllocationCheck(
        RecordingAnalysis.round(from),
        RecordingAnalysis.round(to),
        in.size() - 1,
        RecordingAnalysis.round(jfrMb),
        RecordingAnalysis.round(gcLogMb),
        RecordingAnalysis.round(gcLogMb == 0 ? 0 : 100 * (jfrMb - gcLogMb) / gcLogMb));
  }

  private static double seconds(Instant start, Instant t) {
    return Duration.between(start, t).toNanos() / 1e9;
  }
}
