package org.solrscale.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.DoubleStream;
import org.solrscale.results.Statistics;

/**
 * Judges B against A for one bench step, metric by metric. Samples: the repeats' summary values
 * when both sides have enough repeats for the test to reach alpha; otherwise the per-second values
 * of the measured phase (all repeats pooled), and then, when both sides have two or more repeats, a
 * difference only counts if the repeats do not overlap either. A difference is significant when p <
 * alpha and the change of medians exceeds the practical threshold.
 */
final class Judge {
  static final double ALPHA = 0.05;
  static final double THRESHOLD = 0.05;

  private Judge() {}

  static Comparison.StepDelta judge(
      String aLabel,
      String bLabel,
      String label,
      String step,
      List<RunModel.Bench> a,
      List<RunModel.Bench> b) {
    List<Comparison.MetricDelta> metrics = new ArrayList<>();
    for (Metric m : Metric.BENCH) {
      metrics.add(judge(m, a, b));
    }
    return new Comparison.StepDelta(
        aLabel, bLabel, label, step, samples(a.size(), b.size()), a.size(), b.size(), metrics);
  }

  /**
   * B against A for one index step: documents per second, the repeats' values as samples when there
   * are enough, else the documents of each whole second of the loads (with the overlap rule for two
   * or more repeats a side), as for a bench step.
   */
  static Comparison.StepDelta judgeIndex(
      String aLabel,
      String bLabel,
      String label,
      String step,
      List<RunModel.IndexLoad> a,
      List<RunModel.IndexLoad> b) {
    double[] ra = a.stream().mapToDouble(RunModel.IndexLoad::docsPerSec).toArray();
    double[] rb = b.stream().mapToDouble(RunModel.IndexLoad::docsPerSec).toArray();
    Comparison.MetricDelta d;
    if (useRepeats(a.size(), b.size())) {
      d = judge(Metric.DOCS, ra, rb, null, null);
    } else {
      boolean overlapRule = a.size() >= 2 && b.size() >= 2;
      d =
          judge(
              Metric.DOCS,
              a.stream().flatMapToDouble(x -> Arrays.stream(x.perSecond())).toArray(),
              b.stream().flatMapToDouble(x -> Arrays.stream(x.perSecond())).toArray(),
              overlapRule ? ra : null,
              overlapRule ? rb : null);
    }
    return new Comparison.StepDelta(
        aLabel, bLabel, label, step, samples(a.size(), b.size()), a.size(), b.size(), List.of(d));
  }

  /**
   * Whether index steps can be judged: enough repeats a side, or per-second values on both (a run
   * made before index-progress.csv, with few repeats, has neither: its index steps are left out).
   */
  static boolean indexJudgeable(List<RunModel.IndexLoad> a, List<RunModel.IndexLoad> b) {
    return useRepeats(a.size(), b.size())
        || (a.stream().anyMatch(x -> x.perSecond().length > 0)
            && b.stream().anyMatch(x -> x.perSecond().length > 0));
  }

  /** The samples rule of a capacity comparison of these repeat counts. */
  static String capacitySamples(int repeatsA, int repeatsB) {
    return "capacity searches, intervals must not overlap"
        + (CapacityStudy.rankTested(repeatsA, repeatsB) ? ", repeats by rank test" : "");
  }

  /**
   * B against A for one capacity step, by the report's rule ({@link CapacityStudy#differ}): the
   * mean capacities over repeats differ when they are more than {@link #THRESHOLD} apart and the
   * lower one's interval (its highest failing rate) ends at or below the higher one's lowest
   * capacity; with 4 or more repeats a side the rank test must agree. Searches against different
   * objectives, or with fewer than {@link CapacityStudy#MIN_REPEATS} a side, are not judged ("not
   * tested"; the change in percent is still given when the objectives agree).
   */
  static Comparison.StepDelta judgeCapacity(
      String aLabel,
      String bLabel,
      String label,
      String step,
      CapacityStudy.Entry a,
      CapacityStudy.Entry b) {
    int na = a.searches().size();
    int nb = b.searches().size();
    boolean sameSlo = a.slo().equals(b.slo());
    boolean comparable = sameSlo && CapacityStudy.judgeable(a, b);
    boolean differ = comparable && CapacityStudy.differ(a, b);
    boolean higher = b.capacity() > a.capacity();
    boolean rankTest = CapacityStudy.rankTested(na, nb);
    Comparison.MetricDelta d =
        new Comparison.MetricDelta(
            Comparison.CAPACITY,
            "requests/s",
            "higher",
            na,
            nb,
            a.capacity(),
            b.capacity(),
            sameSlo ? pct(Statistics.relative(a.capacity(), b.capacity())) : null,
            null,
            null,
            comparable && rankTest ? Statistics.mannWhitneyP(a.perRepeat(), b.perRepeat()) : null,
            !comparable
                ? "not tested"
                : !differ
                    ? "no significant difference"
                    : higher ? "higher capacity" : "lower capacity",
            differ && !higher,
            !sameSlo
                ? "the objectives differ: " + a.slo() + " and " + b.slo()
                : (comparable ? "" : CapacityStudy.notJudgeable(na, nb) + "; ")
                    + "intervals "
                    + CapacityStudy.interval(a.low(), a.high())
                    + " and "
                    + CapacityStudy.interval(b.low(), b.high())
                    + " requests/s within "
                    + a.slo());
    return new Comparison.StepDelta(
        aLabel, bLabel, label, step, capacitySamples(na, nb), na, nb, List.of(d));
  }

  /** Which samples a comparison of these repeat counts uses. */
  static String samples(int repeatsA, int repeatsB) {
    return useRepeats(repeatsA, repeatsB)
        ? "repeats"
        : repeatsA >= 2 && repeatsB >= 2 ? "per-second, repeats must not overlap" : "per-second";
  }

  private static boolean useRepeats(int a, int b) {
    return a >= 2 && b >= 2 && minimumP(a, b) < ALPHA;
  }

  /**
   * Two replays of one log, kind by kind (collection and handler): each kind's latency, every
   * replayed request a sample, B against A, as a step "KEY kind KIND". Empty unless both sides are
   * replays with replay-requests.csv.
   */
  static List<Comparison.StepDelta> judgeReplayKinds(
      String aLabel,
      String bLabel,
      String label,
      String step,
      List<RunModel.Bench> a,
      List<RunModel.Bench> b) {
    if (a.get(0).summary().replay() == null || b.get(0).summary().replay() == null) {
      return List.of();
    }
    java.util.Map<String, List<Double>> byKindA = latencyByKind(a);
    java.util.Map<String, List<Double>> byKindB = latencyByKind(b);
    List<Comparison.StepDelta> out = new ArrayList<>();
    for (String kind : byKindA.keySet()) {
      List<Double> lb = byKindB.get(kind);
      if (lb == null) {
        continue;
      }
      double[] xa = byKindA.get(kind).stream().mapToDouble(Double::doubleValue).toArray();
      double[] xb = lb.stream().mapToDouble(Double::doubleValue).toArray();
      out.add(
          new Comparison.StepDelta(
              aLabel,
              bLabel,
              label,
              step + " kind " + kind,
              "per-request",
              a.size(),
              b.size(),
              List.of(judge(Metric.P50, xa, xb, null, null))));
    }
    return out;
  }

  private static java.util.Map<String, List<Double>> latencyByKind(List<RunModel.Bench> benches) {
    java.util.Map<String, List<Double>> out = new java.util.TreeMap<>();
    for (RunModel.Bench x : benches) {
      for (org.solrscale.results.ReplayRequestRow r : x.replayRequests()) {
        if (r.hits() >= 0) {
          out.computeIfAbsent(r.kind(), k -> new ArrayList<>()).add(r.latencyMs());
        }
      }
    }
    return out;
  }

  /** B against A on one metric. */
  static Comparison.MetricDelta judge(Metric m, List<RunModel.Bench> a, List<RunModel.Bench> b) {
    if (useRepeats(a.size(), b.size())) {
      return judge(m, perRepeat(a, m), perRepeat(b, m), null, null);
    }
    boolean overlapRule = a.size() >= 2 && b.size() >= 2;
    return judge(
        m,
        perSecond(a, m),
        perSecond(b, m),
        overlapRule ? perRepeat(a, m) : null,
        overlapRule ? perRepeat(b, m) : null);
  }

  /** The smallest two-sided p the exact test can give for samples of these sizes. */
  static double minimumP(int n1, int n2) {
    double orderings = 1;
    for (int i = 1; i <= n2; i++) {
      orderings = orderings * (n1 + i) / i;
    }
    return 2 / orderings;
  }

  static double[] perRepeat(List<RunModel.Bench> benches, Metric m) {
    return benches.stream().mapToDouble(x -> m.of(x.summary())).toArray();
  }

  static double[] perSecond(List<RunModel.Bench> benches, Metric m) {
    return benches.stream()
        .flatMapToDouble(x -> Arrays.stream(m.perSecond(x.timeline(), x.intervals())))
        .toArray();
  }

  static Comparison.MetricDelta judge(
      Metric m, double[] a, double[] b, double[] repeatsA, double[] repeatsB) {
    String better = m.higherIsBetter ? "higher" : "lower";
    if (a.length == 0 || b.length == 0) {
      String why =
          m == Metric.P999
              ? "no latency.hlog"
              : m == Metric.DOCS ? "no index-progress.csv" : "no timeline.csv";
      return new Comparison.MetricDelta(
          m.label,
          m.unit,
          better,
          a.length,
          b.length,
          null,
          null,
          null,
          null,
          null,
          null,
          "not tested",
          false,
          "no per-second values (" + why + ")");
    }
    Statistics.Difference d = Statistics.compare(a, b);
    boolean allZero = DoubleStream.concat(Arrays.stream(a), Arrays.stream(b)).allMatch(v -> v == 0);
    boolean significant = !allZero && d.p() < ALPHA && Math.abs(d.relative()) > THRESHOLD;
    String note = Double.isInfinite(d.relative()) ? "A's median is 0" : null;
    if (significant && d.ciLow() <= 0 && d.ciHigh() >= 0) {
      // the two methods disagree (ties, or a skewed sample): the cautious one decides
      significant = false;
      note = "p < " + ALPHA + ", but the change's 95 % interval spans 0";
    }
    if (significant && repeatsA != null && overlap(repeatsA, repeatsB)) {
      significant = false;
      note = "the per-second values differ, but the repeats overlap";
    }
    boolean improved = m.higherIsBetter ? d.relative() > 0 : d.relative() < 0;
    String verdict =
        !significant
            ? "no significant difference"
            : m == Metric.ERRORS
                ? (improved ? "fewer errors" : "more errors")
                : improved ? "faster" : "slower";
    return new Comparison.MetricDelta(
        m.label,
        m.unit,
        better,
        a.length,
        b.length,
        d.medianA(),
        d.medianB(),
        pct(d.relative()),
        pct(d.ciLow()),
        pct(d.ciHigh()),
        d.p(),
        verdict,
        significant && !improved,
        note);
  }

  private static boolean overlap(double[] a, double[] b) {
    double minA = Arrays.stream(a).min().orElse(0);
    double maxA = Arrays.stream(a).max().orElse(0);
    double minB = Arrays.stream(b).min().orElse(0);
    double maxB = Arrays.stream(b).max().orElse(0);
    return minA <= maxB && minB <= maxA;
  }

  /** Percent, or null when undefined (A's median is 0 and B's is not). */
  private static Double pct(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? null : v * 100;
  }
}
