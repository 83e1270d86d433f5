package org.solrscale.load;

import java.util.List;
import org.solrscale.spec.SolrscaleException;

/** How requests are sent: a closed loop of threads, or an open loop at one rate or a staircase. */
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
}
