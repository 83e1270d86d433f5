package org.solrscale.capacity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The smallest topology that serves a rate: among measured topologies (and ones a scalability fit
 * predicts), ordered by size (Solr nodes, then ZooKeepers, replicas, shards, heap: whichever of
 * those a sweep changed), the first whose capacity interval lies wholly at or above the rate; then
 * the next ones that do as alternatives, one per size. A topology whose interval straddles the rate
 * is not taken: it met the rate in some repeats or probes only.
 */
public final class Recommend {
  /** The best alternatives named besides the choice. */
  static final int ALTERNATIVES = 2;

  private Recommend() {}

  /**
   * A topology: its label, its size (compared element by element, smaller first), its capacity and
   * the interval it lies in (high null: unbounded above, the search's maximum rate met the
   * objective), and whether the figures are a prediction rather than measured.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Candidate(
      @JsonProperty("label") String label,
      @JsonProperty("size") double[] size,
      @JsonProperty("capacity") double capacity,
      @JsonProperty("low") double low,
      @JsonProperty("high") Double high,
      @JsonProperty("predicted") boolean predicted) {

    /** Whether the whole interval is at or above the rate. */
    public boolean serves(double rate) {
      return low >= rate;
    }
  }

  /**
   * The choice (null when nothing serves the rate), the alternatives, and the topology that came
   * closest when nothing does.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Result(
      @JsonProperty("rate") double rate,
      @JsonProperty("chosen") Candidate chosen,
      @JsonProperty("alternatives") List<Candidate> alternatives,
      @JsonProperty("closest") Candidate closest) {}

  /** Smaller first; of equal size, measured before predicted, then the higher capacity. */
  static final Comparator<Candidate> ORDER =
      ((Comparator<Candidate>) (a, b) -> compareSizes(a.size(), b.size()))
          .thenComparing(Candidate::predicted)
          .thenComparing(Comparator.comparingDouble(Candidate::capacity).reversed());

  public static Result recommend(double rate, List<Candidate> candidates) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(ORDER);
    List<Candidate> serving = sorted.stream().filter(c -> c.serves(rate)).toList();
    if (serving.isEmpty()) {
      Candidate closest =
          candidates.stream().max(Comparator.comparingDouble(Candidate::capacity)).orElse(null);
      return new Result(rate, null, List.of(), closest);
    }
    // one per topology: the same size measured with other threads or drivers is no alternative
    List<Candidate> alternatives = new ArrayList<>();
    List<double[]> sizes = new ArrayList<>(List.of(serving.get(0).size()));
    for (Candidate c : serving.subList(1, serving.size())) {
      if (alternatives.size() < ALTERNATIVES
          && sizes.stream().noneMatch(z -> Arrays.equals(z, c.size()))) {
        sizes.add(c.size());
        alternatives.add(c);
      }
    }
    return new Result(rate, serving.get(0), alternatives, null);
  }

  static int compareSizes(double[] a, double[] b) {
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int c = Double.compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  }
}
