package org.solrscale.load;

import java.util.List;
import org.solrscale.spec.SolrscaleException;

/**
 * How requests are sent: a closed loop of threads, an open loop at one rate or a staircase, or a
 * replay of logged requests at their own times.
 */
public sealed interface LoadModel {
  /** Each of {@code threads} sends its next request when the previous one returned. */
  record Closed(int threads) implements LoadModel {
    public Closed {
      if (threads < 1) {
        throw SolrscaleException.usage("--threads must be at least 1");
      }
    }
  }

  /**
   * Requests start at scheduled times whatever the server does: {@code rates} per second, one after
   * another for {@code stepNanos} each (one rate: the whole duration), uniform or Poisson arrivals.
   */
  record Open(List<Double> rates, long stepNanos, boolean poisson) implements LoadModel {
    public Open {
      if (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0))) {
        throw SolrscaleException.usage(
            "--rate must be one or more rates above 0, e.g. 100 or 50,100,200");
      }
      rates = List.copyOf(rates);
    }
  }

  /**
   * Open loop on a log's schedule: each request at its own offset from the start; {@code loop}
   * starts again at the end. {@code file}: the log's requests, for the record; {@code
   * slowerFactor}: how many times its logged QTime a request may take before the check lists it as
   * slower.
   */
  record Replay(
      ReplaySchedule schedule,
      boolean loop,
      double speed,
      long maxGapNanos,
      String file,
      double slowerFactor)
      implements LoadModel {}
}
